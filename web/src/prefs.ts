// Per-browser preferences, remembered in localStorage (and, signed in, with the account).
import { browserLang, type Lang } from './lang';

/** How the move list names pieces: SAN, figurines, or a language's initials (Appendix C.3). */
export type Notation = 'san' | 'figurine' | 'zh' | 'de' | 'fr' | 'es' | 'it' | 'nl';
export const NOTATIONS: Notation[] = ['san', 'figurine', 'zh', 'de', 'fr', 'es', 'it', 'nl'];

/** The language moves are spoken in, or none. */
export type Voice = 'off' | 'en' | 'zh' | 'de';
export const VOICES: Voice[] = ['off', 'en', 'zh', 'de'];

export type BoardTheme = 'brown' | 'blue' | 'green' | 'contrast';
export const BOARD_THEMES: BoardTheme[] = ['brown', 'blue', 'green', 'contrast'];

/** Pictures (cburnett) or the Unicode figurines, drawn as text. */
export type PieceSet = 'cburnett' | 'figurine';
export const PIECE_SETS: PieceSet[] = ['cburnett', 'figurine'];

/** Blindfold: nothing hidden, the pieces hidden, or the whole board hidden. */
export type Blindfold = 'off' | 'pieces' | 'board';
export const BLINDFOLDS: Blindfold[] = ['off', 'pieces', 'board'];

export interface Prefs {
  lang: Lang;
  sound: boolean;
  autoFlip: boolean;
  notation: Notation;
  /** Moves wait for a second press ("Confirm") before they are sent. */
  confirmMove: boolean;
  /** A pawn reaching the last rank becomes a queen without asking. */
  autoQueen: boolean;
  boardTheme: BoardTheme;
  pieceSet: PieceSet;
  bigCoords: boolean;
  voice: Voice;
  blindfold: Blindfold;
  /** Casual games against the computer: it moves in a few seconds whatever the clock. */
  humanPace: boolean;
}

/** The preferences that follow an account (everything but the language and sound, which the
 * account stores on their own). */
export type BoardPrefs = Omit<Prefs, 'lang' | 'sound'>;

const KEY = 'vizier.prefs';

export function defaultPrefs(lang: Lang = browserLang()): Prefs {
  return {
    lang, sound: true, autoFlip: false, notation: 'san', confirmMove: false, autoQueen: false,
    boardTheme: 'brown', pieceSet: 'cburnett', bigCoords: false, voice: 'off', blindfold: 'off', humanPace: true,
  };
}

/** Reads preferences from untrusted JSON: each field kept only when it is a valid value. */
export function mergePrefs(base: Prefs, saved: Partial<Record<keyof Prefs, unknown>>): Prefs {
  const pick = <T>(value: unknown, allowed: readonly T[], fallback: T): T =>
    allowed.includes(value as T) ? (value as T) : fallback;
  const bool = (value: unknown, fallback: boolean) => (typeof value === 'boolean' ? value : fallback);
  return {
    lang: pick(saved.lang, ['en', 'zh'] as Lang[], base.lang),
    sound: bool(saved.sound, base.sound),
    autoFlip: bool(saved.autoFlip, base.autoFlip),
    notation: pick(saved.notation, NOTATIONS, base.notation),
    confirmMove: bool(saved.confirmMove, base.confirmMove),
    autoQueen: bool(saved.autoQueen, base.autoQueen),
    boardTheme: pick(saved.boardTheme, BOARD_THEMES, base.boardTheme),
    pieceSet: pick(saved.pieceSet, PIECE_SETS, base.pieceSet),
    bigCoords: bool(saved.bigCoords, base.bigCoords),
    voice: pick(saved.voice, VOICES, base.voice),
    blindfold: pick(saved.blindfold, BLINDFOLDS, base.blindfold),
    humanPace: bool(saved.humanPace, base.humanPace),
  };
}

export function loadPrefs(): Prefs {
  try {
    return mergePrefs(defaultPrefs(), JSON.parse(localStorage.getItem(KEY) ?? '{}') ?? {});
  } catch {
    return defaultPrefs();
  }
}

export function savePrefs(p: Prefs): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(p));
  } catch {
    // Private browsing: preferences last for this page only.
  }
}

/** The part of the preferences an account keeps. */
export function boardPrefs(p: Prefs): BoardPrefs {
  const { lang: _lang, sound: _sound, ...rest } = p;
  return rest;
}
