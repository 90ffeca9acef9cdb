// The home page: three big choices, each a small dialog with sensible defaults already chosen.
import { CreateError, createGame, levels, type LevelInfo, type NewGameRequest } from './api';
import { h } from './dom';
import { errorText, t } from './i18n';
import { savePrefs, type Prefs } from './prefs';
import { Lobby, lobbyView } from './lobby';
import { fetchMine, gameList, type ArchivedGame } from './archive';

type Kind = NewGameRequest['kind'] | 'seek';

/** Preset time controls (PGN form) and how they are shown. */
export const PRESETS: [string, string][] = [
  ['60', '1+0'],
  ['180+2', '3+2'],
  ['300+3', '5+3'],
  ['600+5', '10+5'],
  ['900+10', '15+10'],
  ['1800+20', '30+20'],
  ['40/5400+30:1800+30', '90+30 · 40/90'],
  ['-', ''],
];

/** Correspondence: days a move, for games between people. */
export const DAYS = [1, 3, 7, 14];

let levelCache: LevelInfo[] | null = null;

/** A game being played, as `/api/account/playing` lists it. */
interface PlayingGame {
  gameId: string;
  isMyTurn: boolean;
  secondsLeft: number;
  speed: string;
  opponent: { username?: string };
}

/** "2 days 3 h", "5 h 20 min", "12 min". */
function timeLeft(seconds: number): string {
  const d = Math.floor(seconds / 86400);
  const hrs = Math.floor((seconds % 86400) / 3600);
  const min = Math.floor((seconds % 3600) / 60);
  if (d) return t('daysHours', { d, h: hrs });
  if (hrs) return t('hoursMinutes', { h: hrs, m: min });
  return t('minutesOnly', { m: min });
}

/** The home page; `redraw` draws it again in the current language. */
export class HomePage {
  private readonly root = h('div', {});
  private readonly lobbyBox = h('div', {});
  private readonly recentBox = h('section.recent', {});
  private readonly playingBox = h('section.playing', {});
  private playing: PlayingGame[] = [];
  private recent: ArchivedGame[] | null = null;
  private readonly lobby: Lobby;
  private open: (kind: Kind) => void = () => undefined;

  /** `ratings`: the signed-in player's Glicko-2 rating per class; null for a guest. */
  constructor(parent: HTMLElement, private readonly prefs: Prefs, private readonly navigate: (p: string) => void,
    private readonly ratings: Record<string, number> | null = null, private readonly me: string | null = null) {
    parent.append(this.root);
    void fetchMine(5).then((games) => {
      this.recent = games;
      this.drawRecent();
    });
    this.lobby = new Lobby(() => { this.drawLobby(); void this.loadPlaying(); }, (game) => this.navigate(`/g/${game}`), me);
    void this.loadPlaying();
    this.redraw();
    if (!levelCache) {
      void levels().then((l) => {
        if (l.length) {
          levelCache = l;
          this.redraw();
        }
      });
    }
  }

  redraw(): void {
    this.root.replaceChildren(h('p.tagline', {}, t('tagline')), this.lobbyBox);
    this.drawLobby();
    this.open = renderHome(this.root, this.prefs, this.navigate, this.ratings, this.lobby);
    this.root.append(this.playingBox, this.recentBox);
    this.drawPlaying();
    this.drawRecent();
  }

  /** The signed-in player's games going on, their turn first, least time left first. */
  private async loadPlaying(): Promise<void> {
    if (!this.me) return;
    const r = await fetch('/api/account/playing?nb=50').catch(() => null);
    if (!r?.ok) return;
    this.playing = ((await r.json()) as { nowPlaying: PlayingGame[] }).nowPlaying;
    this.drawPlaying();
  }

