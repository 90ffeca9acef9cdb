// The lobby on the home page: quick-pairing tiles that put you in a pool, the live list of
// open seeks, "create a game" with a rating range, the games being played now and how many
// players are online. One socket (/api/lobby/socket) keeps it all live.
import { h } from './dom';
import type { ErrorCode } from './api';
import { errorText, t, type Key } from './i18n';
import { titleBadge } from './title';

export interface SeekView {
  id: string;
  name?: string;
  rating: number;
  provisional: boolean;
  timeControl: string;
  speed: string;
  rated: boolean;
  chess960: boolean;
  color: string;
  ratingRange?: [number, number];
  createdAt: number;
}

export interface NowPlaying {
  id: string;
  white?: string;
  black?: string;
  timeControl: string;
  rated: boolean;
}

export interface ChallengeView {
  id: string;
  status: 'created' | 'accepted' | 'declined' | 'canceled';
  challenger: { name: string; rating: number; provisional?: boolean; title?: string };
  destUser: { name: string; rating: number; provisional?: boolean };
  rated: boolean;
  speed: string;
  timeControl: { show: string };
  color: string;
  declineReason?: string;
  game?: string;
}

type LobbyMessage =
  | { t: 'hello'; seeks: SeekView[]; online: number; games: NowPlaying[] | null; tiles: { timeControl: string; label: string }[]; challenges: { in: ChallengeView[]; out: ChallengeView[] } }
  | { t: 'challenge'; challenge: ChallengeView }
  | { t: 'seek-added'; seek: SeekView }
  | { t: 'seek-removed'; id: string }
  | { t: 'online'; count: number }
  | { t: 'games'; games: NowPlaying[] }
  | { t: 'paired'; game: string }
  | { t: 'yourTurn'; game: string }
  | { t: 'ack'; id?: number; seek?: string; game?: string }
  | { t: 'error'; id?: number; code: ErrorCode; message: string };

/** "3+2" from "180+2". */
export function tcLabel(tc: string): string {
  const m = tc.match(/^(\d+)(?:\+(\d+))?$/);
  if (!m) return tc;
  const minutes = Number(m[1]) / 60;
  return `${Number.isInteger(minutes) ? minutes : minutes.toFixed(1)}+${m[2] ?? 0}`;
}

/** The lobby's live state and its socket; `changed` redraws whoever shows it. */
export class Lobby {
  seeks: SeekView[] = [];
  games: NowPlaying[] = [];
  online = 0;
  tiles: { timeControl: string; label: string }[] = [];
  /** The tile whose pool we wait in. */
  waiting: string | null = null;
  /** Our own seeks, by id. */
  mine = new Set<string>();
  error: string | null = null;
  /** Challenges to us, and ours waiting for an answer (or just answered). */
  incoming: ChallengeView[] = [];
  outgoing: ChallengeView[] = [];
  /** Correspondence games whose opponent moved since this page opened: our turn. */
  turns: string[] = [];
  private ws: WebSocket | null = null;
  private nextId = 1;
  private pending = new Map<number, (m: LobbyMessage) => void>();
  private closed = false;
  private retry = 0;
  private pinger = 0;

  /**
   * `privateOnly`: the socket of a page other than the home page, which hears only what is
   * addressed to us (challenges, pairings) and keeps none of our seeks open.
   */
  constructor(private readonly changed: () => void, private readonly paired: (game: string) => void, me: string | null = null, private readonly privateOnly = false) {
    this.me = me;
    this.open();
  }

  /** Opens a game page (as a pairing does). */
  openGame(game: string): void {
    this.paired(game);
  }

