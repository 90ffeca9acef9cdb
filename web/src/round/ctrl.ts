// The game page's controller: it holds the state (the server's last `state`, plus what this
// page looks at) and does what the player asks. Views read it and call its methods; it asks
// for a redraw and never touches the DOM itself. The server's state is the only truth: a move
// is sent and then confirmed by the next state.
import { applyMove, fetchReview } from '../api';
import type { ErrorCode, GameState, MoveEvent, ReviewStatus, ServerMessage, Side } from '../api';
import type { Prefs } from '../prefs';
import { play } from '../sound';
import { GameSocket } from '../socket';
import { t, type Key } from '../i18n';
import { spokenLowTime, spokenMove, spokenResult, type SpokenLang } from '../spoken';
import { formatClock, timeLeft } from './clock';
import { fenTurn, moverOf, moveSound } from './movelist';
import { readBoard, type Command } from './reader';

export const other = (s: Side): Side => (s === 'white' ? 'black' : 'white');

/** A line under the panel: a hint of ours, or why the server refused something. */
export type Notice = { hint: Key } | { error: ErrorCode };

/** What the page says aloud to screen readers after a move. */
export interface Announcement {
  side: Side;
  san: string;
}

export class RoundCtrl {
  data: GameState | null = null;
  /** `performance.now()` when `data` arrived: clocks count down from there. */
  receivedAt = 0;
  connected = false;
  /** The socket answered that there is no such game. */
  missing = false;
  flipped = false;
  /** The ply being looked at; null: the live position. */
  viewing: number | null = null;
  confirmingResign = false;
  notice: Notice | null = null;
  /** When a link or FEN was last copied, for the button's feedback. */
  copiedAt = 0;
  /** Draws the page again (a countdown that ran out). */
  refresh(): void {
    this.redraw();
  }

  /** The side whose illegal move was just penalised, until the next move. */
  penalised: Side | null = null;

  /** What is typed in the move box, kept across redraws. */
  draft = '';
  announcement: Announcement | null = null;
  /** A move made on the board and awaiting "Confirm" (the move-confirmation preference). */
  pending: string | null = null;
  /** Blindfold: the pieces show until this `Date.now()`. */
  peekUntil = 0;
  /** Something to say aloud, in speech.ts's voice (a move, low time, the result). */
  spoken: { text: string; lang: SpokenLang } | null = null;
  /** The game's review, once asked about (a finished game). */
  review: ReviewStatus | null = null;
  private reviewTimer = 0;
  /** The answer to the last reading command or keyboard-board action, shown and announced. */
  readout: { text: string } | null = null;

  private readonly socket: GameSocket;
  private lastVersion = -1;
  private lastPlies = -1;
  private wasOver = false;
  private lowTimeWarned = new Set<Side>();
  private invite: string | null;

  constructor(
    readonly id: string,
    readonly prefs: Prefs,
    readonly navigate: (path: string) => void,
    private readonly redraw: () => void,
    /** A preference was changed here: it is saved (and the page redrawn). */
    readonly prefsChanged: () => void,
  ) {
    this.invite = new URLSearchParams(location.search).get('invite');
    this.socket = new GameSocket(id, {
      message: (m) => this.onMessage(m),
      connected: (up) => {
        this.connected = up;
        this.redraw();
      },
      missing: () => {
        this.missing = true;
        this.redraw();
      },
    });
  }

  destroy(): void {
    window.clearTimeout(this.reviewTimer);
    this.socket.close();
  }

  /** Asks the server for the review (`start`: have one made), and follows it until done. */
  async loadReview(start: boolean): Promise<void> {
    window.clearTimeout(this.reviewTimer);
    const status = await fetchReview(this.id, start);
    this.review = status;
    this.redraw();
    if (status.status === 'running') {
      this.reviewTimer = window.setTimeout(() => void this.loadReview(false), 600);
    }
  }

  private onMessage(m: ServerMessage): void {
    if (m.t === 'state') this.onState(m);
    else if (m.t === 'move') this.onMoveEvent(m);
    else if (m.t === 'error') {
      this.notice = this.refusal(m.code);
      this.redraw(); // also undoes an optimistic drag
    } else if (m.t === 'rematch') this.navigate(`/g/${m.game}`);
  }

  /** A move event extends the state it follows; after a gap, the whole state is asked for. */
  private onMoveEvent(e: MoveEvent): void {
    if (this.data && this.data.game === e.game && e.version <= this.data.version) return;
    const next = this.data && applyMove(this.data, e);
    if (next) this.onState(next);
    else this.socket.send({ t: 'resync' });
  }

