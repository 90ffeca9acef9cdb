// Every string the user sees, one table per language (i18n/en.ts, i18n/zh.ts). No
// user-visible string lives in code.
import type { ErrorCode, ReasonCode } from './api';
import { en, type Key } from './i18n/en';
import { zh } from './i18n/zh';
import type { Lang } from './lang';

export type { Key } from './i18n/en';
export type { Lang } from './lang';

const tables: Record<Lang, Record<Key, string>> = { en, zh };

let current: Lang = 'en';

export function setLang(l: Lang): void {
  current = l;
  document.documentElement.lang = l === 'zh' ? 'zh-CN' : 'en';
}

export function lang(): Lang {
  return current;
}

export function t(key: Key, vars: Record<string, string | number> = {}): string {
  let s = tables[current][key];
  for (const [k, v] of Object.entries(vars)) s = s.replace(`{${k}}`, String(v));
  return s;
}

/** How a game ended, in words (the server's table of endings). */
export function reasonText(code: ReasonCode): string {
  return t(`reason.${code}`);
}

/** Why the server refused something, in words. */
export function errorText(code: ErrorCode): string {
  return t(`error.${code}`);
}
