// The move list: numbered rows of SAN, the current move marked; a click looks at that
// position. Above it the ⇤ ← → ⇥ buttons and the notation (SAN, figurines, a language's letters).
import { h } from '../../dom';
import { t } from '../../i18n';
import type { RoundCtrl } from '../ctrl';
import { moveRows, styleSan } from '../movelist';
import { GLYPHS } from '../review';
import { NOTATIONS, type Notation } from '../../prefs';

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
      // A blindfold peek is written after the move it followed.
      const peeked = (cell.move.peeks?.length ?? 0) > 0;
      const judged = ctrl.review?.status === 'done' ? ctrl.review.review.moves[cell.ply - 1]?.judgement : undefined;
      li.append(h('button.move', {
        class: `move${current ? ' current' : ''}${peeked ? ' peeked' : ''}${judged ? ` judged ${judged}` : ''}`,
        'aria-current': current ? 'true' : undefined,
        title: peeked ? cell.move.peeks!.map((side) => t('peekedBy', { side: t(side) })).join(' ') : undefined,
        onclick: () => ctrl.view(cell.ply),
      }, styleSan(cell.move.san, ctrl.prefs.notation) + (cell.move.offer ? ' (=)' : '') + (judged ? GLYPHS[judged] : '') + (peeked ? ` (${t('peekMark')})` : '')));
    }
    list.append(li);
  }
  const nav = h('div.nav', {},
    h('button', { 'aria-label': t('navStart'), title: t('navStart'), onclick: () => ctrl.view(0) }, '⇤'),
    h('button', { 'aria-label': t('navBack'), title: t('navBack'), onclick: () => ctrl.step(-1) }, '←'),
    h('button', { 'aria-label': t('navForward'), title: t('navForward'), onclick: () => ctrl.step(1) }, '→'),
    h('button', { 'aria-label': t('navLive'), title: t('navLive'), onclick: () => ctrl.view(null) }, '⇥'));
  const notation = h('select.notation', {
    'aria-label': t('notation'), title: t('notation'),
    onchange: () => { ctrl.prefs.notation = notation.value as Notation; ctrl.prefsChanged(); },
  }, ...NOTATIONS.map((n) => h('option', { value: n, selected: n === ctrl.prefs.notation }, t(`notation.${n}`))));
  nav.append(notation);
  return h('div.move-box', {}, nav, list);
}
