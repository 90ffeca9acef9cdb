// A tournament's tables: the standings with their tie-breaks (my row marked in words as well
// as colour), a round's pairings with links to watch each game, the crosstable, the players.
import { h } from '../dom';
import { t } from '../i18n';
import type { Full, PlayerNorms, Round, StandingRow } from './api';

type Go = (path: string) => void;

function gameLink(game: string, label: string, go: Go): HTMLElement {
  const path = `/g/${game}`;
  return h('a', { href: path, onclick: (e: Event) => { e.preventDefault(); go(path); } }, label);
}

function nameOf(full: Full, n: number): string {
  return full.players[n - 1]?.name ?? `#${n}`;
}

/** A name with the title the organiser entered (`IM Ann`). */
function titled(full: Full, n: number, name: string): string {
  const title = full.players[n - 1]?.title;
  return title ? `${title} ${name}` : name;
}

/** The norm cell: the highest norm reached, else a dash; each check in the tooltip and in
 * words for screen readers. */
function normCell(norms: PlayerNorms | undefined): HTMLElement {
  if (!norms || !norms.checks.length) return h('td.norm', {}, '–');
  const lines = norms.checks.map((c) => t('normCheck', {
    title: c.title, average: c.average, performance: c.performance, verdict: c.missing ?? t('normReachedShort'),
  }));
  return h('td.norm', { title: lines.join('\n') },
    norms.best ? h('strong', {}, t('normOf', { title: norms.best })) : '–',
    h('span.sr-only', {}, ` ${lines.join('; ')}`));
}

export function standingsTable(full: Full): HTMLElement {
  const s = full.standings;
  if (!s) return h('p', {}, t('standingsAfterStart'));
  const me = full.me.number;
  // The arena ranks by performance already; the others show it beside the tie-breaks.
  const perf = full.format !== 'arena';
  const norms = full.norms;
  return h('div.table-scroll', {}, h('table.standings', {},
    h('caption', {}, full.format === 'arena' ? t('arenaStandings', { n: s.afterRound }) : t('standingsAfterRound', { n: s.afterRound })),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, t('rank')), h('th', { scope: 'col' }, t('pairingNumber')),
      h('th', { scope: 'col' }, t('player')), h('th', { scope: 'col' }, t('rating')),
      full.format === 'arena' ? h('th', { scope: 'col' }, t('arenaSheet')) : null,
      h('th', { scope: 'col' }, t('points')),
      s.tiebreaks.map((tb) => h('th', { scope: 'col', title: t('tiebreak') }, tb === 'Perf' ? t('performance') : tb)),
      perf ? h('th', { scope: 'col', title: t('performanceHint') }, t('performance')) : null,
      norms ? h('th', { scope: 'col', title: t('normHint') }, t('norm')) : null)),
    h('tbody', {}, s.rows.map((r) => h(r.number === me ? 'tr.me' : 'tr', { 'aria-current': r.number === me ? 'true' : undefined },
      h('td', {}, String(r.rank)), h('td', {}, String(r.number)),
      h('th', { scope: 'row' }, titled(full, r.number, r.name), r.number === me ? ` (${t('you')})` : '', r.withdrawn ? ` · ${t('withdrawn')}` : ''),
      h('td', {}, String(r.rating)),
      full.format === 'arena' ? h('td.sheet', {}, sheet(r)) : null,
      h('td.points', {}, r.points),
      r.tiebreaks.map((v) => h('td', {}, v ?? '–')),
      perf ? h('td.performance', {}, r.performance !== undefined ? String(r.performance) : '–') : null,
      norms ? normCell(norms.find((n) => n.number === r.number)) : null)))));
}

/** An arena sheet as lichess shows it: each game's points, the doubled ones marked by a
 * flame as well as colour; a player on fire now flagged in words. */
function sheet(r: StandingRow): (HTMLElement | string)[] {
  const scores = (r.sheet ?? []).map((s) => {
    const text = `${s.points}${s.fire ? '🔥' : ''}${s.berserk ? '⚔' : ''}`;
    return s.fire ? h('strong.fire', { title: t('doublePoints') }, text) : h('span', { title: s.berserk ? t('berserked') : undefined }, text);
  });
  return [...scores.flatMap((el, i) => (i ? [' ', el] : [el])), r.fire ? h('span.on-fire', {}, ` · ${t('onFire')}`) : ''];
}

