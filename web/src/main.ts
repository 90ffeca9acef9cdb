// The app shell: the top bar (account, language, sound, full screen) and a router between the
// home page, the account pages, tournaments (/tournament, /tournament/{id}) and game pages
// (/g/{id}). Switching language or sound redraws
// the page in place: a game's socket stays open. Signed in, the preferences are the account's.
import 'chessground/assets/chessground.base.css';
import 'chessground/assets/chessground.brown.css';
import 'chessground/assets/chessground.cburnett.css';
import './style.css';
import { h } from './dom';
import { setLang, t } from './i18n';
import { boardPrefs, loadPrefs, mergePrefs, savePrefs, type Prefs } from './prefs';
import { openPreferences } from './prefsdialog';
import { setSoundEnabled } from './sound';
import { HomePage } from './home';
import { Lobby, challengesView } from './lobby';
import { AuthPage } from './auth';
import { AccountPage } from './accountpage';
import { ProfilePage } from './profile';
import { ArchivePage } from './archive';
import { me, savePreferences, type Me } from './api';
import { titleBadge } from './title';
import { GamePage } from './round/main';
import { AnalysisPage } from './analysis/page';
import { TournamentsPage } from './tournament/list';
import { TournamentPage } from './tournament/page';

interface Page {
  redraw(): void;
  destroy(): void;
}

const prefs: Prefs = loadPrefs();
setLang(prefs.lang);
setSoundEnabled(prefs.sound);

const app = document.getElementById('app')!;
const bar = h('header.topbar', {});
const notices = h('div.notices', {});
const main = h('main', {});
app.replaceChildren(bar, notices, main);
let page: Page | null = null;
/** The signed-in account, once asked; null for a guest. */
let account: Me | null = null;
/** Away from the home page (which has the whole lobby), challenges still reach us here. */
let notifier: Lobby | null = null;

function drawNotices(): void {
  notices.replaceChildren(...(notifier ? [challengesView(notifier)] : []));
}

/** A notifier for a signed-in player on any page but the home page; none elsewhere. */
function keepNotifier(onHome: boolean): void {
  const wanted = account !== null && !onHome;
  if (wanted && !notifier) {
    // Told twice of a game (our accept's answer, then the pairing): one page for it.
    const open = (game: string) => { if (location.pathname !== `/g/${game}`) navigate(`/g/${game}`); };
    notifier = new Lobby(drawNotices, open, account!.username, true);
  } else if (!wanted && notifier) {
    notifier.close();
    notifier = null;
  }
  drawNotices();
}

export function navigate(path: string): void {
  history.pushState(null, '', path);
  route();
}

/** The preferences changed: remember them and draw everything again in place. */
function changed(): void {
  setLang(prefs.lang);
  setSoundEnabled(prefs.sound);
  savePrefs(prefs);
  if (account) void savePreferences({ lang: prefs.lang, sound: prefs.sound, board: boardPrefs(prefs) }).catch(() => undefined);
  drawTopBar();
  drawNotices();
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
  // Named by what it shows (the other language, in that language), as the eye reads it.
  const langButton = h('button.lang', {
    title: t('language'),
    lang: prefs.lang === 'zh' ? 'en' : 'zh',
    onclick: () => {
      prefs.lang = prefs.lang === 'zh' ? 'en' : 'zh';
      changed();
    },
  }, prefs.lang === 'zh' ? 'English' : '中文');
  const prefsButton = h('button', { 'data-action': 'preferences', onclick: () => openPreferences(prefs, changed) }, t('preferences'));
  const fullButton = h('button', {
    onclick: () => {
      if (document.fullscreenElement) void document.exitFullscreen();
      else void document.documentElement.requestFullscreen?.().catch(() => undefined);
    },
  }, t('fullscreen'));
  const link = (path: string, label: string, cls = '') =>
    h(`a.nav-link${cls}` as 'a', { href: path, onclick: (e: Event) => { e.preventDefault(); navigate(path); } }, label);
  const who = account
    ? [h('span.me-name', {}, titleBadge(account.title), link(`/@/${account.username}`, account.username, '.me')),
      link('/account', t('accountPage')),
      h('form.logout', { method: 'post', action: '/logout' }, h('button', { type: 'submit' }, t('signOut')))]
    : [link('/login', t('signIn')), link('/signup', t('signUp'))];
  bar.replaceChildren(
    h('h1.brand-title', {}, h('a.brand', { href: '/', onclick: (e: Event) => { e.preventDefault(); navigate('/'); } }, '♛ ', t('appName'))),
    h('nav', {}, link('/tournament', t('tournaments')), link('/analysis', t('analysisBoard')), ...who, langButton, soundButton, prefsButton, fullButton));
  document.title = t('appName');
}

/** The account's Glicko-2 rating per class. */
function ratingsOf(a: Me): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(a.perfs ?? {})) out[k] = v.rating;
  return out;
}

function route(): void {
  page?.destroy();
  main.replaceChildren();
  drawTopBar();
  const path = location.pathname;
  const m = path.match(/^\/g\/([A-Za-z0-9]+)$/);
  if (m) page = new GamePage(main, m[1], prefs, navigate, changed);
  else if (path === '/login' || path === '/signup') page = new AuthPage(main, path === '/login' ? 'login' : 'signup', navigate);
  else if (path === '/analysis') page = new AnalysisPage(main);
  else if (path === '/tournament') page = new TournamentsPage(main, navigate, account?.username ?? null);
  else if (/^\/tournament\/[A-Za-z0-9]+$/.test(path)) page = new TournamentPage(main, path.slice(12), navigate, account !== null);
  else if (path === '/account') page = new AccountPage(main, account, navigate);
  else if (/^\/@\/[^/]+\/games$/.test(path)) page = new ArchivePage(main, decodeURIComponent(path.slice(3, -6)), navigate);
  else if (path.startsWith('/@/')) page = new ProfilePage(main, decodeURIComponent(path.slice(3)), navigate, account?.username ?? null);
  else page = new HomePage(main, prefs, navigate, account ? ratingsOf(account) : null, account?.username ?? null);
  keepNotifier(page instanceof HomePage);
}

// The account's preferences win over the browser's; the page is drawn once they are known.
void me().then((a) => {
  account = a;
  if (a?.prefs.lang) prefs.lang = a.prefs.lang;
  if (typeof a?.prefs.sound === 'boolean') prefs.sound = a.prefs.sound;
  if (a?.prefs.board) Object.assign(prefs, mergePrefs(prefs, a.prefs.board));
  setLang(prefs.lang);
  setSoundEnabled(prefs.sound);
  savePrefs(prefs);
  window.addEventListener('popstate', route);
  route();
});