  private open(): void {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const query = this.privateOnly ? '?only=private' : '';
    const ws = new WebSocket(`${scheme}://${location.host}/api/lobby/socket${query}`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.pinger = window.setInterval(() => this.send({ t: 'ping' }), 25_000);
    };
    ws.onmessage = (e) => {
      let m: LobbyMessage;
      try {
        m = JSON.parse(String(e.data)) as LobbyMessage;
      } catch {
        return;
      }
      this.receive(m);
    };
    ws.onclose = () => {
      window.clearInterval(this.pinger);
      if (this.closed) return;
      this.waiting = null;
      this.mine.clear();
      this.retry = Math.min(this.retry + 1, 6);
      window.setTimeout(() => this.open(), 250 * 2 ** this.retry);
    };
  }

  private receive(m: LobbyMessage): void {
    switch (m.t) {
      case 'hello':
        this.seeks = m.seeks;
        this.online = m.online;
        this.games = m.games ?? [];
        this.tiles = m.tiles;
        this.incoming = m.challenges?.in ?? [];
        this.outgoing = m.challenges?.out ?? [];
        break;
      case 'challenge': {
        const c = m.challenge;
        const without = (list: ChallengeView[]) => list.filter((o) => o.id !== c.id);
        if (this.isForMe(c)) this.incoming = c.status === 'created' ? [...without(this.incoming), c] : without(this.incoming);
        // Ours: kept when declined, so that the answer shows.
        else this.outgoing = c.status === 'canceled' || c.status === 'accepted' ? without(this.outgoing) : [...without(this.outgoing), c];
        break;
      }
      case 'seek-added':
        this.seeks = [...this.seeks.filter((s) => s.id !== m.seek.id), m.seek];
        break;
      case 'seek-removed':
        this.seeks = this.seeks.filter((s) => s.id !== m.id);
        this.mine.delete(m.id);
        break;
      case 'online':
        this.online = m.count;
        break;
      case 'games':
        this.games = m.games;
        break;
      case 'paired':
        this.waiting = null;
        this.paired(m.game);
        return;
      case 'yourTurn':
        // Not told on the game's own page: the board shows it.
        if (location.pathname === `/g/${m.game}`) return;
        if (!this.turns.includes(m.game)) this.turns = [...this.turns, m.game];
        notify(m.game);
        break;
      case 'ack':
      case 'error':
        if (m.id !== undefined) {
          const done = this.pending.get(m.id);
          this.pending.delete(m.id);
          done?.(m);
        }
        if (m.t === 'error') this.error = errorText(m.code);
        break;
    }
    this.changed();
  }

  /** Whether a challenge is addressed to this player (the signed-in name). */
  me: string | null = null;

  private isForMe(c: ChallengeView): boolean {
    return this.me !== null && c.destUser.name.toLowerCase() === this.me.toLowerCase();
  }

