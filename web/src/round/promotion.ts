// The promotion dialog over the board: four pieces and Cancel.
import type { Side } from '../api';
import { h } from '../dom';
import { t, type Key } from '../i18n';

const ROLES: [string, Key, string][] = [['q', 'queen', '♛'], ['r', 'rook', '♜'], ['b', 'bishop', '♝'], ['n', 'knight', '♞']];

/** Shows the dialog in `el`; `done` hears the chosen letter, or null when cancelled. */
export function askPromotion(el: HTMLElement, color: Side, done: (role: string | null) => void): void {
  const close = (role: string | null) => {
    el.hidden = true;
    done(role);
  };
  el.replaceChildren(
    h('p', {}, t('promoteTo')),
    ...ROLES.map(([letter, name, glyph]) => h('button.promo', {
      'data-role': letter, 'aria-label': t(name), title: t(name), onclick: () => close(letter),
    }, h('span', { 'aria-hidden': 'true', class: `glyph ${color}` }, glyph))),
    h('button.promo-cancel', { onclick: () => close(null) }, t('cancel')),
  );
  el.setAttribute('aria-label', t('promoteTo'));
  el.hidden = false;
  el.querySelector('button')?.focus();
}