  private drawPlaying(): void {
    const games = this.playing;
    if (!games.length) {
      this.playingBox.replaceChildren();
      return;
    }
    const canAsk = typeof Notification !== 'undefined' && Notification.permission === 'default';
    this.playingBox.replaceChildren(
      h('h2', {}, t('yourGames')),
      h('ul.playing-list', {}, games.map((g) => h(g.isMyTurn ? 'li.my-turn' : 'li', { 'data-game': g.gameId },
        h('a', { href: `/g/${g.gameId}`, onclick: (e: Event) => { e.preventDefault(); this.navigate(`/g/${g.gameId}`); } },
          t('versus', { name: g.opponent.username ?? t('anonymous') })),
        ' · ', h('strong', {}, t(g.isMyTurn ? 'yourTurn' : 'theirTurn')),
        g.speed === 'correspondence' ? ` · ${t('timeLeft', { time: timeLeft(g.secondsLeft) })}` : ''))),
      ...(canAsk ? [h('button.notify-me', { type: 'button', onclick: () => { void Notification.requestPermission().then(() => this.drawPlaying()); } }, t('notifyMyTurn'))] : []));
  }

  /** The visitor's own last games, once known (nothing before the first one). */
  private drawRecent(): void {
    const games = this.recent;
    this.recentBox.replaceChildren(...(games?.length
      ? [h('h2', {}, t('recentGames')), gameList(games, this.me ?? '', this.navigate)]
      : []));
  }

  /** Draws the lobby again in place; the control that had the focus keeps it. */
  private drawLobby(): void {
    const focused = document.activeElement;
    const key = focused instanceof HTMLElement && this.lobbyBox.contains(focused)
      ? ['data-tc', 'data-seek', 'data-challenge', 'data-action']
        .map((a) => focused.closest(`[${a}]`)?.getAttribute(a) ?? '')
        .join('|')
      : null;
    this.lobbyBox.replaceChildren(lobbyView(this.lobby, this.ratings !== null,
      () => this.open('seek'), this.navigate));
    if (key === null) return;
    for (const el of this.lobbyBox.querySelectorAll<HTMLElement>('button, select')) {
      const same = ['data-tc', 'data-seek', 'data-challenge', 'data-action']
        .map((a) => el.closest(`[${a}]`)?.getAttribute(a) ?? '')
        .join('|');
      if (same === key) {
        el.focus();
        break;
      }
    }
  }

  destroy(): void {
    this.lobby.close();
    this.root.remove();
  }
}

/** The computer's hint: the range of the levels' measured Elo, once known. */
function computerHint(): string {
  const elos = (levelCache ?? []).flatMap((l) => (l.elo ? [l.elo] : []));
  if (!elos.length) return t('playComputerHint');
  return t('playComputerHintElo', { low: Math.min(...elos), high: Math.max(...elos) });
}

