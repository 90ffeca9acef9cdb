// The game page: board, clocks, move list, actions. The server's state is the only truth: the
// board shows what the last `state` says, and a move is sent and then confirmed by the next one.
import { Chessground } from 'chessground';
import type { Api } from 'chessground/api';
import type { Key } from 'chessground/types';
import type { GameState, PlayerView, ServerMessage, Side } from './api';
import { h, clear } from './dom';
import { t } from './i18n';
import type { Prefs } from './prefs';
import { play, type Sound } from './sound';
import { GameSocket } from './socket';

const other = (s: Side): Side => (s === 'white' ? 'black' : 'white');

export function formatClock(ms: number): string {
  const clamped = Math.max(0, ms);
  const total = Math.floor(clamped / 1000);
  const hours = Math.floor(total / 3600);
  const mins = Math.floor((total % 3600) / 60);
  const secs = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (hours > 0) return `${hours}:${pad(mins)}:${pad(secs)}`;
  if (clamped < 10_000) return `${pad(mins)}:${pad(secs)}.${Math.floor((clamped % 1000) / 100)}`;
  return `${pad(mins)}:${pad(secs)}`;
}

/** A time control in the PGN form ("40/5400+30:1800+30") as players write it ("40/90+30 · 30+30"). */
export function describeControl(pgn: string): string {
  return pgn.split(':').map((period) => {
    const m = period.match(/^(?:(\d+)\/)?([\d.]+)(?:([db])([\d.]+))?(?:\+([\d.]+))?$/);
    if (!m) return period;
    const [, moves, base, delayKind, delay, inc] = m;
    const minutes = Number(base) / 60;
    let text = `${moves ? `${moves}/` : ''}${Number.isInteger(minutes) ? minutes : minutes.toFixed(2).replace(/0+$/, '')}`;
    if (inc) text += `+${inc}`;
    if (delayKind) text += ` ${delayKind === 'd' ? 'd' : 'b'}${delay}`;
    return text;
  }).join(' · ');
}

export class GamePage {
  private socket: GameSocket;
  private state: GameState | null = null;
  private receivedAt = 0;
  private cg: Api | null = null;
  private orientation: Side = 'white';
  private flipped = false;
  /** The ply being looked at; null: the live position. */
  private viewing: number | null = null;
  private ticker = 0;
  private lowTimeWarned = new Set<Side>();
  private lastVersion = -1;
  private lastPlies = -1;
  private wasOver = false;
  private connected = false;
  private confirmingResign = false;
  private notice = '';
  private copiedAt = 0;
  private invite: string | null;

  private readonly boardEl = h('div.board.cg-wrap', {});
  private readonly panel = h('div.panel', {});
  private readonly live = h('div.sr-only', { 'aria-live': 'polite', role: 'status' });
  private readonly promotion = h('div.promotion', { hidden: true, role: 'dialog', 'aria-label': t('promoteTo') });
  private readonly keyHandler = (e: KeyboardEvent) => this.onKey(e);

  constructor(
    root: HTMLElement,
    id: string,
    private readonly prefs: Prefs,
    private readonly navigate: (p: string) => void,
  ) {
    this.invite = new URLSearchParams(location.search).get('invite');
    root.append(h('section.game', {}, h('div.board-wrap', {}, this.boardEl, this.promotion), this.panel, this.live));
    this.panel.append(h('p.notice', {}, t('connecting')));
    this.socket = new GameSocket(id, {
      message: (m) => this.onMessage(m),
      connected: (up) => {
        this.connected = up;
        this.render();
      },
    });
    this.ticker = window.setInterval(() => this.tick(), 100);
    document.addEventListener('keydown', this.keyHandler);
  }

  destroy(): void {
    this.socket.close();
    window.clearInterval(this.ticker);
    document.removeEventListener('keydown', this.keyHandler);
    this.cg?.destroy();
  }

  private onMessage(m: ServerMessage): void {
    if (m.t === 'state') {
      this.onState(m);
    } else if (m.t === 'error') {
      this.notice = `${t('errorPrefix')} ${m.message}`;
      this.render();
      this.syncBoard(); // undo an optimistic drag
    } else if (m.t === 'rematch') {
      this.navigate(`/g/${m.game}`);
    }
  }

