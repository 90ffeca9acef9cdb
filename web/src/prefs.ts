// Per-browser preferences, remembered in localStorage.
import { browserLang, type Lang } from './i18n';

export interface Prefs {
  lang: Lang;
  sound: boolean;
  autoFlip: boolean;
}

const KEY = 'vizier.prefs';

export function loadPrefs(): Prefs {
  const defaults: Prefs = { lang: browserLang(), sound: true, autoFlip: false };
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<Prefs>;
    return {
      lang: saved.lang === 'zh' || saved.lang === 'en' ? saved.lang : defaults.lang,
      sound: typeof saved.sound === 'boolean' ? saved.sound : defaults.sound,
      autoFlip: typeof saved.autoFlip === 'boolean' ? saved.autoFlip : defaults.autoFlip,
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
