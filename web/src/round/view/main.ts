// The panel beside the board, top to bottom: the time control, the opponent, the banners, the
// move list, the actions, the move box, oneself, and a notice.
import { h } from '../../dom';
import { errorText, lang, t } from '../../i18n';
import { describeControl } from '../../timecontrol';
import { other, type RoundCtrl } from '../ctrl';
import { actions } from './actions';
import { banners } from './banners';
import { blindfoldBar } from './blindfold';
import { ConditionalBox } from './conditional';
import { reviewBox } from './review';
import { moveInput } from './input';
import { moveList } from './moves';
import { playerBox } from './players';

/** Each page's conditional premoves box, kept across redraws. */
const conditionalBoxes = new WeakMap<RoundCtrl, ConditionalBox>();

function conditionalBox(ctrl: RoundCtrl): HTMLElement | null {
  let box = conditionalBoxes.get(ctrl);
  if (!box) {
    box = new ConditionalBox(ctrl, () => ctrl.refresh());
    conditionalBoxes.set(ctrl, box);
  }
  return box.view();
}

export function panel(ctrl: RoundCtrl): HTMLElement[] {
  const s = ctrl.data;
  if (ctrl.missing) {
    return [h('p.notice.error', { role: 'alert' }, t('notFound'), ' ', h('a', { href: '/' }, t('home')))];
  }
  if (!s) return [h('p.notice', {}, ctrl.connected ? '' : t('connecting'))];
  const bottom = ctrl.bottomSide();
  const control = s.timeControl === '-' ? t('noClock') : describeControl(s.timeControl);
  const out: HTMLElement[] = [];
  if (!ctrl.connected) out.push(h('p.notice.warn', { role: 'alert' }, t('reconnecting')));
  out.push(
    h('div.control', {}, control, s.chess960 ? ` · ${t('chess960')}` : '',
      s.opening ? h('span.opening', {}, ` · ${s.opening.eco} ${lang() === 'zh' && s.opening.zh ? `${s.opening.zh} · ` : ''}${s.opening.name}`) : ''),
    playerBox(ctrl, other(bottom), 'top'),
    banners(ctrl),
    moveList(ctrl),
  );
  const review = reviewBox(ctrl);
  if (review) out.push(review);
  out.push(actions(ctrl));
  const conditional = conditionalBox(ctrl);
  if (conditional) out.push(conditional);
  const input = moveInput(ctrl);
  if (input) out.push(input);
  if (ctrl.readout) out.push(h('p.readout', {}, ctrl.readout.text));
  out.push(blindfoldBar(ctrl), playerBox(ctrl, bottom, 'bottom'));
  const n = ctrl.notice;
  if (n) out.push(h('p.notice.error', { role: 'alert' }, 'error' in n ? `${t('errorPrefix')} ${errorText(n.error)}` : t(n.hint)));
  return out;
}