  private onState(s: GameState): void {
    if (s.version < this.lastVersion && this.state?.game === s.game) return;
    const previous = this.state;
    this.state = s;
    this.receivedAt = performance.now();
    this.lastVersion = s.version;
    if (this.invite && s.status === 'waiting' && s.you.length === 0) {
      const invite = this.invite;
      this.invite = null;
      void this.socket.command({ t: 'join', invite });
    }
    if (s.status !== 'waiting' && this.invite) {
      this.invite = null;
      history.replaceState(null, '', `/g/${s.game}`);
    }
    if (s.moves.length !== this.lastPlies) {
      if (this.lastPlies >= 0 && s.moves.length > this.lastPlies) this.announce(s);
      if (this.lastPlies < 0 && s.moves.length === 0 && s.status === 'playing') play('start');
      this.lastPlies = s.moves.length;
      this.notice = '';
    }
    if (s.status === 'over' && !this.wasOver && previous) this.gameEndSound(s);
    this.wasOver = s.status === 'over';
    if (this.viewing !== null && this.viewing >= s.moves.length) this.viewing = null;
    this.render();
    this.syncBoard();
    if (s.status === 'playing' && s.you.includes(s.turn) && this.viewing === null) this.cg?.playPremove();
  }

  private announce(s: GameState): void {
    const last = s.moves[s.moves.length - 1];
    const mover: Side = s.moves.length % 2 === 1 ? this.firstMover(s) : other(this.firstMover(s));
    this.live.textContent = t('announceMove', { side: t(mover), san: last.san });
    let sound: Sound = 'move';
    if (last.san.includes('#') || last.san.includes('+')) sound = 'check';
    else if (last.san.includes('=')) sound = 'promote';
    else if (last.san.startsWith('O-O')) sound = 'castle';
    else if (last.san.includes('x')) sound = 'capture';
    play(sound);
  }

  private firstMover(s: GameState): Side {
    return s.initialFen.split(' ')[1] === 'b' ? 'black' : 'white';
  }

  private gameEndSound(s: GameState): void {
    const r = s.result;
    if (!r || !r.winner) play('draw');
    else if (s.you.length === 1) play(s.you[0] === r.winner ? 'win' : 'loss');
    else play('win');
  }

  /** The side shown at the bottom. */
  private bottomSide(): Side {
    const s = this.state!;
    let side: Side = s.you.length === 1 ? s.you[0] : 'white';
    if (s.you.length === 2 && this.prefs.autoFlip && s.status === 'playing') side = s.turn;
    return this.flipped ? other(side) : side;
  }

