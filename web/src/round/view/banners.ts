// The banners above the move list: the invite, watching, looking back, the result, and the
// offers and requests to answer.
import type { Side } from '../../api';
import { h } from '../../dom';
import { reasonText, t } from '../../i18n';
import { other, type RoundCtrl } from '../ctrl';
import { moveNumber, moverOf } from '../movelist';

function copyField(ctrl: RoundCtrl, text: string, name: string, label: string): HTMLElement {
  const input = h('input', { readOnly: true, value: text, class: name, 'aria-label': label, onfocus: () => input.select() });
  const copied = Date.now() - ctrl.copiedAt < 1500;
  return h('div.copy', {}, input, h('button', { onclick: () => ctrl.copy(text) }, copied ? t('copied') : t('copyLink')));
}

function waiting(ctrl: RoundCtrl): HTMLElement {
  const s = ctrl.data!;
  if (!s.invite) return h('div.banner', {}, t('waitingForFriend'));
  const invite = `${location.origin}/g/${s.game}?invite=${s.invite}`;
  const watch = `${location.origin}/g/${s.game}`;
  return h('div.banner.invite', {},
    h('strong', {}, t('waitingForFriend')),
    h('p', {}, t('inviteHint')),
    copyField(ctrl, invite, 'invite-link', t('inviteLink')),
    h('p', {}, t('watchHint')),
    copyField(ctrl, watch, 'watch-link', t('watchLink')),
    h('button', { 'data-action': 'cancel-invite', onclick: () => ctrl.act({ t: 'abort', side: ctrl.me() }) }, t('cancelInvite')));
}

/** The move that made `ply` plies, as "23. Kf3" or "23… Kf6". */
function moveLabel(ctrl: RoundCtrl, ply: number): string {
  const s = ctrl.data!;
  return `${moveNumber(ply, s.initialFen)}${moverOf(ply, s.initialFen) === 'white' ? '.' : '…'} ${s.moves[ply - 1].san}`;
}

function lookingBack(ctrl: RoundCtrl, ply: number): HTMLElement {
  const at = ply === 0
    ? t('lookingAtStart')
    : t('lookingBack', { move: moveLabel(ctrl, ply) });
  return h('div.banner.looking', {}, at, h('button.primary', { onclick: () => ctrl.view(null) }, t('backToGame')));
}

function result(ctrl: RoundCtrl): HTMLElement | null {
  const r = ctrl.data!.result;
  if (!r) return null;
  const article = r.article ? ` · ${t('article', { a: r.article })}` : '';
  // An aborted game has no score and no winner: only what happened to it.
  if (r.reason === 'aborted') {
    return h('div.banner.result', { role: 'status', 'data-reason': r.reason },
      h('div.reason', {}, `${reasonText(r.reason)}${article}`));
  }
  // Who won, where someone did (½–½ says a draw already).
  const verdict = r.winner ? `${t(r.winner === 'white' ? 'whiteWins' : 'blackWins')} · ` : '';
  // A dead position proved after more moves were made: the game ended at the earlier move.
  const s = ctrl.data!;
  const since = r.deadAfter !== undefined && r.deadAfter > 0 && r.deadAfter < s.moves.length
    ? h('div.since', {}, t('deadSince', { move: moveLabel(ctrl, r.deadAfter) }))
    : null;
  return h('div.banner.result', { role: 'status', 'data-reason': r.reason },
    h('div.score', {}, r.score),
    h('div.reason', {}, `${verdict}${reasonText(r.reason)}${article}`),
    since);
}

/** An offer or request from `from` that this player answers with `answer` ('draw', 'takeback'). */
function answerBanner(ctrl: RoundCtrl, from: Side, answer: 'draw' | 'takeback'): HTMLElement {
  const s = ctrl.data!;
  const who = s.you.length === 2 ? t(from) : t('opponent');
  const side = other(from);
  return h('div.banner.offer', { role: 'alert' },
    t(answer === 'draw' ? 'drawOfferFrom' : 'takebackFrom', { side: who }),
    h('button.primary', { 'data-action': `accept-${answer}`, onclick: () => ctrl.act({ t: `accept-${answer}`, side }) }, t('accept')),
    h('button', { 'data-action': `decline-${answer}`, onclick: () => ctrl.act({ t: `decline-${answer}`, side }) }, t('decline')));
}

