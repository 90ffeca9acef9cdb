// The board adapter: chessground shows what the controller holds, and moves made on it go
// back to the controller. Nothing else touches chessground.
import { Chessground } from 'chessground';
import type { Api } from 'chessground/api';
import type { Config } from 'chessground/config';
import type { Key } from 'chessground/types';
import type { Side } from '../api';
import type { RoundCtrl } from './ctrl';
import { pieceAt } from './movelist';
import { askPromotion } from './promotion';

export class Board {
  private cg: Api | null = null;

  constructor(
    private readonly el: HTMLElement,
    private readonly promotionEl: HTMLElement,
    private readonly ctrl: RoundCtrl,
  ) {}

  /** Brings the board up to date with the controller, and plays a premove that is now due. */
  sync(): void {
    const config = this.config();
    if (!config) return;
    if (this.cg) this.cg.set(config);
    else this.cg = Chessground(this.el, config);
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
    };
  }

  private onMove(orig: Key, dest: Key): void {
    const s = this.ctrl.data;
    if (!s) return;
    const piece = pieceAt(s.fen, orig);
    const lastRank = dest[1] === '8' || dest[1] === '1';
    if (piece?.toLowerCase() === 'p' && lastRank) {
      askPromotion(this.promotionEl, piece === 'P' ? 'white' : 'black', (role) => {
        if (role) void this.ctrl.move(`${orig}${dest}${role}`);
        else this.sync();
      });
    } else {
      void this.ctrl.move(`${orig}${dest}`);
    }
  }
}
