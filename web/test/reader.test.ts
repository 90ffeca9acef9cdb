import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCommand, readBoard, squareLabel, squaresOf } from '../src/round/reader';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const AFTER_E4 = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1';

test('a square is named with its piece, unless empty or hidden', () => {
  assert.equal(squareLabel(START, 'g1'), 'g1, white knight');
  assert.equal(squareLabel(START, 'e8'), 'e8, black king');
  assert.equal(squareLabel(START, 'e4'), 'e4');
  assert.equal(squareLabel(START, 'g1', true), 'g1');
});

test('commands are told apart from moves', () => {
  assert.deepEqual(parseCommand('l'), { c: 'last' });
  assert.deepEqual(parseCommand(' c '), { c: 'clocks' });
  assert.deepEqual(parseCommand('?'), { c: 'help' });
  assert.deepEqual(parseCommand('p N'), { c: 'pieces', letter: 'N' });
  assert.deepEqual(parseCommand('p k'), { c: 'pieces', letter: 'k' });
  assert.deepEqual(parseCommand('p white'), { c: 'side', side: 'white' });
  assert.deepEqual(parseCommand('p 黑'), { c: 'side', side: 'black' });
  assert.deepEqual(parseCommand('r 4'), { c: 'rank', rank: 4 });
  assert.deepEqual(parseCommand('f e'), { c: 'file', file: 'e' });
  for (const move of ['e4', 'c4', 'Nf3', 'O-O', 'e2e4', 'fxe5', 'b1c3', 'p', 'r 9', 'f z', 'p X']) {
    assert.equal(parseCommand(move), null, move);
  }
});

test('the board read by piece, side, rank and file', () => {
  assert.deepEqual(squaresOf(START, 'N'), ['b1', 'g1']);
  assert.equal(readBoard(START, { c: 'pieces', letter: 'n' }), 'black knight: b8; g8');
  assert.equal(readBoard(START, { c: 'pieces', letter: 'Q' }), 'white queen: d1');
  assert.equal(readBoard('8/8/8/8/8/8/8/K6k w - - 0 1', { c: 'pieces', letter: 'Q' }), 'No white queen on the board');
  assert.equal(readBoard('8/8/8/8/8/8/8/K6k w - - 0 1', { c: 'side', side: 'black' }), 'Black: king h1');
  assert.equal(readBoard(AFTER_E4, { c: 'rank', rank: 4 }), 'Rank 4: 4 empty; e4, white pawn; 3 empty');
  assert.equal(readBoard(AFTER_E4, { c: 'file', file: 'e' }),
    'File e: e1, white king; 2 empty; e4, white pawn; 2 empty; e7, black pawn; e8, black king');
  assert.match(readBoard(START, { c: 'help' }) ?? '', /^Commands: l, the last move/);
});
