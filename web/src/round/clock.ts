// The clocks' arithmetic. Pure: no DOM, unit-tested (test/clock.test.ts). The server's clock is
// the truth; between states the running side's time is counted down from the state's reading.
import type { ClockView, Side } from '../api';
import { baseTime } from '../timecontrol';

/** Time left as a clock shows it: h:mm:ss, mm:ss, and tenths under ten seconds. */
export function formatClock(ms: number): string {
  const clamped = Math.max(0, ms);
  const total = Math.floor(clamped / 1000);
  const hours = Math.floor(total / 3600);
  const mins = Math.floor((total % 3600) / 60);
  const secs = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (hours > 0) return `${hours}:${pad(mins)}:${pad(secs)}`;
  if (clamped < 10_000) return `${pad(mins)}:${pad(secs)}.${Math.floor((clamped % 1000) / 100)}`;
  return `${pad(mins)}:${pad(secs)}`;
}

/** `side`'s time `elapsed` ms after the state was read: a simple delay is spent first. */
export function timeLeft(clock: ClockView, side: Side, playing: boolean, elapsed: number): number {
  const base = clock[side];
  if (clock.running !== side || !playing) return base;
  if (clock.away?.[side === 'white' ? 0 : 1]) return base;
  return base - Math.max(0, elapsed - clock.delayLeft);
}

/** What is left of the running side's delay `elapsed` ms after the state was read. */
export function delayLeft(clock: ClockView, side: Side, elapsed: number): number {
  return clock.running === side ? Math.max(0, clock.delayLeft - elapsed) : 0;
}

/** Low time: under a tenth of the base time, and never more than 20 seconds. */
export function isLowTime(ms: number, control: string): boolean {
  return ms < Math.min(20_000, baseTime(control) / 10);
}
