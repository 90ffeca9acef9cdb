// The preferences dialog: how the board looks (theme, pieces, coordinates), how moves are made
// (confirmation, auto-queen), speech, blindfold and the computer's pace. Every change applies
// at once and is remembered (`changed`).
import { h } from './dom';
import { t, type Key } from './i18n';
import { BLINDFOLDS, BOARD_THEMES, PIECE_SETS, VOICES, type Prefs } from './prefs';

type BoolPref = 'confirmMove' | 'autoQueen' | 'bigCoords' | 'humanPace';

export function openPreferences(prefs: Prefs, changed: () => void): void {
  const dialog = h('dialog.prefs', { 'aria-labelledby': 'prefs-title' });
  const check = (key: BoolPref) => {
    const input = h('input', {
      type: 'checkbox', name: key, checked: prefs[key],
      onchange: () => { prefs[key] = input.checked; changed(); },
    });
    return h('label.check', {}, input, ' ', t(`pref.${key}`));
  };
  const choose = <K extends 'boardTheme' | 'pieceSet' | 'voice' | 'blindfold'>(
    key: K, label: Key, values: readonly Prefs[K][], text: (v: Prefs[K]) => Key) => {
    const select = h('select', {
      name: key,
      onchange: () => { prefs[key] = select.value as Prefs[K]; changed(); },
    }, ...values.map((v) => h('option', { value: v, selected: v === prefs[key] }, t(text(v)))));
    return h('label.field', {}, h('span', {}, t(label)), select);
  };
  dialog.append(
    h('h2#prefs-title', {}, t('preferences')),
    choose('boardTheme', 'pref.boardTheme', BOARD_THEMES, (v) => `theme.${v}`),
    choose('pieceSet', 'pref.pieceSet', PIECE_SETS, (v) => `pieces.${v}`),
    check('bigCoords'),
    check('confirmMove'),
    check('autoQueen'),
    choose('voice', 'pref.voice', VOICES, (v) => `voice.${v}`),
    choose('blindfold', 'blindfold', BLINDFOLDS, (v) => `blindfold.${v}`),
    check('humanPace'),
    h('div.dialog-actions', {}, h('button.primary', { type: 'button', onclick: () => dialog.close() }, t('close'))),
  );
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}
