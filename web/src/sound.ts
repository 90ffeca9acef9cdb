// Short, quiet sounds synthesised with WebAudio: nothing to download, never blocking.
export type Sound = 'move' | 'capture' | 'check' | 'castle' | 'promote' | 'lowTime' | 'start' | 'win' | 'draw' | 'loss';

let ctx: AudioContext | null = null;
let enabled = true;

export function setSoundEnabled(on: boolean): void {
  enabled = on;
}

// Notes as [frequency Hz, start s, length s].
const tunes: Record<Sound, [number, number, number][]> = {
  move: [[520, 0, 0.06]],
  capture: [[340, 0, 0.05], [260, 0.05, 0.07]],
  check: [[880, 0, 0.08], [660, 0.09, 0.08]],
  castle: [[520, 0, 0.05], [520, 0.08, 0.05]],
  promote: [[523, 0, 0.07], [659, 0.07, 0.07], [784, 0.14, 0.09]],
  lowTime: [[990, 0, 0.1], [990, 0.2, 0.1]],
  start: [[440, 0, 0.08], [660, 0.1, 0.1]],
  win: [[523, 0, 0.1], [659, 0.1, 0.1], [784, 0.2, 0.18]],
  draw: [[523, 0, 0.12], [523, 0.15, 0.12]],
  loss: [[392, 0, 0.12], [330, 0.13, 0.18]],
};

export function play(sound: Sound): void {
  if (!enabled) return;
  try {
    ctx ??= new AudioContext();
    if (ctx.state === 'suspended') void ctx.resume();
    const now = ctx.currentTime;
    for (const [freq, at, len] of tunes[sound]) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = 'sine';
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(0.12, now + at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + len);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + at);
      osc.stop(now + at + len + 0.02);
    }
  } catch {
    // No audio device: play silently.
  }
}