  private onState(s: GameState): void {
    if (s.version < this.lastVersion && this.data?.game === s.game) return;
    const previous = this.data;
    this.data = s;
    this.receivedAt = performance.now();
    this.lastVersion = s.version;
    if (this.invite && s.status === 'waiting' && s.you.length === 0) {
      const invite = this.invite;
      this.invite = null;
      void this.act({ t: 'join', invite });
    }
    // Seated (or the game went on without us): the invite has done its work, and the address
    // bar no longer carries it.
    if (new URLSearchParams(location.search).has('invite') && (s.status !== 'waiting' || s.you.length > 0)) {
      this.invite = null;
      history.replaceState(null, '', `/g/${s.game}`);
    }
    const illegal = (st: GameState | null, side: Side) => st?.infractions?.illegal[side === 'white' ? 0 : 1] ?? 0;
    for (const side of ['white', 'black'] as Side[]) {
      if (previous?.game === s.game && illegal(s, side) > illegal(previous, side)) this.penalised = side;
    }
    if (s.moves.length !== this.lastPlies) {
      if (this.lastPlies >= 0) this.penalised = null;
      if (this.lastPlies >= 0 && s.moves.length > this.lastPlies) this.onMove(s);
      if (this.lastPlies < 0 && s.moves.length === 0 && s.status === 'playing') play('start');
      this.lastPlies = s.moves.length;
      this.notice = null;
    }
    if (s.status === 'over' && !this.wasOver && previous) this.gameEndSound(s);
    if (s.status === 'over' && this.review === null) {
      this.review = { status: 'none' };
      void this.loadReview(false);
    }
    this.wasOver = s.status === 'over';
    if (this.viewing !== null && this.viewing >= s.moves.length) this.viewing = null;
    this.redraw();
  }

  private onMove(s: GameState): void {
    const last = s.moves[s.moves.length - 1];
    const side = moverOf(s.moves.length, s.initialFen);
    this.announcement = { side, san: last.san };
    this.pending = null;
    play(moveSound(last.san));
    // The opponent's moves are spoken (in a game on one device, every move).
    if (this.prefs.voice !== 'off' && (s.you.length !== 1 || s.you[0] !== side)) this.say(spokenMove(last.san, this.prefs.voice), this.prefs.voice);
  }

  private gameEndSound(s: GameState): void {
    const r = s.result;
    if (!r || !r.winner) play('draw');
    else if (s.you.length === 1) play(s.you[0] === r.winner ? 'win' : 'loss');
    else play('win');
    const voice = this.prefs.voice;
    if (r && voice !== 'off') this.say(spokenResult(r.winner ?? null, r.reason === 'aborted', voice), voice);
  }

  /** Queues words for speech.ts. */
  private say(text: string, lang: SpokenLang): void {
    this.spoken = { text, lang };
  }

  /** Shows and announces `text`, and says it aloud when speech is on. */
  tell(text: string, aloud = true): void {
    this.readout = { text };
    if (aloud && this.prefs.voice !== 'off') this.say(text, this.prefs.lang);
    this.redraw();
  }

  /** Answers a reading command (typed in the move box, or a key on the keyboard board). */
  answer(cmd: Command): void {
    const s = this.data;
    if (!s) return;
    if (cmd.c === 'last') {
      const last = s.moves[s.moves.length - 1];
      if (!last) return this.tell(t('noMovesYet'));
      if (this.prefs.voice !== 'off') this.say(spokenMove(last.san, this.prefs.voice), this.prefs.voice);
      this.tell(t('announceMove', { side: t(moverOf(s.moves.length, s.initialFen)), san: last.san }), false);
    } else if (cmd.c === 'clocks') {
      const clock = s.clock;
      const elapsed = performance.now() - this.receivedAt;
      const read = (side: Side) => `${t(side)} ${formatClock(timeLeft(clock!, side, s.status === 'playing', elapsed))}`;
      this.tell(clock ? `${read('white')}${t('listSep')}${read('black')}` : t('noClock'));
    } else {
      // Blindfold: the board is not read out (help still is); a peek shows it.
      const hidden = this.piecesHidden() && cmd.c !== 'help';
      const text = hidden ? t('blindfoldNoReading') : readBoard(this.fenShown(), cmd);
      if (text) this.tell(text);
    }
  }

  /** Whether the player may premove now (the board plays it when the state says it is theirs). */
  get canPremove(): boolean {
    const s = this.data;
    return !!s && s.status === 'playing' && s.you.length === 1 && this.viewing === null;
  }

  /** The side shown at the bottom of the board. */
  bottomSide(): Side {
    const s = this.data!;
    let side: Side = s.you.length === 1 ? s.you[0] : 'white';
    if (s.you.length === 2 && this.prefs.autoFlip && s.status === 'playing') side = s.turn;
    return this.flipped ? other(side) : side;
  }

  /** The side this player acts for: their own, or in a same-device game the side to move. */
  me(): Side {
    const s = this.data!;
    return s.you.length === 1 ? s.you[0] : s.turn;
  }

  /** The FEN of the position looked at. */
  fenShown(): string {
    const s = this.data!;
    if (this.viewing === null) return s.fen;
    return this.viewing === 0 ? s.initialFen : s.moves[this.viewing - 1].fen;
  }

