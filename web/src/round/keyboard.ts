// The board for the keyboard and screen readers: a grid of 64 named squares laid over
// chessground's board. One square at a time is in the tab order; the arrow keys move around
// (up is up on the screen), Enter or Space picks a piece up and puts it down, Escape drops it,
// and a few letters read the game (l: the last move, c: the clocks). Mouse clicks pass through
// to chessground underneath.
import { h } from '../dom';
import { t } from '../i18n';
import type { RoundCtrl } from './ctrl';
import { pieceAt } from './movelist';
import { FILES, pieceName, squareLabel } from './reader';

export interface KeyboardHooks {
  /** Shows a square as picked up on the board, or none. */
  select(square: string | null): void;
  /** Tries the move (the board asks for a promotion piece and a confirmation if it must). */
  move(orig: string, dest: string): void;
  /** Says something to the player (the live region, and speech if on). */
  say(text: string): void;
  /** Answers a reading command by its letter (`l`, `c`); false if unknown. */
  read(letter: string): boolean;
}

export class KeyboardBoard {
  readonly el = h('div.kb-board', { role: 'grid' });
  private cells = new Map<string, HTMLElement>();
  private orientation: 'white' | 'black' | null = null;
  private cursor = 'e2';
  private picked: string | null = null;
  /** A move was just made from here: after the promotion dialog, focus comes back. */
  private moved = false;

  constructor(private readonly ctrl: RoundCtrl, private readonly hooks: KeyboardHooks) {
    this.el.addEventListener('keydown', (e) => this.onKey(e));
    this.el.addEventListener('focusin', (e) => {
      const sq = (e.target as HTMLElement).dataset.square;
      if (sq) this.cursor = sq;
    });
  }

  /** Brings the squares' names up to date (the position, the language, blindfold). */
  sync(): void {
    const s = this.ctrl.data;
    if (!s) return;
    const bottom = this.ctrl.bottomSide();
    if (bottom !== this.orientation) this.build(bottom);
    const fen = this.ctrl.fenShown();
    const hidden = this.ctrl.piecesHidden();
    this.el.setAttribute('aria-label', t('boardLabel'));
    for (const [sq, cell] of this.cells) {
      cell.setAttribute('aria-label', squareLabel(fen, sq, hidden));
      cell.setAttribute('aria-selected', String(sq === this.picked));
      cell.tabIndex = sq === this.cursor ? 0 : -1;
    }
    if (this.picked && !this.canMove()) this.drop();
  }

  /** Gives the focus back to the square it was on, if a move was just made from here. */
  refocus(): void {
    if (this.moved) this.cells.get(this.cursor)?.focus();
    this.moved = false;
  }

  private build(bottom: 'white' | 'black'): void {
    const hadFocus = this.el.contains(document.activeElement);
    this.orientation = bottom;
    this.cursor = bottom === 'white' ? 'e2' : 'e7';
    this.cells.clear();
    const ranks = bottom === 'white' ? [8, 7, 6, 5, 4, 3, 2, 1] : [1, 2, 3, 4, 5, 6, 7, 8];
    const files = bottom === 'white' ? [...FILES] : [...FILES].reverse();
    this.el.replaceChildren(...ranks.map((r) => h('div.kb-row', { role: 'row' }, ...files.map((f) => {
      const sq = `${f}${r}`;
      const cell = h('div.kb-square', { role: 'gridcell', 'data-square': sq, tabindex: '-1' });
      this.cells.set(sq, cell);
      return cell;
    }))));
    if (hadFocus) this.cells.get(this.cursor)?.focus();
  }

  /** Whether the player may move now in the position shown. */
  private canMove(): boolean {
    const s = this.ctrl.data;
    return !!s && s.status === 'playing' && this.ctrl.viewing === null && s.you.includes(s.turn);
  }

  private drop(): void {
    this.picked = null;
    this.hooks.select(null);
  }

  private focus(sq: string): void {
    this.cursor = sq;
    for (const [key, cell] of this.cells) cell.tabIndex = key === sq ? 0 : -1;
    this.cells.get(sq)?.focus();
  }

  private onKey(e: KeyboardEvent): void {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const white = this.orientation !== 'black';
    const file = FILES.indexOf(this.cursor[0]);
    const rank = Number(this.cursor[1]);
    const go = (df: number, dr: number) => {
      const f = file + (white ? df : -df);
      const r = rank + (white ? dr : -dr);
      if (f >= 0 && f < 8 && r >= 1 && r <= 8) this.focus(`${FILES[f]}${r}`);
    };
    switch (e.key) {
      case 'ArrowUp': go(0, 1); break;
      case 'ArrowDown': go(0, -1); break;
      case 'ArrowLeft': go(-1, 0); break;
      case 'ArrowRight': go(1, 0); break;
      case 'Home': this.focus(`${white ? 'a' : 'h'}${rank}`); break;
      case 'End': this.focus(`${white ? 'h' : 'a'}${rank}`); break;
      case 'Enter':
      case ' ': this.press(this.cursor); break;
      case 'Escape':
        if (!this.picked) return;
        this.drop();
        this.hooks.say(t('dropped'));
        break;
      default:
        if (!this.hooks.read(e.key)) return;
    }
    e.preventDefault();
    e.stopPropagation();
  }

  /** Enter or Space on `sq`: pick up a piece of one's own, or put the picked one down. */
  private press(sq: string): void {
    const s = this.ctrl.data!;
    this.moved = false;
    if (!this.canMove()) {
      this.hooks.say(t(s.status === 'playing' && this.ctrl.viewing === null ? 'notYourTurn' : 'cannotMoveNow'));
      return;
    }
    const piece = pieceAt(s.fen, sq);
    const own = !!piece && (piece === piece.toUpperCase()) === (s.turn === 'white');
    const free = !!s.arbiter;
    if (this.picked === sq) {
      this.drop();
      this.hooks.say(t('dropped'));
    } else if (this.picked && (free || (s.dests[this.picked] ?? []).includes(sq))) {
      const from = this.picked;
      this.drop();
      this.moved = true;
      this.hooks.move(from, sq);
    } else if (own) {
      this.picked = sq;
      this.hooks.select(sq);
      const dests = s.dests[sq] ?? [];
      this.hooks.say(free
        ? t('pickedUp', { piece: pieceName(piece), square: sq })
        : dests.length
          ? t('pickedUpTo', { piece: pieceName(piece), square: sq, dests: dests.join(' ') })
          : t('pickedUpNoMoves', { piece: pieceName(piece), square: sq }));
    } else {
      this.hooks.say(this.picked ? t('cannotMoveThere', { square: sq }) : t('nothingToPick', { square: sq }));
    }
    this.sync();
  }
}
