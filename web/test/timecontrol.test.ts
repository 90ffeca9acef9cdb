import assert from 'node:assert/strict';
import { test } from 'node:test';
import { baseTime, describeControl } from '../src/timecontrol';

test('time controls read as players write them', () => {
  assert.equal(describeControl('300+3'), '5+3');
  assert.equal(describeControl('60'), '1');
  assert.equal(describeControl('90+0.5'), '1.5+0.5');
  assert.equal(describeControl('40/5400+30:1800+30'), '40/90+30 · 30+30');
  assert.equal(describeControl('300d5'), '5 d5');
  assert.equal(describeControl('600b3+2'), '10+2 b3');
  assert.equal(describeControl('nonsense'), 'nonsense');
  // Correspondence: days a move.
  assert.equal(describeControl('1/259200'), '3d');
  assert.equal(describeControl('1/3600'), '1/60');
});

test('the base time is the first period\'s', () => {
  assert.equal(baseTime('300+3'), 300_000);
  assert.equal(baseTime('40/5400+30:1800+30'), 5_400_000);
  assert.equal(baseTime('-'), 0);
});
