// The move list: numbered rows of SAN, the current move marked; a click looks at that
// position. Above it the ⇤ ← → ⇥ buttons.
import { h } from '../../dom';
import { t } from '../../i18n';
import type { RoundCtrl } from '../ctrl';
import { moveRows } from '../movelist';

export function moveList(ctrl: RoundCtrl): HTMLElement {
  const s = ctrl.data!;
  const list = h('ol.moves', { 'aria-label': t('moves') });
  const shown = ctrl.viewing ?? s.moves.length;
  for (const row of moveRows(s.moves, s.initialFen)) {
    const li = h('li', {}, h('span.num', {}, `${row.number}.`));
    if (!row.white) li.append(h('span.move.empty', {}, '…'));
    for (const cell of [row.white, row.black]) {
      if (!cell) continue;
      const current = cell.ply === shown;
      li.append(h('button.move', {
        class: `move${current ? ' current' : ''}`,
        'aria-current': current ? 'true' : undefined,
        onclick: () => ctrl.view(cell.ply),
      }, cell.move.san + (cell.move.offer ? ' (=)' : '')));
    }
    list.append(li);
  }
  const nav = h('div.nav', {},
    h('button', { 'aria-label': t('navStart'), title: t('navStart'), onclick: () => ctrl.view(0) }, '⇤'),
    h('button', { 'aria-label': t('navBack'), title: t('navBack'), onclick: () => ctrl.step(-1) }, '←'),
    h('button', { 'aria-label': t('navForward'), title: t('navForward'), onclick: () => ctrl.step(1) }, '→'),
    h('button', { 'aria-label': t('navLive'), title: t('navLive'), onclick: () => ctrl.view(null) }, '⇥'));
  return h('div.move-box', {}, nav, list);
}
