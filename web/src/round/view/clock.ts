// The running clocks: ten times a second the clock digits, low-time marks and delay countdowns
// are updated in place, without a redraw.
import type { Side } from '../../api';
import { t } from '../../i18n';
import { delayLeft, formatClock, isLowTime, timeLeft } from '../clock';
import type { RoundCtrl } from '../ctrl';

export function tickClocks(ctrl: RoundCtrl, panel: HTMLElement): void {
  const s = ctrl.data;
  if (!s?.clock) return;
  const elapsed = performance.now() - ctrl.receivedAt;
  const playing = s.status === 'playing';
  for (const side of ['white', 'black'] as Side[]) {
    const box = panel.querySelector<HTMLElement>(`.clock[data-side="${side}"]`);
    if (!box) continue;
    const ms = timeLeft(s.clock, side, playing, elapsed);
    box.querySelector('.time')!.textContent = formatClock(ms);
    const low = playing && isLowTime(ms, s.clock.control);
    box.classList.toggle('low', low);
    if (low && s.you.includes(side) && s.clock.running === side) ctrl.warnLowTime(side);
    const delay = box.querySelector('.delay');
    const left = playing ? delayLeft(s.clock, side, elapsed) : 0;
    if (delay) delay.textContent = left > 0 ? t('delayLeft', { s: (left / 1000).toFixed(1) }) : '';
  }
}
