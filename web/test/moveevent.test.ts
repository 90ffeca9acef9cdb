import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyMove, type GameState, type MoveEvent } from '../src/api';

const before: GameState = {
  game: 'g1',
  version: 4,
  kind: 'friend',
  status: 'playing',
  chess960: false,
  timeControl: '300+3',
  initialFen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  fen: 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1',
  turn: 'black',
  check: false,
  moves: [{ san: 'e4', uci: 'e2e4', fen: 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1' }],
  you: ['white'],
  white: { kind: 'human', online: true },
  black: { kind: 'human', online: true },
  clock: { white: 300_000, black: 300_000, running: 'black', delayLeft: 0, control: '300+3' },
  serverTime: 1000,
  dests: {},
  drawOffer: 'black',
  takebacks: false,
  claims: { threefold: false, fifty: false },
  canAbort: true,
};

const e5: MoveEvent = {
  game: 'g1',
  version: 5,
  move: { san: 'e5', uci: 'e7e5', fen: 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2' },
  status: 'playing',
  fen: 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2',
  turn: 'white',
  check: false,
  clock: { white: 300_000, black: 299_000, running: 'white', delayLeft: 0, control: '300+3' },
  serverTime: 2000,
  dests: { g1: ['f3', 'h3'] },
  claims: { threefold: false, fifty: false },
  canAbort: false,
};

test('a move event extends the state it follows', () => {
  const after = applyMove(before, e5);
  assert.ok(after);
  assert.equal(after.version, 5);
  assert.deepEqual(after.moves.map((m) => m.san), ['e4', 'e5']);
  assert.equal(after.turn, 'white');
  assert.deepEqual(after.dests, { g1: ['f3', 'h3'] });
  assert.equal(after.clock?.black, 299_000);
  assert.equal(after.canAbort, false);
  // What the event leaves out is cleared, not kept: the offer lapsed with the move.
  assert.equal(after.drawOffer, undefined);
  // What a move cannot change stands.
  assert.deepEqual(after.you, ['white']);
  assert.equal(after.initialFen, before.initialFen);
  assert.equal(before.moves.length, 1, 'the old state is not changed');
});

test('a move event after a gap or for another game is not applied', () => {
  assert.equal(applyMove(before, { ...e5, version: 6 }), null);
  assert.equal(applyMove(before, { ...e5, version: 4 }), null);
  assert.equal(applyMove(before, { ...e5, game: 'g2' }), null);
});
