// The board read out in words, for screen readers and the keyboard board: a square's name and
// piece, the pieces of a kind or a colour, a rank or a file, and the commands typed in the
// move box that ask for them. Pure but for the language table (test/reader.test.ts).
import type { Side } from '../api';
import { t, type Key } from '../i18n';
import { pieceAt } from './movelist';

export const FILES = 'abcdefgh';

const ROLE_KEYS: Record<string, Key> = {
  k: 'piece.king', q: 'piece.queen', r: 'piece.rook', b: 'piece.bishop', n: 'piece.knight', p: 'piece.pawn',
};

/** "white knight" for `N`, "black pawn" for `p` (in the page's language). */
export function pieceName(letter: string): string {
  const side = letter === letter.toUpperCase() ? 'white' : 'black';
  return t(`pieceOf.${side}`, { piece: t(ROLE_KEYS[letter.toLowerCase()]) });
}

/** A square as read: "e4, white knight", or "e4" when it is empty (or the pieces are hidden). */
export function squareLabel(fen: string, square: string, hidden = false): string {
  const piece = hidden ? null : pieceAt(fen, square);
  return piece ? t('squareWithPiece', { square, piece: pieceName(piece) }) : square;
}

/** Every square, a1 to h8. */
export function squares(): string[] {
  const out: string[] = [];
  for (let r = 1; r <= 8; r++) for (const f of FILES) out.push(`${f}${r}`);
  return out;
}

/** The squares holding piece `letter` (`N`: White's knights; `n`: Black's), a1 first. */
export function squaresOf(fen: string, letter: string): string[] {
  return squares().filter((sq) => pieceAt(fen, sq) === letter);
}

/** A line of squares read in order, each with its piece, empty ones run together. */
function readLine(fen: string, line: string[]): string {
  const parts: string[] = [];
  let empty = 0;
  for (const sq of line) {
    const p = pieceAt(fen, sq);
    if (!p) {
      empty++;
      continue;
    }
    if (empty) parts.push(t('emptySquares', { n: empty }));
    empty = 0;
    parts.push(t('squareWithPiece', { square: sq, piece: pieceName(p) }));
  }
  if (empty) parts.push(t('emptySquares', { n: empty }));
  return parts.join(t('listSep'));
}

/** What a typed command asks for. */
export type Command =
  | { c: 'last' }
  | { c: 'clocks' }
  | { c: 'help' }
  | { c: 'pieces'; letter: string }
  | { c: 'side'; side: Side }
  | { c: 'rank'; rank: number }
  | { c: 'file'; file: string };

/** Reads a command typed in the move box; null when the text is not one (a move, then).
 * `l` last move, `c` clocks, `p N` / `p k` pieces of a kind (capital: White's), `p white`,
 * `r 4` a rank, `f e` a file, `h` or `?` the list of commands. No move in SAN or UCI reads as
 * one: moves have no space and are never a single letter. */
export function parseCommand(text: string): Command | null {
  const s = text.trim();
  if (s === 'l') return { c: 'last' };
  if (s === 'c') return { c: 'clocks' };
  if (s === 'h' || s === '?') return { c: 'help' };
  const m = s.match(/^([prf])\s+(\S+)$/);
  if (!m) return null;
  const [, cmd, arg] = m;
  if (cmd === 'p') {
    if (/^[KQRBNPkqrbnp]$/.test(arg)) return { c: 'pieces', letter: arg };
    const side = arg.toLowerCase();
    if (side === 'white' || side === 'w' || side === '白') return { c: 'side', side: 'white' };
    if (side === 'black' || side === '黑') return { c: 'side', side: 'black' };
    return null;
  }
  if (cmd === 'r' && /^[1-8]$/.test(arg)) return { c: 'rank', rank: Number(arg) };
  if (cmd === 'f' && /^[a-h]$/.test(arg)) return { c: 'file', file: arg };
  return null;
}

/** The answer to a board command, in words (`last` and `clocks` need the game: see the page). */
export function readBoard(fen: string, cmd: Command): string | null {
  switch (cmd.c) {
    case 'pieces': {
      const at = squaresOf(fen, cmd.letter);
      const name = pieceName(cmd.letter);
      return at.length ? `${name}: ${at.join(t('listSep'))}` : t('noPieces', { piece: name });
    }
    case 'side': {
      const order = cmd.side === 'white' ? 'KQRBNP' : 'kqrbnp';
      const parts = [...order].flatMap((l) => {
        const at = squaresOf(fen, l);
        return at.length ? [`${t(ROLE_KEYS[l.toLowerCase()])} ${at.join(' ')}`] : [];
      });
      return `${t(cmd.side)}: ${parts.join(t('listSep'))}`;
    }
    case 'rank':
      return `${t('rankN', { n: cmd.rank })}: ${readLine(fen, [...FILES].map((f) => `${f}${cmd.rank}`))}`;
    case 'file':
      return `${t('fileN', { f: cmd.file })}: ${readLine(fen, [1, 2, 3, 4, 5, 6, 7, 8].map((r) => `${cmd.file}${r}`))}`;
    case 'help':
      return t('commandsHelp');
    default:
      return null;
  }
}
