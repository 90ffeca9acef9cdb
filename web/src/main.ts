// The app shell: top bar (language, sound, full screen) and a router between the home page
// and game pages (/g/{id}).
import 'chessground/assets/chessground.base.css';
import 'chessground/assets/chessground.brown.css';
import 'chessground/assets/chessground.cburnett.css';
import './style.css';
import { h, clear } from './dom';
import { setLang, t } from './i18n';
import { loadPrefs, savePrefs, type Prefs } from './prefs';
import { setSoundEnabled } from './sound';
import { renderHome } from './home';
import { GamePage } from './game';

const prefs: Prefs = loadPrefs();
setLang(prefs.lang);
setSoundEnabled(prefs.sound);

const app = document.getElementById('app')!;
let page: { destroy(): void } | null = null;

export function navigate(path: string): void {
  history.pushState(null, '', path);
  route();
}

function topBar(): HTMLElement {
  const soundButton = h('button.icon', {
    'aria-pressed': String(prefs.sound),
    title: t(prefs.sound ? 'soundOn' : 'soundOff'),
    'aria-label': t(prefs.sound ? 'soundOn' : 'soundOff'),
    onclick: () => {
      prefs.sound = !prefs.sound;
      setSoundEnabled(prefs.sound);
      savePrefs(prefs);
      route();
    },
  }, t(prefs.sound ? 'soundOn' : 'soundOff'));
  const langButton = h('button.lang', {
    'aria-label': t('language'),
    onclick: () => {
      prefs.lang = prefs.lang === 'zh' ? 'en' : 'zh';
      setLang(prefs.lang);
      savePrefs(prefs);
      route();
    },
  }, prefs.lang === 'zh' ? 'English' : '中文');
  const fullButton = h('button', {
    onclick: () => {
      if (document.fullscreenElement) void document.exitFullscreen();
      else void document.documentElement.requestFullscreen?.().catch(() => undefined);
    },
  }, t('fullscreen'));
  return h('header.topbar', {},
    h('a.brand', { href: '/', onclick: (e: Event) => { e.preventDefault(); navigate('/'); } }, '♛ ', t('appName')),
    h('nav', {}, langButton, soundButton, fullButton));
}

function route(): void {
  page?.destroy();
  page = null;
  clear(app);
  document.title = t('appName');
  app.append(topBar());
  const main = h('main', {});
  app.append(main);
  const m = location.pathname.match(/^\/g\/([A-Za-z0-9]+)$/);
  if (m) {
    page = new GamePage(main, m[1], prefs, navigate);
  } else {
    renderHome(main, prefs, navigate);
  }
}

window.addEventListener('popstate', route);
route();
