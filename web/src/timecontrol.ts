// Time controls as players write them. Pure: no DOM, unit-tested (test/timecontrol.test.ts).

/** A time control in the PGN form ("40/5400+30:1800+30") as players write it ("40/90+30 · 30+30"). */
export function describeControl(pgn: string): string {
  // Correspondence: one move in so many days.
  const days = pgn.match(/^1\/(\d+)$/);
  if (days && Number(days[1]) % 86400 === 0) return `${Number(days[1]) / 86400}d`;
  return pgn.split(':').map((period) => {
    const m = period.match(/^(?:(\d+)\/)?([\d.]+)(?:([db])([\d.]+))?(?:\+([\d.]+))?$/);
    if (!m) return period;
    const [, moves, base, delayKind, delay, inc] = m;
    const minutes = Number(base) / 60;
    let text = `${moves ? `${moves}/` : ''}${Number.isInteger(minutes) ? minutes : minutes.toFixed(2).replace(/0+$/, '')}`;
    if (inc) text += `+${inc}`;
    if (delayKind) text += ` ${delayKind}${delay}`;
    return text;
  }).join(' · ');
}

/** The first period's base time in ms ("300+3" → 300 000; 0 if none). */
export function baseTime(pgn: string): number {
  const m = pgn.match(/^(?:\d+\/)?([\d.]+)/);
  return m ? Number(m[1]) * 1000 : 0;
}