function renderHome(root: HTMLElement, prefs: Prefs, navigate: (p: string) => void,
  ratings: Record<string, number> | null, lobby: Lobby): (kind: Kind) => void {
  const signedIn = ratings !== null;
  const choice = (kind: Kind, title: string, hint: string, icon: string) =>
    h('button.choice', { 'data-kind': kind, onclick: () => openDialog(kind) },
      h('span.choice-icon', { 'aria-hidden': 'true' }, icon),
      h('span.choice-title', {}, title),
      h('span.choice-hint', {}, hint));
  root.append(h('section.home', {},
    choice('computer', t('playComputer'), computerHint(), '♞'),
    choice('friend', t('playFriend'), t('playFriendHint'), '♘ ⇄ ♞'),
    choice('local', t('sameDevice'), t('sameDeviceHint'), '♔ ♚')));

  function openDialog(kind: Kind): void {
    const title = kind === 'computer' ? 'playComputer' : kind === 'friend' ? 'playFriend' : kind === 'seek' ? 'createGame' : 'sameDevice';
    const dialog = h('dialog.new-game', { 'aria-label': t(title) });
    const form = h('form', { method: 'dialog' });
    let level = 3;
    let color: 'white' | 'black' | 'random' = 'random';
    let tc = '300+3';
    let chess960 = false;
    let rated = false;
    let range = 0;
    let arbiter: 'off' | 'supervised' | 'unsupervised' = 'off';
    let kingFouls = false;
    let takebacks = false;

    const chips = <T extends string | number>(name: string, options: [T, string][], initial: T, set: (v: T) => void) => {
      const group = h('div.chips', { role: 'radiogroup', 'aria-label': name });
      for (const [value, label] of options) {
        const b = h('button.chip', {
          type: 'button', role: 'radio', 'data-value': String(value),
          'aria-checked': String(value === initial),
          onclick: () => {
            for (const c of group.querySelectorAll('.chip')) c.setAttribute('aria-checked', 'false');
            b.setAttribute('aria-checked', 'true');
            set(value);
          },
        }, label);
        group.append(b);
      }
      return h('fieldset', {}, h('legend', {}, name), group);
    };

    if (kind === 'computer') {
      const levelBox = h('div', {});
      const fill = (infos: LevelInfo[]) => {
        levelBox.replaceChildren(chips(t('level'), infos.map((l) => [l.level,
          l.elo ? t('levelElo', { n: l.level, elo: l.elo }) : t('levelN', { n: l.level })] as [number, string]), level, (v) => { level = v; }));
      };
      fill(levelCache ?? Array.from({ length: 10 }, (_, i) => ({ level: i + 1 })));
      if (!levelCache) void levels().then((l) => { if (l.length) { levelCache = l; fill(l); } });
      form.append(levelBox);
    }
    if (kind !== 'local') {
      form.append(chips(t('colour'), [['white', t('white')], ['random', t('random')], ['black', t('black')]], color, (v) => { color = v; }));
    }
    const custom = customControl((v) => { tc = v; });
    custom.hidden = true;
    // The lobby's games have a clock.
    const presets: [string, string][] = PRESETS.filter(([v]) => kind !== 'seek' || v !== '-').map(([v, l]) => [v, l || t('noClock')]);
    if (kind === 'friend' || kind === 'seek') {
      for (const d of DAYS) presets.push([`1/${d * 86400}`, t(d === 1 ? 'oneDay' : 'nDays', { n: d })]);
    }
    presets.push(['custom', t('custom')]);
    form.append(chips(t('timeControl'), presets, tc, (v) => {
      custom.hidden = v !== 'custom';
      tc = v === 'custom' ? custom.value() : v;
    }));
    form.append(custom);
    form.append(chips(t('variant'), [['standard', t('standard')], ['chess960', t('chess960')]], 'standard', (v) => { chess960 = v === 'chess960'; }));
    // Rated games are between two accounts; a guest's friend games are casual.
    if ((kind === 'friend' || kind === 'seek') && signedIn) {
      form.append(chips(t('rated'), [['casual', t('casual')], ['rated', t('rated')]], 'casual', (v) => { rated = v === 'rated'; }));
    }
    if (kind === 'seek') {
      form.append(chips(t('ratingRange'), [[0, t('any')], [100, '±100'], [200, '±200'], [300, '±300'], [500, '±500']], 0, (v) => { range = v; }));
    }
    if (kind === 'friend') {
      // Between friends, casual games may allow takebacks (rated ones never do).
      const allow = h('input', { type: 'checkbox', name: 'takebacks', onchange: () => { takebacks = allow.checked; } });
      form.append(h('label.check', {}, allow, ' ', t('takebacks')));
    }
    if (kind === 'local') {
      // Over the board: any move can be made, and the Laws judge it (Art. 7.5, Appendix A.5).
      form.append(chips(t('arbiterMode'), [['off', t('arbiterOff')], ['supervised', t('arbiterSupervised')],
        ['unsupervised', t('arbiterUnsupervised')]], arbiter, (v) => { arbiter = v; }));
      const fouls = h('input', { type: 'checkbox', name: 'king-fouls', onchange: () => { kingFouls = fouls.checked; } });
      form.append(h('label.check', {}, fouls, ' ', t('kingFouls')));
      const flip = h('input', { type: 'checkbox', checked: prefs.autoFlip, onchange: () => { prefs.autoFlip = flip.checked; savePrefs(prefs); } });
      form.append(h('label.check', {}, flip, ' ', t('autoFlip')));
    }
    // Any legal position may start a game that is not for the lobby.
    let fen = '';
    if (kind !== 'seek') {
      const input = h('input', { type: 'text', name: 'fen', spellcheck: 'false', autocomplete: 'off',
        oninput: () => { fen = input.value.trim(); } });
      form.append(h('label.field.start-fen', {}, h('span', {}, t('startFen')), input));
    }
    const error = h('p.error', { role: 'alert' });
    const start = h('button.primary', { type: 'submit', value: 'start' }, t('start'));
    form.append(error, h('div.dialog-actions', {},
      h('button', { type: 'button', onclick: () => dialog.close() }, t('cancel')), start));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      if (!custom.hidden) tc = custom.value();
      start.disabled = true;
      if (kind === 'seek') {
        const mine = ratings?.[speedOf(tc)] ?? 1500;
        const refused = await lobby.seek({ timeControl: tc, rated, chess960, color,
          ...(range ? { ratingRange: [mine - range, mine + range] as [number, number] } : {}) });
        if (refused) {
          error.textContent = `${t('errorPrefix')} ${refused}`;
          start.disabled = false;
        } else dialog.close();
        return;
      }
      try {
        const id = await createGame({ kind, level, color, timeControl: tc, chess960, ...(rated ? { rated } : {}),
          ...(arbiter !== 'off' ? { arbiter } : {}), ...(kingFouls ? { kingFouls } : {}),
          ...(kind === 'friend' && takebacks && !rated ? { takebacks } : {}),
          ...(kind === 'computer' && prefs.humanPace ? { humanPace: true } : {}),
          ...(fen ? { fen } : {}) });
        dialog.close();
        navigate(`/g/${id}`);
      } catch (err) {
        const why = err instanceof CreateError
          ? err.code === 'bad-request' ? `${errorText(err.code)} ${err.message}` : errorText(err.code)
          : errorText('connection-lost');
        error.textContent = `${t('errorPrefix')} ${why}`;
        start.disabled = false;
      }
    });
    dialog.append(form);
    dialog.addEventListener('close', () => dialog.remove());
    document.body.append(dialog);
    dialog.showModal();
    start.focus();
  }
  return openDialog;
}

