import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MoveView } from '../src/api';
import { fenTurn, moveNumber, moveRows, moveSound, moverOf, pieceAt, styleSan } from '../src/round/movelist';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const mv = (san: string): MoveView => ({ san, uci: '', fen: '' });

test('moves come in numbered pairs', () => {
  const rows = moveRows(['e4', 'e5', 'Nf3'].map(mv), START);
  assert.equal(rows.length, 2);
  assert.deepEqual(rows.map((r) => r.number), [1, 2]);
  assert.equal(rows[0].white?.move.san, 'e4');
  assert.equal(rows[0].black?.ply, 2);
  assert.equal(rows[1].white?.ply, 3);
  assert.equal(rows[1].black, undefined);
  assert.deepEqual(moveRows([], START), []);
});

test('a game from a position with Black to move starts mid-row at its move number', () => {
  const fen = '4k3/8/8/8/8/8/4P3/4K3 b - - 0 37';
  const rows = moveRows(['Kd7', 'e4', 'Ke6'].map(mv), fen);
  assert.deepEqual(rows.map((r) => r.number), [37, 38]);
  assert.equal(rows[0].white, undefined);
  assert.equal(rows[0].black?.move.san, 'Kd7');
  assert.equal(rows[1].white?.move.san, 'e4');
  assert.equal(moverOf(1, fen), 'black');
  assert.equal(moverOf(2, fen), 'white');
  assert.equal(moveNumber(2, fen), 38);
  assert.equal(fenTurn(fen), 'black');
});

test('move numbers count moves, not plies', () => {
  assert.equal(moveNumber(1, START), 1);
  assert.equal(moveNumber(2, START), 1);
  assert.equal(moveNumber(3, START), 2);
  assert.equal(moverOf(3, START), 'white');
});

test('a move sounds like what it did', () => {
  assert.equal(moveSound('Qxf7#'), 'check');
  assert.equal(moveSound('e8=Q'), 'promote');
  assert.equal(moveSound('O-O-O'), 'castle');
  assert.equal(moveSound('exd5'), 'capture');
  assert.equal(moveSound('Nf3'), 'move');
});

test('pieces are found on their squares', () => {
  assert.equal(pieceAt(START, 'e1'), 'K');
  assert.equal(pieceAt(START, 'd8'), 'q');
  assert.equal(pieceAt(START, 'e4'), null);
  assert.equal(pieceAt('4k3/8/8/8/8/8/4P3/4K3 w - - 0 1', 'e2'), 'P');
});

test('SAN in each notation names the pieces and promotions, and leaves the rest', () => {
  assert.equal(styleSan('Nf3', 'san'), 'Nf3');
  assert.equal(styleSan('Nf3', 'zh'), '马f3');
  assert.equal(styleSan('Qxd8+', 'de'), 'Dxd8+');
  assert.equal(styleSan('Bb5', 'fr'), 'Fb5');
  assert.equal(styleSan('exd8=Q#', 'es'), 'exd8=D#');
  assert.equal(styleSan('exd8=N', 'figurine'), 'exd8=♘');
  assert.equal(styleSan('Kxe2', 'nl'), 'Kxe2');
  assert.equal(styleSan('Nbd7', 'nl'), 'Pbd7');
  assert.equal(styleSan('O-O-O', 'zh'), 'O-O-O');
  assert.equal(styleSan('e4', 'de'), 'e4');
  assert.equal(styleSan('e2-e5', 'de'), 'e2-e5');
});