  async answer(id: string, accept: boolean, reason = 'generic'): Promise<void> {
    // Gone at once: the game's page may open (on the pairing message) before the answer.
    this.incoming = this.incoming.filter((c) => c.id !== id);
    this.changed();
    const r = await fetch(`/api/challenge/${encodeURIComponent(id)}/${accept ? 'accept' : 'decline'}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reason }),
    }).catch(() => null);
    const body = (await r?.json().catch(() => ({}))) as { game?: string; code?: ErrorCode } | undefined;
    if (accept && body?.game) this.paired(body.game);
    else if (!r?.ok) this.error = errorText(body?.code ?? 'connection-lost');
    this.changed();
  }

  async withdraw(id: string): Promise<void> {
    await fetch(`/api/challenge/${encodeURIComponent(id)}/cancel`, { method: 'POST' }).catch(() => null);
    this.outgoing = this.outgoing.filter((c) => c.id !== id);
    this.changed();
  }

  private send(msg: Record<string, unknown>): Promise<LobbyMessage> {
    const id = this.nextId++;
    return new Promise((done) => {
      if (this.ws?.readyState !== WebSocket.OPEN) {
        done({ t: 'error', code: 'connection-lost', message: 'not connected' });
        return;
      }
      this.pending.set(id, done);
      this.ws.send(JSON.stringify({ ...msg, id }));
    });
  }

  async pool(tc: string): Promise<void> {
    this.error = null;
    const r = await this.send({ t: 'pool', timeControl: tc });
    if (r.t === 'ack') this.waiting = tc;
    this.changed();
  }

  async leavePool(): Promise<void> {
    await this.send({ t: 'leave-pool' });
    this.waiting = null;
    this.changed();
  }

  async seek(req: { timeControl: string; rated: boolean; chess960: boolean; color: string; ratingRange?: [number, number] }): Promise<string | null> {
    this.error = null;
    const r = await this.send({ t: 'seek', ...req });
    if (r.t === 'ack' && r.seek) {
      this.mine.add(r.seek);
      this.changed();
      return null;
    }
    return r.t === 'error' ? errorText(r.code) : null;
  }

  async cancel(id: string): Promise<void> {
    await this.send({ t: 'cancel-seek', seek: id });
  }

  async accept(id: string): Promise<void> {
    this.error = null;
    const r = await this.send({ t: 'accept-seek', seek: id });
    if (r.t === 'ack' && r.game) this.paired(r.game);
    else this.changed();
  }

  close(): void {
    this.closed = true;
    window.clearInterval(this.pinger);
    this.ws?.close();
  }
}

/** The tiles, the seeks and the games now, drawn from the lobby's state. */
export function lobbyView(lobby: Lobby, signedIn: boolean, openCustom: () => void, navigate: (p: string) => void): HTMLElement {
  const tiles = h('div.tiles', { role: 'group', 'aria-label': t('quickPairing') },
    lobby.tiles.map((tile) => h('button.tile', {
      type: 'button', 'data-tc': tile.timeControl,
      'aria-pressed': String(lobby.waiting === tile.timeControl),
      class: `tile${lobby.waiting === tile.timeControl ? ' searching' : ''}`,
      onclick: () => void (lobby.waiting === tile.timeControl ? lobby.leavePool() : lobby.pool(tile.timeControl)),
    }, h('span.tile-tc', {}, tile.label), h('span.tile-speed', {}, lobby.waiting === tile.timeControl ? t('searching') : t(speedKey(tile.timeControl))))),
    h('button.tile.custom', { type: 'button', 'data-tc': 'custom', onclick: openCustom }, h('span.tile-tc', {}, t('custom')), h('span.tile-speed', {}, t('createGame'))));
  const status = lobby.waiting
    ? h('p.searching', { role: 'status' }, t('searchingFor', { tc: tcLabel(lobby.waiting) }), ' ',
      h('button', { type: 'button', onclick: () => void lobby.leavePool() }, t('cancel')))
    : lobby.error ? h('p.error', { role: 'alert' }, lobby.error) : null;
  const rows = lobby.seeks.map((s) => {
    const mine = lobby.mine.has(s.id);
    return h('tr.seek', { 'data-seek': s.id },
      h('td', {}, s.name ?? t('anonymous')),
      h('td', {}, `${s.rating}${s.provisional ? '?' : ''}`),
      h('td', {}, tcLabel(s.timeControl)),
      h('td', {}, t(s.rated ? 'rated' : 'casual')),
      h('td', {}, t(s.chess960 ? 'chess960' : 'standard')),
      h('td', {}, mine
        ? h('button', { type: 'button', 'data-action': 'cancel', onclick: () => void lobby.cancel(s.id) }, t('cancel'))
        : h('button.primary', { type: 'button', 'data-action': 'accept', disabled: s.rated && !signedIn, onclick: () => void lobby.accept(s.id) }, t('join'))));
  });
  const seeks = h('section.seeks', {}, h('h2', {}, t('openSeeks')),
    rows.length
      ? h('table.seeks', {}, h('thead', {}, h('tr', {},
        ...['player', 'rating', 'timeControl', 'mode', 'variant', ''].map((k) => h('th', { scope: 'col' }, k ? t(k as Key) : '')))),
      h('tbody', {}, rows))
      : h('p.empty', {}, t('noSeeks')));
  const games = h('section.now', {}, h('h2', {}, t('playingNow')),
    lobby.games.length
      ? h('ul.now-playing', {}, lobby.games.map((g) => h('li', {},
        h('a', { href: `/g/${g.id}`, onclick: (e: Event) => { e.preventDefault(); navigate(`/g/${g.id}`); } },
          `${g.white ?? t('anonymous')} – ${g.black ?? t('anonymous')} · ${tcLabel(g.timeControl)}${g.rated ? ` · ${t('rated')}` : ''}`))))
      : h('p.empty', {}, t('noGamesNow')));
  return h('div.lobby', {}, challengesView(lobby), tiles, status,
    h('p.online', {}, t(lobby.online === 1 ? 'onePlayerOnline' : 'playersOnline', { n: lobby.online })),
    h('div.lobby-lists', {}, seeks, games));
}

function speedKey(tc: string): Key {
  const m = tc.match(/^(\d+)(?:\+(\d+))?$/);
  const est = m ? Number(m[1]) + 60 * Number(m[2] ?? 0) : 0;
  return est < 180 ? 'class.bullet' : est <= 600 ? 'class.blitz' : est < 3600 ? 'class.rapid' : 'class.classical';
}

/** The browser's notification of our turn, where the player allowed them and is elsewhere. */
function notify(game: string): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  if (document.visibilityState === 'visible' && document.hasFocus()) return;
  const n = new Notification(t('yourTurnTitle'), { body: t('yourTurnBody'), tag: `turn-${game}` });
  n.onclick = () => { window.focus(); location.assign(`/g/${game}`); };
}

/** Challenges to us, to accept or decline, and ours with their answers: on every page. */
export function challengesView(lobby: Lobby): HTMLElement {
  const reasons = ['generic', 'later', 'tooFast', 'tooSlow', 'timeControl', 'rated', 'casual', 'standard', 'variant',
    'noBot', 'onlyBot'];
  return h('section.challenges', { 'aria-live': 'polite' },
    lobby.turns.map((game) => h('div.challenge.your-turn', { 'data-game': game },
      h('span', {}, t('yourTurnTitle')),
      h('button.primary', { type: 'button', 'data-action': 'open-turn', onclick: () => {
        lobby.turns = lobby.turns.filter((g) => g !== game);
        lobby.openGame(game);
      } }, t('openGame')))),
    lobby.incoming.map((c) => {
      const reason = h('select', { name: 'reason', 'aria-label': t('declineReason') },
        reasons.map((r) => h('option', { value: r }, t(`decline.${r}` as Key))));
      return h('div.challenge.incoming', { 'data-challenge': c.id },
        h('span', {}, titleBadge(c.challenger.title), t('challengedBy', { name: c.challenger.name, rating: `${c.challenger.rating}${c.challenger.provisional ? '?' : ''}` }),
          ` · ${c.timeControl.show} · ${t(c.rated ? 'rated' : 'casual')}`),
        h('button.primary', { type: 'button', 'data-action': 'accept-challenge', onclick: () => void lobby.answer(c.id, true) }, t('accept')),
        reason,
        h('button', { type: 'button', 'data-action': 'decline-challenge', onclick: () => void lobby.answer(c.id, false, reason.value) }, t('decline')));
    }),
    lobby.outgoing.map((c) => h('div.challenge.outgoing', { 'data-challenge': c.id, 'data-status': c.status },
      c.status === 'created'
        ? [h('span', {}, t('challengeWaiting', { name: c.destUser.name }), ` · ${c.timeControl.show}`),
          h('button', { type: 'button', onclick: () => void lobby.withdraw(c.id) }, t('cancel'))]
        : c.status === 'declined'
          ? h('span', {}, t('challengeDeclined', { name: c.destUser.name, reason: t(`decline.${c.declineReason ?? 'generic'}` as Key) }))
          : null)));
}
