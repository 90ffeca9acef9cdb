// The board adapter: chessground shows what the controller holds, and moves made on it (with
// the mouse, or on the keyboard board laid over it) go back to the controller. Nothing else
// touches chessground.
import { Chessground } from 'chessground';
import type { Api } from 'chessground/api';
import type { Config } from 'chessground/config';
import type { DrawShape } from 'chessground/draw';
import type { Key } from 'chessground/types';
import type { Side } from '../api';
import type { RoundCtrl } from './ctrl';
import { pieceAt } from './movelist';
import { KeyboardBoard } from './keyboard';
import { askPromotion } from './promotion';

export class Board {
  private cg: Api | null = null;
  readonly keyboard: KeyboardBoard;

  constructor(
    private readonly el: HTMLElement,
    private readonly promotionEl: HTMLElement,
    private readonly ctrl: RoundCtrl,
    say: (text: string) => void,
    read: (letter: string) => boolean,
  ) {
    this.keyboard = new KeyboardBoard(ctrl, {
      select: (sq) => {
        if (sq) this.cg?.selectSquare(sq as Key);
        else this.cg?.selectSquare(null);
      },
      move: (orig, dest) => this.onMove(orig as Key, dest as Key),
      say,
      read,
    });
    el.after(this.keyboard.el);
  }

  /** Brings the board up to date with the controller, and plays a premove that is now due. */
  sync(): void {
    const config = this.config();
    if (!config) return;
    if (this.cg) this.cg.set(config);
    else this.cg = Chessground(this.el, config);
    const p = this.ctrl.prefs;
    const wrap = this.el.parentElement!;
    wrap.dataset.theme = p.boardTheme;
    wrap.dataset.pieces = p.pieceSet;
    wrap.classList.toggle('big-coords', p.bigCoords);
    wrap.classList.toggle('blind-pieces', this.ctrl.piecesHidden());
    wrap.classList.toggle('blind-board', this.ctrl.boardHidden());
    this.keyboard.sync();
    const s = this.ctrl.data!;
    if (s.status === 'playing' && s.you.includes(s.turn) && this.ctrl.viewing === null) this.cg.playPremove();
  }

  destroy(): void {
    this.cg?.destroy();
  }

  private config(): Config | null {
    const ctrl = this.ctrl;
    const s = ctrl.data;
    if (!s) return null;
    const viewing = ctrl.viewing;
    const fen = ctrl.fenShown();
    const lastUci = viewing === null ? s.moves[s.moves.length - 1]?.uci : viewing > 0 ? s.moves[viewing - 1].uci : undefined;
    const lastMove = lastUci ? ([lastUci.slice(0, 2), lastUci.slice(2, 4)] as Key[]) : undefined;
    const canMove = viewing === null && s.status === 'playing' && s.adjournment?.phase !== 'sealed';
    // Over the board any move can be made; the server's arbiter judges it.
    const free = !!s.arbiter;
    const myColor: Side | undefined = canMove
      ? s.you.length === 2 ? s.turn : s.you.length === 1 ? s.you[0] : undefined
      : undefined;
    const dests = new Map<Key, Key[]>();
    if (myColor === s.turn) for (const [from, to] of Object.entries(s.dests)) dests.set(from as Key, to as Key[]);
    const shownSan = viewing ? s.moves[viewing - 1]?.san ?? '' : '';
    return {
      fen: fen.split(' ')[0],
      orientation: ctrl.bottomSide(),
      turnColor: ctrl.turnShown(),
      lastMove,
      check: viewing === null ? s.check : /[+#]$/.test(shownSan),
      coordinates: true,
      movable: { free, color: myColor, dests: free ? new Map() : dests, showDests: !free, rookCastle: !s.chess960 },
      premovable: { enabled: ctrl.canPremove && !free },
      draggable: { enabled: true, showGhost: true },
      highlight: { lastMove: true, check: true },
      animation: { enabled: true, duration: 150 },
      events: { move: (orig: Key, dest: Key) => this.onMove(orig, dest) },
      drawable: { autoShapes: this.bestArrow() },
    };
  }

  /** With a review, the engine's move in the position shown, as an arrow. */
  private bestArrow(): DrawShape[] {
    const r = this.ctrl.review;
    if (r?.status !== 'done' || this.ctrl.piecesHidden()) return [];
    const ply = this.ctrl.viewing ?? this.ctrl.data!.moves.length;
    const best = r.review.positions[ply]?.best;
    return best ? [{ orig: best.slice(0, 2) as Key, dest: best.slice(2, 4) as Key, brush: 'green' }] : [];
  }

  /** A move made on the board: a promotion asks for its piece (unless it is always a queen),
   * then the controller sends it, or holds it for confirmation. */
  private onMove(orig: Key, dest: Key): void {
    const s = this.ctrl.data;
    if (!s) return;
    const piece = pieceAt(s.fen, orig);
    const lastRank = dest[1] === '8' || dest[1] === '1';
    if (piece?.toLowerCase() === 'p' && lastRank && !this.ctrl.prefs.autoQueen) {
      askPromotion(this.promotionEl, piece === 'P' ? 'white' : 'black', (role) => {
        if (role) this.ctrl.propose(`${orig}${dest}${role}`);
        else this.sync();
        this.keyboard.refocus();
      });
    } else {
      this.ctrl.propose(`${orig}${dest}${piece?.toLowerCase() === 'p' && lastRank ? 'q' : ''}`);
    }
  }
}
