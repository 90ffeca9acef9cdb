// The move box: a move typed in SAN or UCI, or a command that reads the board (see reader.ts;
// `h` lists them). What is typed lives in the controller, so that a redraw keeps it.
import { h } from '../../dom';
import { t } from '../../i18n';
import type { RoundCtrl } from '../ctrl';
import { parseCommand } from '../reader';

export function moveInput(ctrl: RoundCtrl): HTMLElement | null {
  const s = ctrl.data!;
  // Looking back at an earlier position, there is nothing to move.
  if (s.status !== 'playing' || s.you.length === 0 || ctrl.viewing !== null) return null;
  const input = h('input.move-input', {
    type: 'text', placeholder: t('moveInput'), 'aria-label': t('moveInputLabel'), autocomplete: 'off', spellcheck: false,
    value: ctrl.draft,
    oninput: () => { ctrl.draft = input.value; },
  });
  return h('form.move-form', {
    onsubmit: (e: Event) => {
      e.preventDefault();
      const text = input.value.trim();
      const cmd = parseCommand(text);
      if (cmd) {
        ctrl.draft = '';
        input.value = '';
        ctrl.answer(cmd);
      } else if (text) void ctrl.move(text);
    },
  }, input);
}
