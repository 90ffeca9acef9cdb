// The move list's shape: numbered rows of White's and Black's moves. Pure: no DOM, unit-tested
// (test/movelist.test.ts).
import type { MoveView, Side } from '../api';
import type { Notation } from '../prefs';

/** One numbered row; `ply` counts from 1 (the position after the first move). */
export interface MoveRow {
  number: number;
  white?: { ply: number; move: MoveView };
  black?: { ply: number; move: MoveView };
}

/** The side to move in a FEN. */
export function fenTurn(fen: string): Side {
  return fen.split(' ')[1] === 'b' ? 'black' : 'white';
}

/** The moves in rows numbered from the start position's move number; a game starting with
 * Black to move opens with a row without White's move. */
export function moveRows(moves: MoveView[], initialFen: string): MoveRow[] {
  const blackFirst = fenTurn(initialFen) === 'black';
  const start = Number(initialFen.split(' ')[5] ?? '1') || 1;
  const rows: MoveRow[] = [];
  moves.forEach((move, i) => {
    const index = i + (blackFirst ? 1 : 0);
    const number = start + Math.floor(index / 2);
    if (index % 2 === 0 || rows.length === 0) rows.push({ number });
    const row = rows[rows.length - 1];
    row[index % 2 === 0 ? 'white' : 'black'] = { ply: i + 1, move };
  });
  return rows;
}

/** The side that made move number `ply` (from 1). */
export function moverOf(ply: number, initialFen: string): Side {
  const first = fenTurn(initialFen);
  return ply % 2 === 1 ? first : first === 'white' ? 'black' : 'white';
}

/** The move number as people say it for ply `ply` ("move 2" for White's and Black's second). */
export function moveNumber(ply: number, initialFen: string): number {
  const blackFirst = fenTurn(initialFen) === 'black';
  const start = Number(initialFen.split(' ')[5] ?? '1') || 1;
  return start + Math.floor((ply - 1 + (blackFirst ? 1 : 0)) / 2);
}

/** The sound a move makes, from its SAN. */
export function moveSound(san: string): 'check' | 'promote' | 'castle' | 'capture' | 'move' {
  if (san.includes('#') || san.includes('+')) return 'check';
  if (san.includes('=')) return 'promote';
  if (san.startsWith('O-O')) return 'castle';
  if (san.includes('x')) return 'capture';
  return 'move';
}

/** The piece letter on `square` of a FEN's board (`P`, `n`, …), or null. */
export function pieceAt(fen: string, square: string): string | null {
  const rows = fen.split(' ')[0].split('/');
  const file = square.charCodeAt(0) - 97;
  const row = rows[8 - Number(square[1])];
  let col = 0;
  for (const ch of row ?? '') {
    if (/\d/.test(ch)) col += Number(ch);
    else {
      if (col === file) return ch;
      col++;
    }
  }
  return null;
}

const LETTERS: Record<Exclude<Notation, 'san'>, string[]> = {
  // K Q R B N, as each notation writes them.
  figurine: ['♔', '♕', '♖', '♗', '♘'],
  zh: ['王', '后', '车', '象', '马'],
  de: ['K', 'D', 'T', 'L', 'S'],
  fr: ['R', 'D', 'T', 'F', 'C'],
  es: ['R', 'D', 'T', 'A', 'C'],
  it: ['R', 'D', 'T', 'A', 'C'],
  nl: ['K', 'D', 'T', 'L', 'P'],
};

/** SAN with the pieces named in `notation`: `Nf3` is `马f3` in Chinese, `Sf3` in German. */
export function styleSan(san: string, notation: Notation): string {
  if (notation === 'san') return san;
  const letters = LETTERS[notation];
  const name = (c: string) => {
    const i = 'KQRBN'.indexOf(c);
    return i < 0 ? c : letters[i];
  };
  return san
    .replace(/^[KQRBN]/, name)
    .replace(/=([QRBN])/, (_, c: string) => `=${name(c)}`);
}
