// The action buttons: what the Laws let this player do now, and the page's own (flip,
// download, copy FEN, rematch, new game).
import { h } from '../../dom';
import { t } from '../../i18n';
import { other, type RoundCtrl } from '../ctrl';

const button = (action: string, label: string, onclick: () => void, primary = false, autofocus = false) =>
  h(primary ? 'button.primary' : 'button', { 'data-action': action, onclick, 'data-autofocus': autofocus || undefined }, label);

function playing(ctrl: RoundCtrl): HTMLElement[] {
  const s = ctrl.data!;
  const me = ctrl.me();
  const out: HTMLElement[] = [];
  if (ctrl.pending) {
    out.push(h('span.confirm', { role: 'alert' }, t('confirmMoveAsk', { move: ctrl.pending }),
      button('confirm-move', t('confirmMove'), () => ctrl.confirm(true), true, true),
      button('cancel-move', t('cancel'), () => ctrl.confirm(false))));
  }
  if (s.canAbort) out.push(button('abort', t('abort'), () => ctrl.act({ t: 'abort', side: me })));
  if (s.canBerserk?.includes(me)) out.push(button('berserk', t('berserk'), () => ctrl.act({ t: 'berserk', side: me })));
  if (!s.drawOffer && s.moves.length >= 2) out.push(button('offer-draw', t('offerDraw'), () => ctrl.act({ t: 'offer-draw', side: me })));
  if (s.claims.threefold) out.push(button('claim-threefold', t('claimThreefold'), () => ctrl.act({ t: 'claim-draw', claim: 'threefold' }), true));
  if (s.claims.fifty) out.push(button('claim-fifty', t('claimFifty'), () => ctrl.act({ t: 'claim-draw', claim: 'fifty' }), true));
  // A declared move can complete a threefold repetition at the 8th ply at the earliest.
  if (s.you.includes(s.turn) && s.moves.length >= 7) out.push(button('claim-with-move', t('claimWithMove'), () => ctrl.claimWithMove()));
  // A takeback needs a move of the asker's own to take back.
  const asker = s.you.length === 2 ? other(s.turn) : me;
  const hasOwnMove = s.moves.length >= (asker === s.turn ? 2 : 1);
  if (s.takebacks && !s.takeback && hasOwnMove) {
    out.push(button('takeback', t('takeback'), () => ctrl.act({ t: 'takeback', side: asker })));
  }
  // Appendix A.5: the opponent's illegal move stands unless claimed before moving.
  const claimable = s.infractions?.claimable;
  if (claimable && s.you.includes(other(claimable))) {
    out.push(button('claim-illegal', t('claimIllegal'), () => ctrl.act({ t: 'claim-illegal', side: other(claimable) }), true));
  }
  if (s.canAdjourn && !s.adjournment) out.push(button('adjourn', t('adjourn'), () => ctrl.act({ t: 'adjourn', side: me })));
  if (ctrl.confirmingResign) {
    out.push(h('span.confirm', { role: 'alert' }, t('confirmResign'),
      button('confirm-resign', t('yes'), () => ctrl.resign(), true, true),
      button('cancel-resign', t('no'), () => ctrl.askResign(false))));
  } else if (!s.canAbort) {
    out.push(button('resign', t('resign'), () => ctrl.askResign(true)));
  }
  return out;
}

function over(ctrl: RoundCtrl): HTMLElement[] {
  const s = ctrl.data!;
  const out: HTMLElement[] = [];
  if (s.you.length > 0) {
    const asked = s.rematch && s.you.includes(s.rematch) && s.you.length === 1;
    const offered = s.rematch && !s.you.includes(s.rematch);
    const label = asked ? t('rematchAsked') : offered ? `${t('rematchOffered')} — ${t('accept')}` : t('rematch');
    out.push(button('rematch', label, () => ctrl.act({ t: 'rematch' }), true));
  }
  out.push(button('new-game', t('newGame'), () => ctrl.navigate('/')));
  out.push(button('analyse', t('analyse'), () => ctrl.navigate(`/analysis?game=${s.game}`)));
  return out;
}

export function actions(ctrl: RoundCtrl): HTMLElement {
  const s = ctrl.data!;
  const box = h('div.actions', {});
  if (s.status === 'playing' && s.you.length > 0) box.append(...playing(ctrl));
  box.append(button('flip', t('flip'), () => ctrl.flip()));
  if (s.status !== 'waiting') {
    box.append(h('a.button', { href: `/api/games/${s.game}/pgn`, download: `vizier-${s.game}.pgn`, 'data-action': 'download' }, t('download')));
    // The scoresheet in the player's notation (Appendix C.3), beside the standard PGN.
    const notation = ctrl.prefs.notation;
    if (notation !== 'san') {
      box.append(h('a.button', { href: `/api/games/${s.game}/pgn?notation=${notation}`, download: `vizier-${s.game}-${notation}.pgn`, 'data-action': 'download-scoresheet' },
        t('downloadScoresheet', { n: t(`notation.${notation}`) })));
    }
    const copied = Date.now() - ctrl.copiedAt < 1500;
    box.append(button('copy-fen', copied ? t('copied') : t('copyFen'), () => ctrl.copy(ctrl.fenShown())));
  }
  if (s.status === 'over') box.append(...over(ctrl));
  return box;
}
