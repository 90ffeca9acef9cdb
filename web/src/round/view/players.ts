// A player's box: name, presence, whose move, and the clock.
import type { PlayerView, Side } from '../../api';
import { h } from '../../dom';
import { lang, t } from '../../i18n';
import { titleBadge } from '../../title';
import { formatClock } from '../clock';
import type { RoundCtrl } from '../ctrl';

export function playerName(ctrl: RoundCtrl, side: Side, p: PlayerView): string {
  const s = ctrl.data!;
  if (p.kind === 'computer') return `${t('computer')} · ${p.elo ? t('levelElo', { n: p.level, elo: p.elo }) : t('levelN', { n: p.level })}`;
  if (p.kind === 'open') return t('waitingForFriend');
  if (p.name) return p.name;
  if (s.you.length === 2) return t(side);
  if (s.you.includes(side)) return t('you');
  return s.kind === 'friend' && s.you.length === 1 ? t('friend') : t(side);
}

export function playerBox(ctrl: RoundCtrl, side: Side, where: 'top' | 'bottom'): HTMLElement {
  const s = ctrl.data!;
  const p = s[side];
  const index = side === 'white' ? 0 : 1;
  const toGo = s.clock?.movesToGo?.[index];
  const clock = s.clock
    ? h('div.clock', { 'data-side': side, class: `clock${s.clock.running === side && s.status === 'playing' ? ' running' : ''}` },
      h('span.time', { 'aria-label': t('clockOf', { side: t(side) }) }, formatClock(s.clock[side])),
      h('span.delay', {}),
      toGo != null ? h('span.period', {}, t('period', { moves: toGo })) : null,
      s.clock.away?.[index] ? h('span.away', {}, t('awayUntil', { date: new Date(s.clock.away[index]!).toLocaleString(lang() === 'zh' ? 'zh-CN' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' }) })) : null)
    : null;
  const presence = p.kind === 'human' && !s.you.includes(side)
    ? h('span.presence', { class: `presence ${p.online ? 'on' : 'off'}`, title: t(p.online ? 'online' : 'offline') }, p.online ? '●' : '○')
    : null;
  const mine = s.you.includes(side) && s.you.length === 1;
  const toMove = s.status === 'playing' && s.turn === side
    ? h('span.to-move', {}, ' ◀ ', mine ? t('yourMove') : t('toMove', { side: t(side) }),
      // The computer's search may wait for a free place on a busy server: it is thinking.
      p.kind === 'computer' ? h('span.thinking', { 'aria-live': 'polite' }, ` · ${t('computerThinking')}`) : null)
    : null;
  const rating = p.kind === 'human' && p.rating !== undefined
    ? h('span.rating', {}, ` ${p.rating}${p.provisional ? '?' : ''}`,
      p.ratingDiff !== undefined
        ? h('span.rating-diff', { class: `rating-diff ${p.ratingDiff >= 0 ? 'up' : 'down'}` },
          ` ${p.ratingDiff >= 0 ? '+' : '−'}${Math.abs(p.ratingDiff)}`)
        : null)
    : null;
  const name = p.kind === 'human' && p.name
    ? h('a.user-link', { href: `/@/${p.name}` }, titleBadge(p.title), playerName(ctrl, side, p))
    : playerName(ctrl, side, p);
  return h('div.player', { class: `player ${where}`, 'data-side': side },
    h('div.name', {}, h('span.piece-dot', { class: `piece-dot ${side}`, 'aria-hidden': 'true' }), presence, ' ', name, rating, toMove,
      s.berserked?.includes(side) ? h('span.berserked', { title: t('berserkedHint') }, ` ⚔ ${t('berserked')}`) : null),
    clock);
}
