import assert from 'node:assert/strict';
import { test } from 'node:test';
import { spokenLowTime, spokenMove, spokenResult } from '../src/spoken';

test('English: pieces by name, files as letters, check and mate after a comma', () => {
  assert.equal(spokenMove('Nf3', 'en'), 'knight F 3');
  assert.equal(spokenMove('exd5', 'en'), 'pawn E takes D 5');
  assert.equal(spokenMove('Bb5+', 'en'), 'bishop B 5, check');
  assert.equal(spokenMove('Qxf7#', 'en'), 'queen takes F 7, checkmate');
  assert.equal(spokenMove('O-O', 'en'), 'castles kingside');
  assert.equal(spokenMove('O-O-O+', 'en'), 'castles queenside, check');
  assert.equal(spokenMove('bxa8=Q', 'en'), 'pawn B takes A 8 promotes to queen');
  assert.equal(spokenMove('R1e2', 'en'), 'rook 1 E 2');
  assert.equal(spokenMove('Qh4e1', 'en'), 'queen H 4 E 1');
});

test('Chinese: 王后车象马兵, 吃, 将军, 易位', () => {
  assert.equal(spokenMove('Nf3', 'zh'), '马 f3');
  assert.equal(spokenMove('exd5', 'zh'), '兵 e 吃 d5');
  assert.equal(spokenMove('Bb5+', 'zh'), '象 b5，将军');
  assert.equal(spokenMove('Qxf7#', 'zh'), '后 吃 f7，将死');
  assert.equal(spokenMove('O-O', 'zh'), '短易位');
  assert.equal(spokenMove('O-O-O', 'zh'), '长易位');
  assert.equal(spokenMove('bxa8=Q', 'zh'), '兵 b 吃 a8 升变为后');
  assert.equal(spokenMove('Ke2', 'zh'), '王 e2');
  assert.equal(spokenMove('Rd1', 'zh'), '车 d1');
});

test('German: the phonetic files and spoken ranks, König Dame Turm Läufer Springer Bauer', () => {
  assert.equal(spokenMove('Nf3', 'de'), 'Springer Felix drei');
  assert.equal(spokenMove('exd5', 'de'), 'Bauer Eva schlägt David fünf');
  assert.equal(spokenMove('Bb5+', 'de'), 'Läufer Bella fünf, Schach');
  assert.equal(spokenMove('Qxf7#', 'de'), 'Dame schlägt Felix sieben, Schachmatt');
  assert.equal(spokenMove('O-O', 'de'), 'kurze Rochade');
  assert.equal(spokenMove('O-O-O', 'de'), 'lange Rochade');
  assert.equal(spokenMove('bxa8=Q', 'de'), 'Bauer Bella schlägt Anna acht wird Dame');
  assert.equal(spokenMove('Kg1', 'de'), 'König Gustav eins');
  assert.equal(spokenMove('Rh8', 'de'), 'Turm Hektor acht');
  assert.equal(spokenMove('Nc6', 'de'), 'Springer Cesar sechs');
});

test('passes, annotations and text that is not a move', () => {
  assert.equal(spokenMove('--', 'en'), 'passes');
  assert.equal(spokenMove('e4!?', 'en'), 'pawn E 4');
  assert.equal(spokenMove('hello', 'de'), 'hello');
});

test('low time and the result', () => {
  assert.equal(spokenLowTime('de'), 'Wenig Zeit');
  assert.equal(spokenResult('white', false, 'en'), 'White wins');
  assert.equal(spokenResult('black', false, 'zh'), '黑方胜');
  assert.equal(spokenResult(null, false, 'de'), 'Remis');
  assert.equal(spokenResult(null, true, 'en'), 'Game aborted');
});
