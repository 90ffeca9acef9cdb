import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addMove, deleteAt, fenAt, moveLabel, movesTo, next, nodeAt, passTurn, promote, type Tree } from '../src/analysis/tree';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const mv = (uci: string, san: string) => ({ uci, san, fen: `after ${uci}` });

function tree(): Tree {
  return { fen: START, chess960: false, children: [] };
}

test('moves are added once, variations after the first', () => {
  const t = tree();
  const e4 = addMove(t, [], mv('e2e4', 'e4'));
  const e5 = addMove(t, e4, mv('e7e5', 'e5'));
  const c5 = addMove(t, e4, mv('c7c5', 'c5'));
  assert.deepEqual([e4, e5, c5], [[0], [0, 0], [0, 1]]);
  assert.deepEqual(addMove(t, e4, mv('c7c5', 'c5')), [0, 1], 'found, not added again');
  assert.deepEqual(movesTo(t, c5), ['e2e4', 'c7c5']);
  assert.equal(fenAt(t, c5), 'after c7c5');
  assert.equal(fenAt(t, []), START);
  assert.deepEqual(next(t, e4), [0, 0]);
  assert.equal(next(t, c5), null);
  assert.equal(nodeAt(t, [3]), null);
});

test('a variation is promoted to the main line, and deleted with what follows it', () => {
  const t = tree();
  const e4 = addMove(t, [], mv('e2e4', 'e4'));
  addMove(t, e4, mv('e7e5', 'e5'));
  const c5 = addMove(t, e4, mv('c7c5', 'c5'));
  addMove(t, c5, mv('g1f3', 'Nf3'));
  const promoted = promote(t, c5);
  assert.deepEqual(promoted, [0, 0]);
  assert.equal((nodeAt(t, [0, 0]) as { san: string }).san, 'c5');
  assert.deepEqual(deleteAt(t, promoted), [0]);
  assert.deepEqual(nodeAt(t, [0])!.children.map((c) => c.san), ['e5']);
});

test('move numbers from any start, and the turn passed for threats', () => {
  assert.deepEqual(moveLabel(START, 1), { number: 1, white: true });
  assert.deepEqual(moveLabel(START, 4), { number: 2, white: false });
  const black = '8/8/8/8/8/8/8/K6k b - - 0 40';
  assert.deepEqual(moveLabel(black, 1), { number: 40, white: false });
  assert.deepEqual(moveLabel(black, 2), { number: 41, white: true });
  assert.equal(passTurn('8/8/8/8/4Pp2/8/8/K6k b - e3 0 1', false), '8/8/8/8/4Pp2/8/8/K6k w - - 0 1');
  assert.equal(passTurn(START, true), null);
});