export function arenaGamesTable(full: Full, go: Go): HTMLElement {
  if (!full.arenaGames.length) return h('p', {}, t('noGamesYet'));
  const me = full.me.number;
  const mine = (n: number) => (n === me ? ` (${t('you')})` : '');
  return h('div.table-scroll', {}, h('table.pairings.arena-games', {},
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, t('white')), h('th', { scope: 'col' }, t('result')),
      h('th', { scope: 'col' }, t('black')), h('th', { scope: 'col' }, t('game')))),
    h('tbody', {}, full.arenaGames.map((g) => h('tr', { 'data-game': g.game },
      h('td', {}, `${nameOf(full, g.white)}${mine(g.white)}`),
      h('td.result', {}, g.result ?? t('playing')),
      h('td', {}, `${nameOf(full, g.black)}${mine(g.black)}`),
      h('td', {}, gameLink(g.game, g.result ? t('replay') : t('watch'), go)))))));
}

/** The results an arbiter may set. */
const RESULTS = ['1-0', '1/2-1/2', '0-1', '+/-', '-/+', '-/-'];

/** A finished board's result, with the organiser's control to correct it. */
function resultCell(result: string | null, corrected: boolean | undefined, correct: ((result: string) => void) | null): HTMLElement {
  const shown = `${result ?? t('playing')}${corrected ? ` (${t('corrected')})` : ''}`;
  if (!correct || result === null) return h('td.result', {}, shown);
  return h('td.result', {}, shown, ' ', h('select.correct', {
    'aria-label': t('correctResult'),
    onchange: (e: Event) => { const v = (e.target as HTMLSelectElement).value; if (v) correct(v); },
  }, h('option', { value: '' }, t('correctResult')), RESULTS.map((r) => h('option', { value: r }, r))));
}

export function pairingsTable(full: Full, round: Round, go: Go, correct: ((board: number, result: string) => void) | null = null): HTMLElement {
  const me = full.me.number;
  const mine = (n: number) => (n === me ? ` (${t('you')})` : '');
  return h('div.table-scroll', {}, h('table.pairings', {},
    h('caption', {}, t('roundN', { n: round.number })),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, t('board')), h('th', { scope: 'col' }, t('white')),
      h('th', { scope: 'col' }, t('result')), h('th', { scope: 'col' }, t('black')), h('th', { scope: 'col' }, t('game')))),
    h('tbody', {},
      round.boards.map((b, i) => h('tr', { 'data-board': i + 1 },
        h('td', {}, String(i + 1)),
        h('td', {}, `${nameOf(full, b.white)} (${b.white})${mine(b.white)}`),
        resultCell(b.result, b.corrected, correct && ((r: string) => correct(i + 1, r))),
        h('td', {}, `${nameOf(full, b.black)} (${b.black})${mine(b.black)}`),
        h('td', {}, b.game ? gameLink(b.game, b.result ? t('replay') : t('watch'), go) : '–'))),
      round.byes.map((y) => h('tr.bye', {},
        h('td', {}, '–'), h('td', {}, `${nameOf(full, y.player)} (${y.player})${mine(y.player)}`),
        h('td.result', {}, y.kind === 'pairing' ? t('byePoint') : y.kind === 'half' ? t('byeHalf') : t('notPaired')), h('td', {}), h('td', {}))))));
}

export function crosstable(full: Full, go: Go): HTMLElement {
  const rows = full.crosstable;
  if (!rows) return h('p', {}, t('standingsAfterStart'));
  const rounds = full.rounds.length;
  return h('div.table-scroll', {}, h('table.crosstable', {},
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, t('pairingNumber')), h('th', { scope: 'col' }, t('player')),
      Array.from({ length: rounds }, (_, r) => h('th', { scope: 'col' }, t('roundShort', { n: r + 1 }))),
      h('th', { scope: 'col' }, t('points')))),
    h('tbody', {}, rows.map((cells, i) => h(i + 1 === full.me.number ? 'tr.me' : 'tr', {},
      h('td', {}, String(i + 1)), h('th', { scope: 'row' }, nameOf(full, i + 1)),
      cells.map((c) => {
        if (!c) return h('td', {}, '');
        const text = c.opponent ? `${c.opponent}${c.colour ?? ''} ${c.result}` : c.result;
        return h('td', {}, c.game ? gameLink(c.game, text, go) : text);
      }),
      h('td.points', {}, String(full.players[i]?.points ?? 0)))))));
}

export function playersList(full: Full): HTMLElement {
  if (!full.players.length) return h('p', {}, t('noPlayersYet'));
  return h('ol.tournament-players', {}, full.players.map((p) => h('li', {},
    titled(full, p.number, p.name), ` (${p.rating}${p.provisional ? '?' : ''})`, p.federation ? ` · ${p.federation}` : '',
    p.withdrawn ? ` · ${t('withdrawn')}` : '')));
}
