// The app shell: the top bar (language, sound, full screen) and a router between the home page
// and game pages (/g/{id}). Switching language or sound redraws the page in place: a game's
// socket stays open.
import 'chessground/assets/chessground.base.css';
import 'chessground/assets/chessground.brown.css';
import 'chessground/assets/chessground.cburnett.css';
import './style.css';
import { h } from './dom';
import { setLang, t } from './i18n';
import { loadPrefs, savePrefs, type Prefs } from './prefs';
import { setSoundEnabled } from './sound';
import { HomePage } from './home';
import { GamePage } from './round/main';

interface Page {
  redraw(): void;
  destroy(): void;
}

const prefs: Prefs = loadPrefs();
setLang(prefs.lang);
setSoundEnabled(prefs.sound);

const app = document.getElementById('app')!;
const bar = h('header.topbar', {});
const main = h('main', {});
app.replaceChildren(bar, main);
let page: Page | null = null;

export function navigate(path: string): void {
  history.pushState(null, '', path);
  route();
}

/** The preferences changed: remember them and draw everything again in place. */
function changed(): void {
  setLang(prefs.lang);
  setSoundEnabled(prefs.sound);
  savePrefs(prefs);
  drawTopBar();
  page?.redraw();
}

function drawTopBar(): void {
  const soundLabel = t(prefs.sound ? 'soundOn' : 'soundOff');
  const soundButton = h('button.icon', {
    'aria-pressed': String(prefs.sound),
    title: soundLabel,
    'aria-label': soundLabel,
    onclick: () => {
      prefs.sound = !prefs.sound;
      changed();
    },
  }, soundLabel);
  const langButton = h('button.lang', {
    'aria-label': t('language'),
    onclick: () => {
      prefs.lang = prefs.lang === 'zh' ? 'en' : 'zh';
      changed();
    },
  }, prefs.lang === 'zh' ? 'English' : '中文');
  const fullButton = h('button', {
    onclick: () => {
      if (document.fullscreenElement) void document.exitFullscreen();
      else void document.documentElement.requestFullscreen?.().catch(() => undefined);
    },
  }, t('fullscreen'));
  bar.replaceChildren(
    h('a.brand', { href: '/', onclick: (e: Event) => { e.preventDefault(); navigate('/'); } }, '♛ ', t('appName')),
    h('nav', {}, langButton, soundButton, fullButton));
  document.title = t('appName');
}

function route(): void {
  page?.destroy();
  main.replaceChildren();
  drawTopBar();
  const m = location.pathname.match(/^\/g\/([A-Za-z0-9]+)$/);
  page = m ? new GamePage(main, m[1], prefs, navigate) : new HomePage(main, prefs, navigate);
}

window.addEventListener('popstate', route);
route();
