// A player's games: the list (recent games on the profile, the whole archive at
// /@/{name}/games) and the archive's filters, which refetch without reloading the page.
import { h } from './dom';
import { lang, reasonText, t, type Key } from './i18n';
import type { ReasonCode } from './api';

/** One game as lichess's NDJSON export gives it. */
export interface ArchivedGame {
  id: string;
  rated: boolean;
  speed: string;
  createdAt: number;
  lastMoveAt: number;
  status: string;
  winner?: 'white' | 'black';
  moves: string;
  timeControl: string;
  opening?: { eco: string; name: string; zh?: string };
  players: Record<'white' | 'black', { user?: { name: string; id: string }; aiLevel?: number; rating?: number; ratingDiff?: number }>;
  /** The visitor's own list (`/api/games/mine`): the sides they played. */
  you?: ('white' | 'black')[];
}

export interface Filters {
  perfType: string;
  result: string;
  color: string;
  rated: string;
  vs: string;
}

/** A page of `name`'s games, newest first, ended at or before `until`. */
export async function fetchGames(name: string, filters: Partial<Filters>, max: number, until?: number): Promise<ArchivedGame[]> {
  const q = new URLSearchParams({ max: String(max) });
  for (const [k, v] of Object.entries(filters)) if (v) q.set(k, v);
  if (until !== undefined) q.set('until', String(until));
  return ndjson(`/api/games/user/${encodeURIComponent(name)}?${q}`);
}

/** This visitor's last finished games (a guest's too), newest first. */
export async function fetchMine(max: number): Promise<ArchivedGame[]> {
  return ndjson(`/api/games/mine?max=${max}`);
}

async function ndjson(url: string): Promise<ArchivedGame[]> {
  const r = await fetch(url, { headers: { accept: 'application/x-ndjson' } }).catch(() => null);
  if (!r?.ok) return [];
  const text = await r.text();
  return text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as ArchivedGame);
}

function playerText(g: ArchivedGame, side: 'white' | 'black'): HTMLElement {
  const p = g.players[side];
  const name = p.user?.name ?? (p.aiLevel !== undefined ? `${t('computer')} · ${t('levelN', { n: p.aiLevel })}`
    : g.you?.includes(side) ? t('you') : t('anonymous'));
  const diff = p.ratingDiff;
  return h('span.archive-player', {},
    p.user ? h('a', { href: `/@/${p.user.name}` }, name) : name,
    p.rating !== undefined ? ` (${p.rating})` : '',
    diff !== undefined ? h('span', { class: `rating-diff ${diff >= 0 ? 'up' : 'down'}` }, ` ${diff >= 0 ? '+' : '−'}${Math.abs(diff)}`) : null);
}

/** How the game went for `me` (a lower-case name): won, drawn, lost. */
function outcomeFor(g: ArchivedGame, me: string): 'win' | 'draw' | 'loss' | null {
  const mine = (['white', 'black'] as const).find((s) => g.players[s].user?.id === me)
    ?? (g.you?.length === 1 ? g.you[0] : undefined);
  if (g.status === 'aborted' || g.status === 'abandoned' || g.status === 'first-move-timeout') return null;
  if (!g.winner) return g.status === 'started' ? null : 'draw';
  return mine === undefined ? null : g.winner === mine ? 'win' : 'loss';
}

