// A finished game's review in the panel: the button that asks for it, its progress, then the
// evaluation graph (a click looks at that move), each player's accuracy and mistakes, what a
// judged move should have been, and the annotated PGN.
import type { Review } from '../../api';
import { h } from '../../dom';
import { errorText, t } from '../../i18n';
import type { RoundCtrl } from '../ctrl';
import { fenTurn } from '../movelist';
import { counts, evalText, graphPoints } from '../review';

const W = 320;
const H = 80;
const SVG = 'http://www.w3.org/2000/svg';

function svg(tag: string, attrs: Record<string, string>): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

function graph(ctrl: RoundCtrl, review: Review): SVGElement {
  const pts = graphPoints(review, W, H);
  const root = svg('svg', {
    class: 'eval-graph', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': t('evalGraph'),
  });
  root.append(svg('rect', { x: '0', y: '0', width: String(W), height: String(H), class: 'black-side' }));
  const area = [`0,${H}`, ...pts.map(([x, y]) => `${x},${y}`), `${W},${H}`].join(' ');
  root.append(svg('polygon', { points: area, class: 'white-side' }));
  root.append(svg('line', { x1: '0', y1: String(H / 2), x2: String(W), y2: String(H / 2), class: 'mid' }));
  review.moves.forEach((m, i) => {
    if (!m.judgement) return;
    const [x, y] = pts[i + 1];
    root.append(svg('circle', { cx: String(x), cy: String(y), r: '3', class: `mark ${m.judgement}` }));
  });
  const shown = ctrl.viewing ?? review.positions.length - 1;
  const at = pts[shown];
  if (at) root.append(svg('line', { x1: String(at[0]), y1: '0', x2: String(at[0]), y2: String(H), class: 'cursor' }));
  root.addEventListener('click', (e: MouseEvent) => {
    const box = root.getBoundingClientRect();
    const n = review.positions.length - 1;
    ctrl.view(Math.round(((e.clientX - box.left) / box.width) * n));
  });
  return root;
}

function summary(ctrl: RoundCtrl, review: Review): HTMLElement {
  const s = ctrl.data!;
  const first = fenTurn(s.initialFen);
  const rows = (['white', 'black'] as const).map((side) => {
    const c = counts(review, side, first);
    const acc = review.accuracy[side];
    return h('li', { 'data-side': side },
      h('strong', {}, t(side)), ' · ',
      acc === null ? '–' : t('accuracy', { n: acc.toFixed(1) }), ' · ',
      t('judgementCounts', { i: c.inaccuracy, m: c.mistake, b: c.blunder }));
  });
  return h('ul.review-summary', {}, ...rows);
}

/** What the move looked at was, if the review judged it. */
function verdictOfShown(ctrl: RoundCtrl, review: Review): HTMLElement | null {
  const ply = ctrl.viewing ?? review.moves.length;
  const pos = review.positions[ply];
  const parts: string[] = pos ? [`${t('evaluation')} ${evalText(pos.verdict)}`] : [];
  const move = ply > 0 ? review.moves[ply - 1] : undefined;
  const before = review.positions[ply - 1];
  const played = ctrl.data!.moves[ply - 1]?.uci;
  if (move?.judgement) {
    const word = t(`judgement.${move.judgement}`);
    parts.push(before?.bestSan && before.best !== played ? t('wasBest', { judgement: word, best: before.bestSan }) : word);
  }
  return parts.length ? h('p.review-verdict', { 'aria-live': 'polite' }, parts.join(' · ')) : null;
}

export function reviewBox(ctrl: RoundCtrl): HTMLElement | null {
  const s = ctrl.data!;
  const r = ctrl.review;
  if (s.status !== 'over' || !r || s.moves.length === 0) return null;
  const box = h('section.review', { 'aria-label': t('review') });
  switch (r.status) {
    case 'none':
      box.append(h('button', { 'data-action': 'request-review', onclick: () => void ctrl.loadReview(true) }, t('requestReview')));
      break;
    case 'running':
      box.append(h('p.review-progress', { role: 'status' }, t('reviewProgress', { done: r.done, total: r.total })),
        h('progress', { max: String(r.total), value: String(r.done), 'aria-label': t('review') }));
      break;
    case 'error':
      box.append(h('p.notice.error', { role: 'alert' }, `${t('errorPrefix')} ${errorText(r.code)}`),
        h('button', { 'data-action': 'request-review', onclick: () => void ctrl.loadReview(true) }, t('tryAgain')));
      break;
    case 'done':
      box.append(graph(ctrl, r.review), summary(ctrl, r.review));
      {
        const v = verdictOfShown(ctrl, r.review);
        if (v) box.append(v);
      }
      box.append(h('a.button', {
        href: `/api/games/${s.game}/pgn?evals=true`, download: `vizier-${s.game}-annotated.pgn`, 'data-action': 'download-annotated',
      }, t('downloadAnnotated')));
      break;
  }
  return box;
}
