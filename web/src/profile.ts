// A player's profile at /@/{name}: ratings per speed class (Glicko-2 with its deviation and
// `?` while provisional, the FIDE-method Elo, the level and points), games won, drawn and
// lost, and a rating chart per class.
import { h } from './dom';
import { lang, t, type Key } from './i18n';
import { titleBadge } from './title';
import { fetchGames, gameList, type ArchivedGame } from './archive';

export const CLASSES = ['bullet', 'blitz', 'rapid', 'classical', 'correspondence'] as const;
export type ClassKey = (typeof CLASSES)[number];

export interface PerfView {
  games: number;
  rating: number;
  rd: number;
  prog: number;
  prov?: boolean;
  elo: number;
  eloGames: number;
  points: number;
  level: number | null;
  wins: number;
  draws: number;
  losses: number;
}

export interface UserView {
  id: string;
  username: string;
  title?: string;
  createdAt: number;
  disabled?: boolean;
  perfs: Record<ClassKey, PerfView>;
  count: { all: number; rated: number; win: number; draw: number; loss: number };
}

/** lichess's rating-history shape: per class, [year, month 0-11, day, rating]. */
export type History = { name: string; points: [number, number, number, number][] }[];

/** "12级 · 1,874分", or "无级别 · 42分" before the first level. */
export function levelText(p: Pick<PerfView, 'level' | 'points'>): string {
  const points = p.points.toLocaleString(lang() === 'zh' ? 'zh-CN' : 'en');
  return p.level === null ? t('noLevelPoints', { points }) : t('levelPoints', { n: p.level, points });
}

/** A rating with `?` while provisional. */
export function ratingText(p: Pick<PerfView, 'rating' | 'prov'>): string {
  return `${p.rating}${p.prov ? '?' : ''}`;
}

export class ProfilePage {
  private readonly root = h('section.profile', {});
  private user: UserView | null | undefined;
  private history: History = [];
  private recent: ArchivedGame[] = [];

  constructor(parent: HTMLElement, private readonly name: string, private readonly navigate: (p: string) => void,
    private readonly me: string | null = null) {
    parent.append(this.root);
    this.redraw();
    void this.load();
  }

  private async load(): Promise<void> {
    const get = async (path: string) => {
      const r = await fetch(path).catch(() => null);
      return r?.ok ? r.json() : null;
    };
    const [user, history, recent] = await Promise.all([
      get(`/api/user/${encodeURIComponent(this.name)}`),
      get(`/api/user/${encodeURIComponent(this.name)}/rating-history`),
      fetchGames(this.name, {}, 10),
    ]);
    this.user = user as UserView | null;
    this.recent = recent;
    this.history = (history as History | null) ?? [];
    this.redraw();
  }

  redraw(): void {
    document.title = `${this.name} · ${t('appName')}`;
    if (this.user === undefined) {
      this.root.replaceChildren(h('h1', {}, this.name));
      return;
    }
    if (this.user === null) {
      this.root.replaceChildren(h('h1', {}, this.name), h('p', {}, t('userNotFound')));
      return;
    }
    const u = this.user;
    const c = u.count;
    const rows = CLASSES.map((key) => {
      const p = u.perfs[key];
      return h('tr', { 'data-class': key },
        h('th', { scope: 'row' }, t(`class.${key}` as Key)),
        h('td.glicko', {}, p.games ? `${ratingText(p)} ± ${p.rd}` : '—'),
        h('td.elo', {}, p.games ? String(p.elo) : '—'),
        h('td.level', {}, levelText(p)),
        h('td.games', {}, String(p.games)));
    });
    const canChallenge = this.me !== null && this.me.toLowerCase() !== u.id && !u.disabled;
    this.root.replaceChildren(
      h('h1', {}, titleBadge(u.title), u.username, u.disabled ? h('small.closed', {}, ` · ${t('accountClosed')}`) : null,
        canChallenge ? h('button.primary.challenge', { type: 'button', onclick: () => this.challengeDialog(u.username) }, t('challenge')) : null),
      h('p.counts', {}, t('gameCounts', { all: c.all, rated: c.rated, win: c.win, draw: c.draw, loss: c.loss })),
      // On a narrow screen the table scrolls within its box, not the page.
      h('div.table-scroll', {}, h('table.perfs', {},
        h('thead', {}, h('tr', {},
          h('th', { scope: 'col' }, t('speedClass')),
          h('th', { scope: 'col' }, 'Glicko-2'),
          h('th', { scope: 'col' }, t('fideMethod')),
          h('th', { scope: 'col' }, t('levelScheme')),
          h('th', { scope: 'col' }, t('games')))),
        h('tbody', {}, rows))),
      h('h2', {}, t('ratingChart')),
      ratingChart(this.history),
      h('h2', {}, t('recentGames')),
      gameList(this.recent, u.id, this.navigate),
      h('p', {}, h('a.all-games', {
        href: `/@/${u.username}/games`,
        onclick: (e: Event) => { e.preventDefault(); this.navigate(`/@/${u.username}/games`); },
      }, t('allGames'))));
  }