/** The speed class of a PGN time control, as the server reckons it (base + 60 × increment). */
export function speedOf(tc: string): string {
  if (/^1\/\d+$/.test(tc) && Number(tc.slice(2)) >= 86400) return 'correspondence';
  const m = tc.match(/^(?:\d+\/)?(\d+(?:\.\d+)?)(?:[db]\d+(?:\.\d+)?)?(?:\+(\d+(?:\.\d+)?))?/);
  const est = m ? Number(m[1]) + 60 * Number(m[2] ?? 0) : 0;
  return est < 180 ? 'bullet' : est <= 600 ? 'blitz' : est < 3600 ? 'rapid' : 'classical';
}

/** The custom time control fields; `value()` is the PGN TimeControl form. */
function customControl(changed: (tc: string) => void): HTMLElement & { value(): string } {
  const num = (value: number, min: number, max: number) =>
    h('input', { type: 'number', value: String(value), min: String(min), max: String(max), step: 'any', oninput: () => changed(read()) });
  const base = num(5, 0, 1440);
  const inc = num(3, 0, 600);
  const delay = num(0, 0, 600);
  const delayType = h('select', { onchange: () => changed(read()) },
    h('option', { value: '' }, t('delayNone')),
    h('option', { value: 'd' }, t('delaySimple')),
    h('option', { value: 'b' }, t('delayBronstein')));
  const moves = num(0, 0, 200);
  const second = num(30, 0, 1440);
  const secs = (input: HTMLInputElement, scale: number) => Math.round(Math.max(0, Number(input.value) || 0) * scale * 1000) / 1000;
  function read(): string {
    const d = delayType.value && secs(delay, 1) > 0 ? `${delayType.value}${secs(delay, 1)}` : '';
    const i = secs(inc, 1) > 0 ? `+${secs(inc, 1)}` : '';
    const first = `${secs(base, 60)}${d}${i}`;
    const m = Math.floor(Number(moves.value) || 0);
    return m > 0 ? `${m}/${first}:${secs(second, 60)}${d}${i}` : first;
  }
  const field = (label: string, input: HTMLElement) => h('label.field', {}, h('span', {}, label), input);
  const box = h('div.custom', {},
    field(t('base'), base), field(t('increment'), inc), field(t('delayType'), delayType),
    field(t('delay'), delay), field(t('periodMoves'), moves), field(t('secondBase'), second));
  return Object.assign(box, { value: read });
}