/** The opponent left: a countdown, then the claims (win or draw). */
function gone(ctrl: RoundCtrl): HTMLElement | null {
  const s = ctrl.data!;
  if (s.you.length !== 1) return null;
  const left = s.gone?.find((g) => g.side !== s.you[0]);
  if (!left) return null;
  const remaining = () => left.claimableAt - (s.serverTime + (performance.now() - ctrl.receivedAt));
  if (remaining() > 0) {
    const text = h('span', {});
    const box = h('div.banner.gone', { role: 'status' }, text);
    const show = () => { text.textContent = t('opponentLeft', { n: Math.ceil(Math.max(0, remaining()) / 1000) }); };
    show();
    // Counts down while shown; a redraw drops this banner and its timer with it.
    const timer = window.setInterval(() => {
      if (!box.isConnected) window.clearInterval(timer);
      else if (remaining() <= 0) {
        window.clearInterval(timer);
        ctrl.refresh();
      } else show();
    }, 250);
    return box;
  }
  return h('div.banner.gone', { role: 'alert' }, t('opponentGone'),
    h('button.primary', { 'data-action': 'claim-victory', onclick: () => ctrl.act({ t: 'claim-left' }) }, t('claimVictory')),
    h('button', { 'data-action': 'claim-draw-left', onclick: () => ctrl.act({ t: 'claim-left', draw: true }) }, t('claimDrawLeft')));
}

/** Over the board: the illegal moves and fouls so far, and the penalty just given. */
function infractions(ctrl: RoundCtrl): HTMLElement[] {
  const s = ctrl.data!;
  const i = s.infractions;
  if (!i) return [];
  const out: HTMLElement[] = [];
  if (ctrl.penalised) {
    out.push(h('div.banner.penalty', { role: 'alert' },
      t('illegalBy', { side: t(ctrl.penalised), other: t(other(ctrl.penalised)) })));
  }
  if (i.claimable) out.push(h('div.banner.hint', { role: 'status' }, t('illegalStands')));
  if (s.arbiter) out.push(h('div.banner.infractions', {}, t('infractions', { w: i.illegal[0], b: i.illegal[1] })));
  if (s.kingFouls) out.push(h('div.banner.infractions', {}, t('fouls', { w: i.fouls[0], b: i.fouls[1], n: s.kingFouls })));
  return out;
}

/** Adjourning: asked for, being sealed, or sealed and waiting to resume. */
function adjournment(ctrl: RoundCtrl): HTMLElement | null {
  const s = ctrl.data!;
  const a = s.adjournment;
  if (!a) return null;
  const mine = s.you.includes(a.by);
  const who = t(a.by);
  switch (a.phase) {
    case 'asked':
      return mine && s.you.length === 1
        ? h('div.banner.adjourn', { role: 'status' }, t('adjournAsked'))
        : h('div.banner.adjourn', { role: 'alert' }, t('adjournAskedBy', { side: who }),
          h('button.primary', { 'data-action': 'accept-adjourn', onclick: () => ctrl.act({ t: 'adjourn' }) }, t('accept')));
    case 'sealing':
      return h('div.banner.adjourn', { role: 'alert' }, mine ? t('sealYourMove') : t('sealingBy', { side: who }));
    case 'sealed': {
      const asked = a.resumeAsked;
      const waiting = asked !== undefined && s.you.length === 1 && s.you[0] === asked;
      return h('div.banner.adjourn', { role: 'status' }, t('adjourned', { side: who }),
        asked && !waiting ? ` ${t('resumeAskedBy', { side: t(asked) })}` : '',
        waiting
          ? ` ${t('resumeAsked')}`
          : s.you.length > 0
            ? h('button.primary', { 'data-action': 'resume', onclick: () => ctrl.act({ t: 'resume' }) }, t('resume'))
            : null);
    }
  }
}

export function banners(ctrl: RoundCtrl): HTMLElement {
  const s = ctrl.data!;
  const box = h('div.banners', {});
  if (s.status === 'waiting') {
    box.append(waiting(ctrl));
    return box;
  }
  if (s.you.length === 0) box.append(h('div.banner.spectating', {}, t('spectating')));
  if (ctrl.viewing !== null) box.append(lookingBack(ctrl, ctrl.viewing));
  const over = result(ctrl);
  if (over) box.append(over);
  if (s.status !== 'playing') return box;
  const mine = (side?: Side) => side !== undefined && s.you.includes(side);
  if (s.drawOffer) {
    if (mine(other(s.drawOffer))) box.append(answerBanner(ctrl, s.drawOffer, 'draw'));
    else if (mine(s.drawOffer)) box.append(h('div.banner', {}, t('drawOffered')));
  }
  if (s.takeback && mine(other(s.takeback))) box.append(answerBanner(ctrl, s.takeback, 'takeback'));
  const adjourning = adjournment(ctrl);
  if (adjourning) box.append(adjourning);
  box.append(...infractions(ctrl));
  const leaving = gone(ctrl);
  if (leaving) box.append(leaving);
  if (s.moves.length < 2 && s.clock && s.you.length === 1 && s.kind !== 'local' && s.turn === s.you[0]) {
    box.append(h('div.banner.hint', {}, t('firstMoveHint')));
  }
  return box;
}