  /** The challenge dialog: time control, colour, rated; sent, then the lobby waits for the answer. */
  private challengeDialog(name: string): void {
    const dialog = h('dialog.new-game', { 'aria-label': t('challenge') });
    const tcs: [number, number][] = [[60, 0], [180, 2], [300, 3], [600, 5], [900, 10], [1800, 20]];
    const tc = h('select', { name: 'tc' }, tcs.map(([l, i]) => h('option', { value: `${l}+${i}`, selected: l === 300 }, `${l / 60}+${i}`)));
    const colour = h('select', { name: 'color' }, (['random', 'white', 'black'] as const).map((c) => h('option', { value: c }, t(c))));
    const rated = h('input', { type: 'checkbox', name: 'rated' });
    const error = h('p.error', { role: 'alert' });
    const form = h('form', { method: 'dialog' },
      h('h2', {}, t('challengeName', { name })),
      h('label.field', {}, h('span', {}, t('timeControl')), tc),
      h('label.field', {}, h('span', {}, t('colour')), colour),
      h('label.check', {}, rated, ' ', t('rated')),
      error,
      h('div.dialog-actions', {},
        h('button', { type: 'button', onclick: () => dialog.close() }, t('cancel')),
        h('button.primary', { type: 'submit' }, t('challenge'))));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const [limit, increment] = tc.value.split('+').map(Number);
      const r = await fetch(`/api/challenge/${encodeURIComponent(name)}`, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clock: { limit, increment }, color: colour.value, rated: rated.checked }),
      }).catch(() => null);
      if (r?.ok) {
        dialog.close();
        this.navigate('/');
      } else {
        const body = (await r?.json().catch(() => ({}))) as { error?: string } | undefined;
        error.textContent = body?.error ?? t('error.connection-lost');
      }
    });
    dialog.append(form);
    dialog.addEventListener('close', () => dialog.remove());
    document.body.append(dialog);
    dialog.showModal();
  }

  destroy(): void {
    this.root.remove();
  }
}

const SVG = 'http://www.w3.org/2000/svg';
const COLOURS = ['#8a3f00', '#1f5f8b', '#2e7d32', '#6a1b9a', '#555'];

function svg(tag: string, attrs: Record<string, string | number>, ...children: Node[]): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

/** Every class's rating over time, one line each, on one time axis. */
export function ratingChart(history: History): HTMLElement {
  const series = history
    .map((c, i) => ({ name: c.name, index: i, colour: COLOURS[i % COLOURS.length], points: c.points.map(([y, m, d, r]) => [Date.UTC(y, m, d), r] as const) }))
    .filter((s) => s.points.length > 0);
  if (!series.length) return h('p.chart-empty', {}, t('noRatedGames'));
  const all = series.flatMap((s) => s.points);
  const [t0, t1] = [Math.min(...all.map((p) => p[0])), Math.max(...all.map((p) => p[0]))];
  const [r0, r1] = [Math.min(...all.map((p) => p[1])) - 20, Math.max(...all.map((p) => p[1])) + 20];
  const [W, H, pad] = [640, 240, 40];
  const x = (ms: number) => pad + (t1 === t0 ? (W - 2 * pad) / 2 : ((ms - t0) / (t1 - t0)) * (W - 2 * pad));
  const y = (r: number) => H - pad + ((r0 - r) / (r1 - r0)) * (H - 2 * pad);
  const label = (text: string, px: number, py: number, anchor = 'end') => {
    const el = svg('text', { x: px, y: py, 'text-anchor': anchor, 'font-size': 11, fill: 'currentColor' });
    el.textContent = text;
    return el;
  };
  const day = (ms: number) => new Date(ms).toLocaleDateString(lang() === 'zh' ? 'zh-CN' : 'en', { timeZone: 'UTC' });
  const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': t('ratingChart'), class: 'rating-chart' },
    svg('line', { x1: pad, y1: H - pad, x2: W - pad, y2: H - pad, stroke: 'currentColor', 'stroke-opacity': 0.3 }),
    label(String(Math.round(r1)), pad - 4, pad + 4), label(String(Math.round(r0)), pad - 4, H - pad),
    label(day(t0), pad, H - pad + 16, 'start'), label(day(t1), W - pad, H - pad + 16),
    ...series.map((s) => {
      const line = svg('polyline', {
        points: s.points.map(([ms, r]) => `${x(ms).toFixed(1)},${y(r).toFixed(1)}`).join(' '),
        fill: 'none', stroke: s.colour, 'stroke-width': 2, 'data-class': s.name.toLowerCase(),
      });
      const dots = s.points.map(([ms, r]) => svg('circle', { cx: x(ms).toFixed(1), cy: y(r).toFixed(1), r: 3, fill: s.colour },
        Object.assign(document.createElementNS(SVG, 'title'), { textContent: `${s.name} ${r} · ${day(ms)}` })));
      return svg('g', {}, line, ...dots);
    }));
  const legend = h('ul.chart-legend', {}, series.map((s) =>
    h('li', {}, h('span.swatch', { class: `swatch s${s.index}`, 'aria-hidden': 'true' }), ' ',
      t(`class.${s.name.toLowerCase()}` as Key), ' ', String(s.points[s.points.length - 1][1]))));
  return h('figure.chart', {}, chart as unknown as HTMLElement, legend);
}
