// The interface's languages, and the one the browser prefers.

export type Lang = 'en' | 'zh';

/** The language the browser prefers, of those we have. */
export function browserLang(): Lang {
  const langs = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const l of langs) {
    if (l.toLowerCase().startsWith('zh')) return 'zh';
    if (l.toLowerCase().startsWith('en')) return 'en';
  }
  return 'en';
}
