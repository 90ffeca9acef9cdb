// Blindfold play: how much is hidden (the pieces, or the whole board), and a peek that shows
// the pieces for three seconds and is marked on the scoresheet.
import { h } from '../../dom';
import { t } from '../../i18n';
import { BLINDFOLDS, type Blindfold } from '../../prefs';
import type { RoundCtrl } from '../ctrl';

export function blindfoldBar(ctrl: RoundCtrl): HTMLElement {
  const s = ctrl.data!;
  const select = h('select.blindfold', {
    'aria-label': t('blindfold'),
    onchange: () => {
      ctrl.prefs.blindfold = select.value as Blindfold;
      ctrl.prefsChanged();
    },
  }, ...BLINDFOLDS.map((b) => h('option', { value: b, selected: b === ctrl.prefs.blindfold }, t(`blindfold.${b}`))));
  const box = h('div.blindfold-bar', {}, h('label', {}, t('blindfold'), ' ', select));
  if (ctrl.prefs.blindfold !== 'off' && s.status === 'playing') {
    const peeking = !ctrl.piecesHidden();
    box.append(h('button', { 'data-action': 'peek', disabled: peeking, onclick: () => ctrl.peek() }, t('peek')));
    const n = ctrl.peekCount();
    if (n) box.append(h('span.peeks', {}, t('peekCount', { n })));
  }
  return box;
}