  private syncBoard(): void {
    const s = this.state;
    if (!s) return;
    const fen = this.viewing === null ? s.fen : this.viewing === 0 ? s.initialFen : s.moves[this.viewing - 1].fen;
    const lastUci = this.viewing === null ? s.moves[s.moves.length - 1]?.uci : this.viewing > 0 ? s.moves[this.viewing - 1].uci : undefined;
    const lastMove = lastUci ? ([lastUci.slice(0, 2), lastUci.slice(2, 4)] as Key[]) : undefined;
    const turnColor: Side = fen.split(' ')[1] === 'b' ? 'black' : 'white';
    const canMove = this.viewing === null && s.status === 'playing';
    const myColor: Side | undefined = canMove
      ? s.you.length === 2 ? s.turn : s.you.length === 1 ? s.you[0] : undefined
      : undefined;
    const dests = new Map<Key, Key[]>();
    if (myColor === s.turn) for (const [from, to] of Object.entries(s.dests)) dests.set(from as Key, to as Key[]);
    this.orientation = this.bottomSide();
    const config = {
      fen: fen.split(' ')[0],
      orientation: this.orientation,
      turnColor,
      lastMove,
      check: this.viewing === null ? s.check : /[+#]$/.test(s.moves[(this.viewing ?? 1) - 1]?.san ?? ''),
      coordinates: true,
      movable: { free: false, color: myColor, dests, showDests: true, rookCastle: !s.chess960 },
      premovable: { enabled: s.you.length === 1 && canMove },
      draggable: { enabled: true, showGhost: true },
      highlight: { lastMove: true, check: true },
      animation: { enabled: true, duration: 150 },
      events: { move: (orig: Key, dest: Key) => this.onBoardMove(orig, dest) },
    };
    if (this.cg) this.cg.set(config);
    else this.cg = Chessground(this.boardEl, config);
  }

  private onBoardMove(orig: Key, dest: Key): void {
    const s = this.state;
    if (!s) return;
    const piece = this.pieceAt(s.fen, orig);
    const lastRank = dest[1] === '8' || dest[1] === '1';
    if (piece?.toLowerCase() === 'p' && lastRank) {
      this.askPromotion(dest, piece === 'P' ? 'white' : 'black', (role) => this.sendMove(`${orig}${dest}${role}`));
    } else {
      this.sendMove(`${orig}${dest}`);
    }
  }

  private pieceAt(fen: string, square: string): string | null {
    const rows = fen.split(' ')[0].split('/');
    const file = square.charCodeAt(0) - 97;
    const row = rows[8 - Number(square[1])];
    let col = 0;
    for (const ch of row ?? '') {
      if (/\d/.test(ch)) col += Number(ch);
      else {
        if (col === file) return ch;
        col++;
      }
    }
    return null;
  }

  private askPromotion(dest: string, color: Side, done: (role: string) => void): void {
    clear(this.promotion);
    this.promotion.append(h('p', {}, t('promoteTo')));
    const roles: [string, string, string][] = [['q', 'queen', '♛'], ['r', 'rook', '♜'], ['b', 'bishop', '♝'], ['n', 'knight', '♞']];
    for (const [letter, name, glyph] of roles) {
      this.promotion.append(h('button.promo', {
        'data-role': letter,
        'aria-label': t(name),
        title: t(name),
        onclick: () => {
          this.promotion.hidden = true;
          done(letter);
        },
      }, h('span', { 'aria-hidden': 'true', class: `glyph ${color}` }, glyph)));
    }
    this.promotion.append(h('button.promo-cancel', {
      onclick: () => {
        this.promotion.hidden = true;
        this.syncBoard();
      },
    }, t('cancel')));
    this.promotion.dataset.square = dest;
    this.promotion.hidden = false;
    (this.promotion.querySelector('button') as HTMLButtonElement).focus();
  }

  private async sendMove(uci: string): Promise<void> {
    const s = this.state;
    const msg: Record<string, unknown> = { t: 'move', uci };
    if (s && s.you.length === 2) msg.side = s.turn;
    const error = await this.socket.command(msg);
    if (error) {
      this.notice = `${t('errorPrefix')} ${error}`;
      this.render();
      this.syncBoard();
    }
  }

  private async act(message: Record<string, unknown>): Promise<void> {
    const error = await this.socket.command(message);
    this.notice = error ? `${t('errorPrefix')} ${error}` : '';
    this.render();
  }

  private onKey(e: KeyboardEvent): void {
    if (!this.state || (e.target instanceof HTMLInputElement)) return;
    const n = this.state.moves.length;
    const at = this.viewing ?? n;
    let next: number | null | undefined;
    if (e.key === 'ArrowLeft') next = Math.max(0, at - 1);
    else if (e.key === 'ArrowRight') next = at + 1 >= n ? null : at + 1;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = null;
    else if (e.key === 'f') {
      this.flipped = !this.flipped;
      this.render();
      this.syncBoard();
      return;
    } else return;
    e.preventDefault();
    this.view(next === n ? null : next);
  }

  private view(ply: number | null): void {
    this.viewing = ply;
    this.render();
    this.syncBoard();
  }

  private tick(): void {
    const s = this.state;
    if (!s?.clock) return;
    for (const side of ['white', 'black'] as Side[]) {
      const el = this.panel.querySelector<HTMLElement>(`.clock[data-side="${side}"] .time`);
      if (!el) continue;
      const ms = this.clockNow(side);
      el.textContent = formatClock(ms);
      const low = ms < Math.min(20_000, this.baseTime() / 10) && s.status === 'playing';
      el.parentElement!.classList.toggle('low', low);
      if (low && s.you.includes(side) && s.clock.running === side && !this.lowTimeWarned.has(side)) {
        this.lowTimeWarned.add(side);
        play('lowTime');
      }
      const delayEl = this.panel.querySelector<HTMLElement>(`.clock[data-side="${side}"] .delay`);
      if (delayEl) {
        const left = s.clock.running === side ? Math.max(0, s.clock.delayLeft - (performance.now() - this.receivedAt)) : 0;
        delayEl.textContent = left > 0 ? t('delayLeft', { s: (left / 1000).toFixed(1) }) : '';
      }
    }
  }

  private baseTime(): number {
    const c = this.state?.clock?.control ?? '';
    const m = c.match(/^(?:\d+\/)?([\d.]+)/);
    return m ? Number(m[1]) * 1000 : 0;
  }

  private clockNow(side: Side): number {
    const c = this.state!.clock!;
    const base = c[side];
    if (c.running !== side || this.state!.status !== 'playing') return base;
    const elapsed = performance.now() - this.receivedAt;
    return base - Math.max(0, elapsed - c.delayLeft);
  }

  // ----- rendering the panel -----

  private render(): void {
    const s = this.state;
    clear(this.panel);
    if (!this.connected && !s) {
      this.panel.append(h('p.notice', {}, t('connecting')));
      return;
    }
    if (!s) return;
    const bottom = this.bottomSide();
    const top = other(bottom);
    this.panel.classList.toggle('over', s.status === 'over');
    const control = s.clock ? describeControl(s.clock.control) : t('noClock');
    this.panel.append(
      h('div.control', {}, control, s.chess960 ? ` · ${t('chess960')}` : ''),
      this.playerBox(top, 'top'),
      this.banners(),
      this.moveList(),
      this.actions(),
      this.moveInput() ?? '',
      this.playerBox(bottom, 'bottom'),
    );
    if (!this.connected) this.panel.prepend(h('p.notice.warn', { role: 'alert' }, t('reconnecting')));
    if (this.notice) this.panel.append(h('p.notice.error', { role: 'alert' }, this.notice));
    this.tick();
  }

  private playerName(side: Side, p: PlayerView): string {
    const s = this.state!;
    if (p.kind === 'computer') return `${t('computer')} · ${p.elo ? t('levelElo', { n: p.level, elo: p.elo }) : t('levelN', { n: p.level })}`;
    if (p.kind === 'open') return t('waitingForFriend');
    if (s.you.length === 2) return t(side);
    if (s.you.includes(side)) return t('you');
    return s.kind === 'friend' ? t('friend') : t(side);
  }

  private playerBox(side: Side, where: 'top' | 'bottom'): HTMLElement {
    const s = this.state!;
    const p = s[side];
    const clock = s.clock
      ? h('div.clock', { 'data-side': side, class: `clock${s.clock.running === side && s.status === 'playing' ? ' running' : ''}` },
        h('span.time', { 'aria-label': `${t(side)} clock` }, formatClock(s.clock[side])),
        h('span.delay', {}),
        s.clock.movesToGo?.[side === 'white' ? 0 : 1] != null
          ? h('span.period', {}, t('period', { moves: s.clock.movesToGo[side === 'white' ? 0 : 1]! }))
          : null)
      : null;
    const presence = p.kind === 'human' && !s.you.includes(side)
      ? h('span.presence', { class: `presence ${p.online ? 'on' : 'off'}`, title: t(p.online ? 'online' : 'offline') }, p.online ? '●' : '○')
      : null;
    const toMove = s.status === 'playing' && s.turn === side ? h('span.to-move', {}, ' ◀ ', s.you.includes(side) && s.you.length === 1 ? t('yourMove') : t('toMove', { side: t(side) })) : null;
    return h('div.player', { class: `player ${where}`, 'data-side': side },
      h('div.name', {}, h('span.piece-dot', { class: `piece-dot ${side}`, 'aria-hidden': 'true' }), presence, ' ', this.playerName(side, p), toMove),
      clock);
  }

  private banners(): HTMLElement {
    const s = this.state!;
    const box = h('div.banners', {});
    if (s.status === 'waiting') {
      if (s.invite) {
        const invite = `${location.origin}/g/${s.game}?invite=${s.invite}`;
        const watch = `${location.origin}/g/${s.game}`;
        box.append(h('div.banner.invite', {},
          h('strong', {}, t('waitingForFriend')),
          h('p', {}, t('inviteHint')),
          this.copyField(invite, 'invite-link'),
          h('p', {}, t('watchHint')),
          this.copyField(watch, 'watch-link')));
      } else {
        box.append(h('div.banner', {}, t('waitingForFriend')));
      }
      return box;
    }
    if (s.you.length === 0) box.append(h('div.banner.spectating', {}, t('spectating')));
    if (this.viewing !== null) {
      box.append(h('div.banner.looking', {},
        t('lookingBack', { n: this.viewing }),
        h('button.primary', { onclick: () => this.view(null) }, t('backToGame'))));
    }
    if (s.result) {
      const r = s.result;
      const reason = t(`reason.${r.reason}`);
      const article = r.article ? ` · ${t('article', { a: r.article })}` : '';
      box.append(h('div.banner.result', { role: 'status', 'data-reason': r.reason },
        h('div.score', {}, r.score),
        h('div.reason', {}, `${r.score} · ${reason}${article}`)));
    }
    if (s.status !== 'playing') return box;
    const mine = (side?: Side) => side !== undefined && s.you.includes(side);
    if (s.drawOffer) {
      if (mine(other(s.drawOffer))) {
        box.append(h('div.banner.offer', { role: 'alert' },
          t('drawOfferFrom', { side: s.you.length === 2 ? t(s.drawOffer) : t('opponent') }),
          h('button.primary', { 'data-action': 'accept-draw', onclick: () => this.act({ t: 'accept-draw', side: other(s.drawOffer!) }) }, t('accept')),
          h('button', { 'data-action': 'decline-draw', onclick: () => this.act({ t: 'decline-draw', side: other(s.drawOffer!) }) }, t('decline'))));
      } else if (mine(s.drawOffer)) {
        box.append(h('div.banner', {}, t('drawOffered')));
      }
    }
    if (s.takeback && mine(other(s.takeback))) {
      box.append(h('div.banner.offer', { role: 'alert' },
        t('takebackFrom', { side: s.you.length === 2 ? t(s.takeback) : t('opponent') }),
        h('button.primary', { onclick: () => this.act({ t: 'accept-takeback', side: other(s.takeback!) }) }, t('accept')),
        h('button', { onclick: () => this.act({ t: 'decline-takeback', side: other(s.takeback!) }) }, t('decline'))));
    }
    if (s.moves.length < 2 && s.clock && s.you.length === 1 && s.kind !== 'local' && s.turn === s.you[0]) {
      box.append(h('div.banner.hint', {}, t('firstMoveHint')));
    }
    return box;
  }

  private copyField(text: string, name: string): HTMLElement {
    const input = h('input', { readOnly: true, value: text, class: name, onfocus: () => input.select() });
    return h('div.copy', {}, input,
      h('button', { onclick: () => this.copy(text) }, Date.now() - this.copiedAt < 1500 ? t('copied') : t('copyLink')));
  }

  private copy(text: string): void {
    void navigator.clipboard?.writeText(text).catch(() => undefined);
    this.copiedAt = Date.now();
    this.render();
  }

  private moveList(): HTMLElement {
    const s = this.state!;
    const list = h('ol.moves', { 'aria-label': t('moves') });
    const blackFirst = this.firstMover(s) === 'black';
    const startNumber = Number(s.initialFen.split(' ')[5] ?? '1') || 1;
    let row: HTMLElement | null = null;
    s.moves.forEach((m, i) => {
      const index = i + (blackFirst ? 1 : 0);
      if (index % 2 === 0 || row === null) {
        row = h('li', {}, h('span.num', {}, `${startNumber + Math.floor(index / 2)}.`));
        if (index % 2 === 1) row.append(h('span.move.empty', {}, '…'));
        list.append(row);
      }
      const ply = i + 1;
      const current = this.viewing === null ? ply === s.moves.length : ply === this.viewing;
      row.append(h('button.move', {
        class: `move${current ? ' current' : ''}`,
        'aria-current': current ? 'true' : undefined,
        onclick: () => this.view(ply === s.moves.length ? null : ply),
      }, m.san + (m.offer ? ' (=)' : '')));
    });
    const nav = h('div.nav', {},
      h('button', { 'aria-label': 'start', title: 'Home', onclick: () => this.view(0) }, '⇤'),
      h('button', { 'aria-label': 'back', title: '←', onclick: () => this.view(Math.max(0, (this.viewing ?? s.moves.length) - 1)) }, '←'),
      h('button', { 'aria-label': 'forward', title: '→', onclick: () => { const at = (this.viewing ?? s.moves.length) + 1; this.view(at >= s.moves.length ? null : at); } }, '→'),
      h('button', { 'aria-label': 'live', title: 'End', onclick: () => this.view(null) }, '⇥'));
    const box = h('div.move-box', {}, nav, list);
    requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
    return box;
  }

  private actions(): HTMLElement {
    const s = this.state!;
    const box = h('div.actions', {});
    const button = (action: string, label: string, onclick: () => void, primary = false) =>
      h(primary ? 'button.primary' : 'button', { 'data-action': action, onclick }, label);
    const playing = s.status === 'playing' && s.you.length > 0;
    if (playing) {
      const me = s.you.length === 1 ? s.you[0] : s.turn;
      if (s.canAbort) box.append(button('abort', t('abort'), () => this.act({ t: 'abort', side: me })));
      if (!s.drawOffer && s.moves.length >= 2) box.append(button('offer-draw', t('offerDraw'), () => this.act({ t: 'offer-draw', side: me })));
      if (s.claims.threefold) box.append(button('claim-threefold', t('claimThreefold'), () => this.act({ t: 'claim-draw', claim: 'threefold' }), true));
      if (s.claims.fifty) box.append(button('claim-fifty', t('claimFifty'), () => this.act({ t: 'claim-draw', claim: 'fifty' }), true));
      if (s.you.includes(s.turn) && s.moves.length > 0) {
        box.append(button('claim-with-move', t('claimWithMove'), () => this.claimWithMove()));
      }
      if (s.takebacks && !s.takeback && s.moves.length > 0) {
        box.append(button('takeback', t('takeback'), () => this.act({ t: 'takeback', side: s.you.length === 2 ? other(s.turn) : me })));
      }
      if (this.confirmingResign) {
        box.append(h('span.confirm', { role: 'alert' }, t('confirmResign'),
          button('confirm-resign', t('yes'), () => { this.confirmingResign = false; void this.act({ t: 'resign', side: me }); }, true),
          button('cancel-resign', t('no'), () => { this.confirmingResign = false; this.render(); })));
      } else if (!s.canAbort) {
        box.append(button('resign', t('resign'), () => { this.confirmingResign = true; this.render(); }));
      }
    }
    box.append(button('flip', t('flip'), () => { this.flipped = !this.flipped; this.render(); this.syncBoard(); }));
    if (s.status !== 'waiting') {
      box.append(h('a.button', { href: `/api/games/${s.game}/pgn`, download: `vizier-${s.game}.pgn`, 'data-action': 'download' }, t('download')));
      box.append(button('copy-fen', t('copyFen'), () => this.copy(s.fen)));
    }
    if (s.status === 'over') {
      if (s.you.length > 0) {
        const asked = s.rematch && s.you.includes(s.rematch) && s.you.length === 1;
        const offered = s.rematch && !s.you.includes(s.rematch);
        box.append(button('rematch', asked ? t('rematchAsked') : offered ? `${t('rematchOffered')} — ${t('accept')}` : t('rematch'), () => this.act({ t: 'rematch' }), true));
      }
      box.append(button('new-game', t('newGame'), () => this.navigate('/')));
    }
    return box;
  }

  private claimWithMove(): void {
    const input = this.panel.querySelector<HTMLInputElement>('input.move-input');
    const move = input?.value.trim();
    if (!move) {
      this.notice = t('claimWithMoveHint');
      this.render();
      this.panel.querySelector<HTMLInputElement>('input.move-input')?.focus();
      return;
    }
    const s = this.state!;
    const claim = s.claims.threefold ? 'threefold' : s.claims.fifty ? 'fifty' : 'threefold';
    void this.act({ t: 'claim-draw', claim, declared: move, side: s.turn });
  }

  private moveInput(): HTMLElement | null {
    const s = this.state!;
    if (s.status !== 'playing' || !s.you.includes(s.turn)) return null;
    const input = h('input.move-input', {
      type: 'text', placeholder: t('moveInput'), 'aria-label': t('moveInputLabel'), autocomplete: 'off', spellcheck: false,
    });
    const form = h('form.move-form', {
      onsubmit: (e: Event) => {
        e.preventDefault();
        const text = input.value.trim();
        if (text) void this.sendMove(text);
      },
    }, input);
    return form;
  }
}
