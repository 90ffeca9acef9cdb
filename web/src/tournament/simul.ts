// A simul's boards: one small board a game, seen from the host's side, the boards waiting for
// the host first and marked in words ("Your move" for the host, "Host to move" for others),
// each opening its game; the host moves on the small boards themselves. Boards are kept
// across the page's polls and changed only when their game moved, so that a piece being
// dragged is not dropped by a redraw.
import { Chessground } from 'chessground';
import type { Api } from 'chessground/api';
import type { Key } from 'chessground/types';
import { h } from '../dom';
import { t } from '../i18n';
import { AccountError, send } from '../api';
import type { Full, SimulBoard } from './api';

/** The host's wins, draws and losses on the boards finished. */
export function simulScore(full: Full): { wins: number; draws: number; losses: number; playing: number } {
  const s = { wins: 0, draws: 0, losses: 0, playing: 0 };
  for (const b of full.boards ?? []) {
    if (!b.result) { s.playing += 1; continue; }
    const hostWhite = b.hostColour === 'white';
    if (b.result === '½-½') s.draws += 1;
    else if ((b.result === '1-0' || b.result === '+/-') === hostWhite) s.wins += 1;
    else s.losses += 1;
  }
  return s;
}

interface Card { li: HTMLElement; cg: Api | null; key: string }

/** `afterMove` learns that a move was sent: empty, or why it was refused. */
type Moved = (error: string) => void;

export class SimulBoards {
  private cards = new Map<number, Card>();
  private readonly next = h('p.next', {});
  private readonly list = h('ul.simul-boards', {});
  private readonly el = h('div', {}, this.next, this.list);

  /** The grid; `host` when the viewer is the host. */
  view(full: Full, host: boolean, go: (p: string) => void, afterMove: Moved): HTMLElement {
    const boards = full.boards ?? [];
    const seen = new Set<number>();
    const items = boards.map((b) => {
      seen.add(b.board);
      const key = JSON.stringify([b.fen, b.result, b.hostToMove, b.lastMove, host, document.documentElement.lang]);
      let card = this.cards.get(b.board);
      if (!card || card.key !== key) {
        card?.cg?.destroy();
        card = this.card(full, b, host, go, afterMove, key);
        this.cards.set(b.board, card);
      }
      return card.li;
    });
    for (const [n, card] of this.cards) {
      if (!seen.has(n)) { card.cg?.destroy(); this.cards.delete(n); }
    }
    const same = items.length === this.list.children.length && items.every((li, i) => this.list.children[i] === li);
    if (!same) this.list.replaceChildren(...items);
    const waiting = boards.find((b) => !b.result && b.hostToMove && b.game);
    this.next.replaceChildren(...(host && waiting
      ? [h('button.primary.next-board', { type: 'button', onclick: () => go(`/g/${waiting.game}`) }, t('nextBoard'))]
      : []));
    return this.el;
  }

  private card(full: Full, b: SimulBoard, host: boolean, go: (p: string) => void, afterMove: Moved, key: string): Card {
    const nameOf = (n: number) => full.players[n - 1]?.name ?? `#${n}`;
    const el = h('div.mini-board', {});
    const waiting = !b.result && !!b.hostToMove;
    const movable = host && waiting && !!b.game && !!b.dests;
    let cg: Api | null = null;
    if (b.fen || b.result) {
      const dests = new Map<Key, Key[]>(Object.entries(b.dests ?? {}) as [Key, Key[]][]);
      cg = Chessground(el, {
        fen: b.fen ?? undefined,
        orientation: b.hostColour,
        viewOnly: !movable,
        coordinates: false,
        lastMove: b.lastMove && b.lastMove.length >= 4 ? [b.lastMove.slice(0, 2) as Key, b.lastMove.slice(2, 4) as Key] : undefined,
        movable: movable ? {
          free: false,
          color: b.hostColour,
          dests,
          showDests: true,
          events: { after: (orig: Key, dest: Key) => void this.move(b, orig, dest, afterMove) },
        } : { color: undefined },
      });
    }
    const state = b.result ?? (waiting ? t(host ? 'yourMove' : 'hostToMove') : t('opponentToMove'));
    const path = b.game ? `/g/${b.game}` : null;
    const label = t('boardAgainst', { n: b.board, name: nameOf(b.opponent) });
    // The host moves on a board that waits: a link around it would take the click.
    const board = path && !movable
      ? h('a', { href: path, onclick: (e: Event) => { e.preventDefault(); go(path); }, 'aria-label': label }, el)
      : el;
    const li = h(waiting ? 'li.simul-board.waiting' : 'li.simul-board', { 'data-board': b.board },
      board,
      h('p', {}, `${b.board}. `,
        path ? h('a', { href: path, onclick: (e: Event) => { e.preventDefault(); go(path); } }, nameOf(b.opponent)) : nameOf(b.opponent),
        ' · ', h('strong.board-state', {}, state)));
    return { li, cg, key };
  }

  /** Sends the host's move on board `b`; a pawn reaching the last rank becomes a queen. */
  private async move(b: SimulBoard, orig: Key, dest: Key, afterMove: Moved): Promise<void> {
    const card = this.cards.get(b.board);
    const piece = card?.cg?.state.pieces.get(dest);
    const promotes = piece?.role === 'pawn' && (dest[1] === '8' || dest[1] === '1');
    const uci = `${orig}${dest}${promotes ? 'q' : ''}`;
    let error = '';
    try {
      await send('POST', `/api/board/game/${b.game}/move/${uci}`);
    } catch (e) {
      error = e instanceof AccountError ? e.message : String(e);
    }
    afterMove(error);
  }

  destroy(): void {
    for (const card of this.cards.values()) card.cg?.destroy();
    this.cards.clear();
    this.list.replaceChildren();
  }
}