  /** Whose turn it is in the position looked at. */
  turnShown(): Side {
    return fenTurn(this.fenShown());
  }

  // ----- what the player does -----

  /** Sends a command; a refusal becomes the notice. */
  async act(message: Record<string, unknown>): Promise<boolean> {
    const error = await this.socket.command(message);
    this.notice = error ? this.refusal(error) : null;
    this.redraw();
    return error === null;
  }

  /** The notice for a refusal: none where the game had already ended (a resignation in a
   * position that was dead, a move after the flag fell), which the result says. */
  private refusal(error: ErrorCode): Notice | null {
    return error === 'game-over' && this.data?.status === 'over' ? null : { error };
  }

  /** Whether this player must seal a move now (the game is being adjourned). */
  get sealing(): boolean {
    const a = this.data?.adjournment;
    return !!a && a.phase === 'sealing' && this.data!.you.includes(a.by);
  }

  /** Plays a move in UCI or SAN, or seals it while the game is being adjourned. */
  async move(text: string): Promise<void> {
    const s = this.data;
    const msg: Record<string, unknown> = { t: this.sealing ? 'seal' : 'move', uci: text };
    if (s && s.you.length === 2) msg.side = s.turn;
    if (await this.act(msg)) this.draft = '';
  }

  /** A move made on the board: sent at once, or held until confirmed. */
  propose(uci: string): void {
    if (this.prefs.confirmMove) {
      this.pending = uci;
      this.redraw();
    } else void this.move(uci);
  }

  /** Sends the held move (true) or forgets it (false). */
  confirm(yes: boolean): void {
    const uci = this.pending;
    this.pending = null;
    if (yes && uci) void this.move(uci);
    else this.redraw();
  }

  /** Blindfold: whether the pieces are hidden now (a finished game shows them). */
  piecesHidden(): boolean {
    return this.prefs.blindfold !== 'off' && this.data?.status !== 'over' && Date.now() >= this.peekUntil;
  }

  /** Blindfold: whether the whole board is hidden now. */
  boardHidden(): boolean {
    return this.prefs.blindfold === 'board' && this.piecesHidden();
  }

  /** Blindfold: shows the pieces for three seconds. After a move, the server notes the peek on
   * the scoresheet (the move list and the PGN), for the opponent to see too. */
  peek(): void {
    const s = this.data;
    this.peekUntil = Date.now() + 3000;
    if (s && s.moves.length > 0 && s.you.length > 0) void this.act({ t: 'peek', side: this.me() });
    this.redraw();
    window.setTimeout(() => this.redraw(), 3050);
  }

  /** Blindfold: how many moves this player looked at the board after. */
  peekCount(): number {
    const s = this.data;
    return s ? s.moves.filter((m) => m.peeks?.some((side) => s.you.includes(side))).length : 0;
  }

  /** Claims a draw with the move typed in the move box, which is then played. */
  claimWithMove(): void {
    const move = this.draft.trim();
    if (!move) {
      this.notice = { hint: 'claimWithMoveHint' };
      this.redraw();
      return;
    }
    const s = this.data!;
    const claim = s.claims.fifty && !s.claims.threefold ? 'fifty' : 'threefold';
    void this.act({ t: 'claim-draw', claim, declared: move, side: s.turn }).then((ok) => {
      if (!ok) return;
      this.draft = '';
      // Accepted but the game goes on: the claim was wrong, the move stands (Art. 9.5.3).
      if (this.data?.status === 'playing') {
        this.notice = { hint: this.data.clock ? 'claimWasWrong' : 'claimWasWrongUntimed' };
        this.redraw();
      }
    });
  }

  askResign(asking: boolean): void {
    this.confirmingResign = asking;
    this.redraw();
  }

  resign(): void {
    this.confirmingResign = false;
    void this.act({ t: 'resign', side: this.me() });
  }

  flip(): void {
    this.flipped = !this.flipped;
    this.redraw();
  }

  /** Looks at the position after ply `ply` (0: the start; null or the last: live). */
  view(ply: number | null): void {
    const n = this.data?.moves.length ?? 0;
    this.viewing = ply === null || ply >= n ? null : Math.max(0, ply);
    this.redraw();
  }

  /** One step back or forward from the position looked at. */
  step(by: number): void {
    const n = this.data?.moves.length ?? 0;
    this.view((this.viewing ?? n) + by);
  }

  copy(text: string): void {
    void navigator.clipboard?.writeText(text).catch(() => undefined);
    this.copiedAt = Date.now();
    this.redraw();
    window.setTimeout(() => this.redraw(), 1600);
  }

  /** Plays the low-time sound once per side and game when its time runs low. */
  warnLowTime(side: Side): void {
    if (this.lowTimeWarned.has(side)) return;
    this.lowTimeWarned.add(side);
    play('lowTime');
    if (this.prefs.voice !== 'off') this.say(spokenLowTime(this.prefs.voice), this.prefs.voice);
  }
}

