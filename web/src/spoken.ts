// Moves and game events as words to be spoken, in English, Chinese and German (the German with
// the phonetic file names used in blind chess: Anna, Bella, Cesar…). Pure: no DOM, unit-tested
// (test/spoken.test.ts); speech.ts says them.
import type { Side } from './api';

export type SpokenLang = 'en' | 'zh' | 'de';

interface Words {
  /** K Q R B N P. */
  pieces: [string, string, string, string, string, string];
  file(f: string): string;
  rank(r: string): string;
  /** How a square is said, from its file and rank words. */
  square(file: string, rank: string): string;
  takes: string;
  check: string;
  mate: string;
  short: string;
  long: string;
  promotes(piece: string): string;
  pass: string;
  /** Joins the move with its check or mate. */
  then(move: string, after: string): string;
  lowTime: string;
  wins(side: Side): string;
  draw: string;
  aborted: string;
}

const GERMAN_FILES = ['Anna', 'Bella', 'Cesar', 'David', 'Eva', 'Felix', 'Gustav', 'Hektor'];
const GERMAN_RANKS = ['eins', 'zwei', 'drei', 'vier', 'fünf', 'sechs', 'sieben', 'acht'];

const WORDS: Record<SpokenLang, Words> = {
  en: {
    pieces: ['king', 'queen', 'rook', 'bishop', 'knight', 'pawn'],
    file: (f) => f.toUpperCase(),
    rank: (r) => r,
    square: (f, r) => `${f} ${r}`,
    takes: 'takes',
    check: 'check',
    mate: 'checkmate',
    short: 'castles kingside',
    long: 'castles queenside',
    promotes: (p) => `promotes to ${p}`,
    pass: 'passes',
    then: (move, after) => `${move}, ${after}`,
    lowTime: 'Low time',
    wins: (side) => (side === 'white' ? 'White wins' : 'Black wins'),
    draw: 'Draw',
    aborted: 'Game aborted',
  },
  zh: {
    pieces: ['王', '后', '车', '象', '马', '兵'],
    file: (f) => f,
    rank: (r) => r,
    square: (f, r) => `${f}${r}`,
    takes: '吃',
    check: '将军',
    mate: '将死',
    short: '短易位',
    long: '长易位',
    promotes: (p) => `升变为${p}`,
    pass: '停着',
    then: (move, after) => `${move}，${after}`,
    lowTime: '时间不多了',
    wins: (side) => (side === 'white' ? '白方胜' : '黑方胜'),
    draw: '和棋',
    aborted: '对局已中止',
  },
  de: {
    pieces: ['König', 'Dame', 'Turm', 'Läufer', 'Springer', 'Bauer'],
    file: (f) => GERMAN_FILES[f.charCodeAt(0) - 97] ?? f,
    rank: (r) => GERMAN_RANKS[Number(r) - 1] ?? r,
    square: (f, r) => `${f} ${r}`,
    takes: 'schlägt',
    check: 'Schach',
    mate: 'Schachmatt',
    short: 'kurze Rochade',
    long: 'lange Rochade',
    promotes: (p) => `wird ${p}`,
    pass: 'Nullzug',
    then: (move, after) => `${move}, ${after}`,
    lowTime: 'Wenig Zeit',
    wins: (side) => (side === 'white' ? 'Weiß gewinnt' : 'Schwarz gewinnt'),
    draw: 'Remis',
    aborted: 'Partie abgebrochen',
  },
};

const SAN = /^([KQRBN])?([a-h])?([1-8])?(x)?([a-h])([1-8])(?:=([QRBN]))?([+#])?[!?]*$/;

/** The words for a move in SAN: `Nxe5+` is "knight takes E 5, check", "马 吃 e5，将军",
 * "Springer schlägt Eva fünf, Schach". Text that is not SAN is returned as it is. */
export function spokenMove(san: string, lang: SpokenLang): string {
  const w = WORDS[lang];
  const piece = (letter: string) => w.pieces['KQRBNP'.indexOf(letter)];
  const after = (mark: string | undefined) => (mark === '#' ? w.mate : mark === '+' ? w.check : null);
  const withCheck = (move: string, mark: string | undefined) => {
    const a = after(mark);
    return a ? w.then(move, a) : move;
  };
  const castle = san.match(/^(O-O(?:-O)?|0-0(?:-0)?)([+#])?$/);
  if (castle) return withCheck(castle[1].length > 3 ? w.long : w.short, castle[2]);
  if (san === '--' || san === 'Z0') return w.pass;
  const m = san.match(SAN);
  if (!m) return san;
  const [, letter, fromFile, fromRank, capture, file, rank, promotion, mark] = m;
  const parts = [piece(letter ?? 'P')];
  const from = fromFile && fromRank
    ? w.square(w.file(fromFile), w.rank(fromRank))
    : fromFile ? w.file(fromFile) : fromRank ? w.rank(fromRank) : '';
  if (from) parts.push(from);
  if (capture) parts.push(w.takes);
  parts.push(w.square(w.file(file), w.rank(rank)));
  if (promotion) parts.push(w.promotes(piece(promotion)));
  return withCheck(parts.join(' '), mark);
}

/** "Low time", in `lang`. */
export function spokenLowTime(lang: SpokenLang): string {
  return WORDS[lang].lowTime;
}

/** The result in words: who won, or a draw, or an aborted game. */
export function spokenResult(winner: Side | null, aborted: boolean, lang: SpokenLang): string {
  const w = WORDS[lang];
  return aborted ? w.aborted : winner ? w.wins(winner) : w.draw;
}
