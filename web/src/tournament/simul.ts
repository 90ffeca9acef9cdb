// A simul's boards: one small board a game, seen from the host's side, the boards waiting for
// the host first and marked in words ("Your move" for the host, "Host to move" for others),
// each opening its game; and the host's score so far.
import { Chessground } from 'chessground';
import type { Api } from 'chessground/api';
import type { Key } from 'chessground/types';
import { h } from '../dom';
import { t } from '../i18n';
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

export class SimulBoards {
  private boards: Api[] = [];

  /** The grid; `host` when the viewer is the host. */
  view(full: Full, host: boolean, go: (p: string) => void): HTMLElement {
    this.destroy();
    const nameOf = (n: number) => full.players[n - 1]?.name ?? `#${n}`;
    const cards = (full.boards ?? []).map((b: SimulBoard) => {
      const el = h('div.mini-board', {});
      if (b.fen || b.result) {
        const cg = Chessground(el, {
          fen: b.fen ?? undefined,
          orientation: b.hostColour,
          viewOnly: true,
          coordinates: false,
          lastMove: b.lastMove && b.lastMove.length >= 4 ? [b.lastMove.slice(0, 2) as Key, b.lastMove.slice(2, 4) as Key] : undefined,
        });
        this.boards.push(cg);
      }
      const waiting = !b.result && b.hostToMove;
      const state = b.result ?? (waiting ? t(host ? 'yourMove' : 'hostToMove') : t('opponentToMove'));
      const path = b.game ? `/g/${b.game}` : null;
      return h(waiting ? 'li.simul-board.waiting' : 'li.simul-board', { 'data-board': b.board },
        path ? h('a', { href: path, onclick: (e: Event) => { e.preventDefault(); go(path); }, 'aria-label': t('boardAgainst', { n: b.board, name: nameOf(b.opponent) }) }, el) : el,
        h('p', {}, `${b.board}. ${nameOf(b.opponent)}`, ' · ', h('strong.board-state', {}, state)));
    });
    const next = (full.boards ?? []).find((b) => !b.result && b.hostToMove && b.game);
    return h('div', {},
      host && next ? h('p', {}, h('button.primary.next-board', { type: 'button', onclick: () => go(`/g/${next.game}`) }, t('nextBoard'))) : null,
      h('ul.simul-boards', {}, cards));
  }

  destroy(): void {
    for (const cg of this.boards) cg.destroy();
    this.boards = [];
  }
}