export function gameList(games: ArchivedGame[], me: string, navigate: (p: string) => void): HTMLElement {
  if (!games.length) return h('p.archive-empty', {}, t('noGames'));
  const when = (ms: number) => new Date(ms).toLocaleString(lang() === 'zh' ? 'zh-CN' : 'en');
  return h('ol.archive', {}, games.map((g) => {
    const outcome = outcomeFor(g, me.toLowerCase());
    const score = g.winner === 'white' ? '1–0' : g.winner === 'black' ? '0–1' : g.status === 'started' ? '*' : '½–½';
    return h('li.archive-game', { 'data-id': g.id },
      h('a.archive-open', { href: `/g/${g.id}`, onclick: (e: Event) => { e.preventDefault(); navigate(`/g/${g.id}`); } },
        h('span.archive-meta', {}, `${t(`class.${g.speed}` as Key) ?? g.speed} · ${g.rated ? t('rated') : t('casual')} · ${when(g.lastMoveAt)}`)),
      h('div.archive-players', {}, playerText(g, 'white'), ' – ', playerText(g, 'black')),
      h('div.archive-result', { class: `archive-result ${outcome ?? ''}` },
        h('strong', {}, score), ' · ',
        reasonText(g.status as ReasonCode) ?? g.status,
        outcome ? ` · ${t(`outcome.${outcome}` as Key)}` : ''),
      g.opening ? h('div.archive-opening', {}, `${g.opening.eco} · ${lang() === 'zh' && g.opening.zh ? `${g.opening.zh} · ` : ''}${g.opening.name}`) : null);
  }));
}

/** The archive page: filters above, the games below, twenty at a time. */
export class ArchivePage {
  private readonly root = h('section.archive-page', {});
  private readonly list = h('div', {});
  private games: ArchivedGame[] = [];
  private filters: Filters = { perfType: '', result: '', color: '', rated: '', vs: '' };
  private done = false;
  private loading = 0;

  constructor(parent: HTMLElement, private readonly name: string, private readonly navigate: (p: string) => void) {
    parent.append(this.root);
    this.redraw();
    void this.reload();
  }

  private async reload(): Promise<void> {
    const ticket = ++this.loading;
    const page = await fetchGames(this.name, this.filters, 20);
    if (ticket !== this.loading) return;
    this.games = page;
    this.done = page.length < 20;
    this.drawList();
  }

  private async more(): Promise<void> {
    const last = this.games[this.games.length - 1];
    if (!last) return;
    const page = await fetchGames(this.name, this.filters, 20, last.lastMoveAt - 1);
    this.games.push(...page);
    this.done = page.length < 20;
    this.drawList();
  }

  private drawList(): void {
    this.list.replaceChildren(gameList(this.games, this.name, this.navigate));
    if (!this.done) this.list.append(h('button.more', { type: 'button', onclick: () => void this.more() }, t('moreGames')));
  }

  redraw(): void {
    document.title = `${t('archiveOf', { name: this.name })} · ${t('appName')}`;
    const select = (key: keyof Filters, label: string, options: [string, string][]) =>
      h('label.field', {}, h('span', {}, label), h('select', {
        name: key,
        onchange: (e: Event) => { this.filters[key] = (e.target as HTMLSelectElement).value; void this.reload(); },
      }, options.map(([v, l]) => h('option', { value: v, selected: this.filters[key] === v }, l))));
    const vs = h('input', { type: 'text', name: 'vs', value: this.filters.vs, placeholder: t('username'), autocomplete: 'off' });
    vs.addEventListener('change', () => { this.filters.vs = vs.value.trim(); void this.reload(); });
    this.root.replaceChildren(
      h('h1', {}, h('a', { href: `/@/${this.name}`, onclick: (e: Event) => { e.preventDefault(); this.navigate(`/@/${this.name}`); } }, this.name), ' · ', t('allGames')),
      h('form.archive-filters', { onsubmit: (e: Event) => e.preventDefault() },
        select('perfType', t('speedClass'), [['', t('any')], ...(['bullet', 'blitz', 'rapid', 'classical', 'correspondence'].map((c) => [c, t(`class.${c}` as Key)] as [string, string]))]),
        select('result', t('resultFilter'), [['', t('any')], ['win', t('outcome.win')], ['draw', t('outcome.draw')], ['loss', t('outcome.loss')]]),
        select('color', t('colour'), [['', t('any')], ['white', t('white')], ['black', t('black')]]),
        select('rated', t('rated'), [['', t('any')], ['true', t('rated')], ['false', t('casual')]]),
        h('label.field', {}, h('span', {}, t('opponent')), vs)),
      this.list);
    this.drawList();
  }

  destroy(): void {
    this.root.remove();
  }
}
