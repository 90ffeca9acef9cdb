import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClockView } from '../src/api';
import { delayLeft, formatClock, isLowTime, timeLeft } from '../src/round/clock';

test('clocks show hours, minutes, and tenths under ten seconds', () => {
  assert.equal(formatClock(3_600_000), '1:00:00');
  assert.equal(formatClock(5_400_000 + 61_000), '1:31:01');
  assert.equal(formatClock(300_000), '05:00');
  assert.equal(formatClock(10_000), '00:10');
  assert.equal(formatClock(9_950), '00:09.9');
  assert.equal(formatClock(0), '00:00.0');
  assert.equal(formatClock(-500), '00:00.0');
});

const clock: ClockView = { white: 60_000, black: 30_000, running: 'white', delayLeft: 2_000, control: '60d2' };

test('the running side counts down after its delay, the other stands still', () => {
  assert.equal(timeLeft(clock, 'white', true, 1_500), 60_000);
  assert.equal(timeLeft(clock, 'white', true, 5_000), 57_000);
  assert.equal(timeLeft(clock, 'black', true, 5_000), 30_000);
  assert.equal(timeLeft(clock, 'white', false, 5_000), 60_000);
  assert.equal(delayLeft(clock, 'white', 500), 1_500);
  assert.equal(delayLeft(clock, 'white', 9_000), 0);
  assert.equal(delayLeft(clock, 'black', 0), 0);
});

test('low time is a tenth of the base, at most twenty seconds', () => {
  assert.ok(isLowTime(5_000, '60+0'));
  assert.ok(!isLowTime(7_000, '60+0'));
  assert.ok(isLowTime(19_000, '600+5'));
  assert.ok(!isLowTime(21_000, '40/5400+30:1800+30'));
  assert.ok(!isLowTime(1_000, '-'));
});
