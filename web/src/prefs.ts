// Per-browser preferences, remembered in localStorage.
import { browserLang, type Lang } from './i18n';

/** How the move list names pieces: SAN, figurines, or a language's initials (Appendix C.3). */
export type Notation = 'san' | 'figurine' | 'zh' | 'de' | 'fr' | 'es' | 'it' | 'nl';
export const NOTATIONS: Notation[] = ['san', 'figurine', 'zh', 'de', 'fr', 'es', 'it', 'nl'];

export interface Prefs {
  lang: Lang;
  sound: boolean;
  autoFlip: boolean;
  notation: Notation;
}

const KEY = 'vizier.prefs';

export function loadPrefs(): Prefs {
  const defaults: Prefs = { lang: browserLang(), sound: true, autoFlip: false, notation: 'san' };
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<Prefs>;
    return {
      lang: saved.lang === 'zh' || saved.lang === 'en' ? saved.lang : defaults.lang,
      sound: typeof saved.sound === 'boolean' ? saved.sound : defaults.sound,
      autoFlip: typeof saved.autoFlip === 'boolean' ? saved.autoFlip : defaults.autoFlip,
      notation: NOTATIONS.includes(saved.notation as Notation) ? (saved.notation as Notation) : defaults.notation,
    };
  } catch {
    return defaults;
  }
}

export function savePrefs(p: Prefs): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(p));
  } catch {
    // Private browsing: preferences last for this page only.
  }
}
