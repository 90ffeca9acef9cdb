import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Review } from '../src/api';
import { counts, evalText, graphPoints, whiteWin } from '../src/round/review';

const review: Review = {
  nodes: 1000,
  positions: [
    { verdict: { cp: 0 } }, { verdict: { cp: -40 } }, { verdict: { cp: -30 } },
    { verdict: { mate: -1 } }, { verdict: { over: 'black' } },
  ],
  moves: [
    { winBefore: 50, winAfter: 46, accuracy: 88, judgement: undefined },
    { winBefore: 54, winAfter: 53, accuracy: 97 },
    { winBefore: 47, winAfter: 0.2, accuracy: 4, judgement: 'blunder' },
    { winBefore: 99.8, winAfter: 100, accuracy: 100 },
  ],
  accuracy: { white: 46, black: 98.5 },
};

test('Win% follows the server\'s curve', () => {
  assert.equal(whiteWin({ cp: 0 }), 50);
  assert.ok(Math.abs(whiteWin({ cp: 100 }) - 59.1) < 0.1);
  assert.equal(whiteWin({ cp: 4000 }), whiteWin({ cp: 1000 }));
  assert.ok(whiteWin({ mate: -1 }) < 1);
  assert.equal(whiteWin({ over: 'white' }), 100);
  assert.equal(whiteWin({ over: null }), 50);
});

test('evaluations as players read them', () => {
  assert.equal(evalText({ cp: 31 }), '+0.31');
  assert.equal(evalText({ cp: -120 }), '−1.20');
  assert.equal(evalText({ cp: 0 }), '0.00');
  assert.equal(evalText({ mate: 3 }), '#3');
  assert.equal(evalText({ mate: -2 }), '#−2');
  assert.equal(evalText({ over: 'black' }), '0–1');
});

test('judgements are counted per side, whoever moved first', () => {
  assert.deepEqual(counts(review, 'white', 'white'), { inaccuracy: 0, mistake: 0, blunder: 1 });
  assert.deepEqual(counts(review, 'black', 'white'), { inaccuracy: 0, mistake: 0, blunder: 0 });
  assert.deepEqual(counts(review, 'black', 'black'), { inaccuracy: 0, mistake: 0, blunder: 1 });
});

test('the graph spans the width, White winning at the top', () => {
  const pts = graphPoints(review, 400, 100);
  assert.equal(pts.length, 5);
  assert.deepEqual(pts[0], [0, 50]);
  assert.equal(pts[4][0], 400);
  assert.equal(pts[4][1], 100, 'Black won: the bottom');
});
