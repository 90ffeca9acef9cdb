// A finished game's review as the page shows it: Win% for the graph, the glyph of a judged
// move, what a judged move should have been. Pure: no DOM, unit-tested (test/review.test.ts).
import type { Judgement, Review, Verdict } from '../api';

/** White's Win% (0–100) for a verdict: lichess's curve over centipawns, as the server's. */
export function whiteWin(v: Verdict): number {
  if ('over' in v) return v.over === 'white' ? 100 : v.over === 'black' ? 0 : 50;
  const cp = 'cp' in v ? Math.max(-1000, Math.min(1000, v.cp)) : (21 - Math.min(10, Math.abs(v.mate))) * 100 * Math.sign(v.mate);
  return 50 + 50 * (2 / (1 + Math.exp(-0.00368208 * cp)) - 1);
}

export const GLYPHS: Record<Judgement, string> = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/** The evaluation as a player reads it: "+0.31", "−1.20", "#3", "#−2", or the result. */
export function evalText(v: Verdict): string {
  if ('over' in v) return v.over === 'white' ? '1–0' : v.over === 'black' ? '0–1' : '½–½';
  if ('mate' in v) return `#${v.mate < 0 ? '−' : ''}${Math.abs(v.mate)}`;
  const pawns = (v.cp / 100).toFixed(2);
  return v.cp > 0 ? `+${pawns}` : v.cp < 0 ? `−${pawns.slice(1)}` : '0.00';
}

/** How many moves of each judgement `side` made (`side` moves first when `first`). */
export function counts(review: Review, side: 'white' | 'black', first: 'white' | 'black'): Record<Judgement, number> {
  const out: Record<Judgement, number> = { inaccuracy: 0, mistake: 0, blunder: 0 };
  review.moves.forEach((m, i) => {
    const mover = (i % 2 === 0) === (first === 'white') ? 'white' : 'black';
    if (mover === side && m.judgement) out[m.judgement]++;
  });
  return out;
}

/** The points of the graph: x from 0 to `width` over the positions, y from 0 (White winning)
 * to `height` (Black winning). */
export function graphPoints(review: Review, width: number, height: number): [number, number][] {
  const n = Math.max(1, review.positions.length - 1);
  return review.positions.map((p, i) => [
    Math.round((i / n) * width * 10) / 10,
    Math.round((1 - whiteWin(p.verdict) / 100) * height * 10) / 10,
  ]);
}
