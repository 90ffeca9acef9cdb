// /tournament/{id}: when my next game is (a countdown; the board opens by itself when the round
// starts), where I stand (standings with tie-breaks, my row marked), what is going on (the
// round's games to watch); pairings per round, the crosstable and the players one click away.
import { h } from '../dom';
import { t, type Key } from '../i18n';
import { AccountError } from '../api';
import { command, correctResult, get, type Command, type Full } from './api';
import { controlText, dateText, formatText } from './list';
import { arenaGamesTable, crosstable, pairingsTable, playersList, standingsTable } from './tables';
import { SimulBoards, simulScore } from './simul';
import { DetailsForm } from './details';

type Tab = 'standings' | 'pairings' | 'crosstable' | 'players' | 'boards';

function countdown(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const hours = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return hours ? `${hours}:${mm}:${ss}` : `${mm}:${ss}`;
}

export class TournamentPage {
  private readonly root = h('section.tournament', {});
  private full: Full | null | undefined;
  private tab: Tab | null = null;
  private round: number | null = null;
  private error = '';
  private poll = 0;
  private ticker = 0;
  /** The game we were last sent to: a new one opens by itself. */
  private seenGame: string | null | undefined;
  private destroyed = false;
  private readonly simulBoards = new SimulBoards();
  private readonly detailsForm = new DetailsForm(() => { window.clearTimeout(this.poll); void this.load(); });

  constructor(parent: HTMLElement, private readonly id: string, private readonly navigate: (p: string) => void,
    private readonly signedIn: boolean) {
    parent.append(this.root);
    this.redraw();
    void this.load();
    this.ticker = window.setInterval(() => this.tick(), 1000);
  }

  private async load(): Promise<void> {
    const full = await get(this.id);
    if (this.destroyed) return;
    this.full = full;
    const game = this.full?.me.game ?? null;
    if (this.seenGame !== undefined && game && game !== this.seenGame) {
      this.navigate(`/g/${game}`);
      return;
    }
    this.seenGame = game;
    this.redraw();
    if (this.full && this.full.status !== 'finished') this.poll = window.setTimeout(() => void this.load(), 2000);
  }

  private async act(c: Command): Promise<void> {
    try {
      await command(this.id, c);
      this.error = '';
    } catch (e) {
      this.error = e instanceof AccountError ? e.message : String(e);
    }
    window.clearTimeout(this.poll);
    await this.load();
  }

  /** The organiser corrects a board's result. */
  private async correct(round: number, board: number, result: string): Promise<void> {
    try {
      await correctResult(this.id, round, board, result);
      this.error = '';
    } catch (e) {
      this.error = e instanceof AccountError ? e.message : String(e);
    }
    window.clearTimeout(this.poll);
    await this.load();
  }

  /** The countdown's text, or nothing to count down to. */
  private clockText(f: Full): string {
    const now = Date.now();
    if (f.status === 'created') return t('startsIn', { time: countdown(f.startsAt - now) });
    if (f.status === 'running' && f.paused) return t('tournamentPaused');
    if (f.status === 'running' && f.endsAt) return t('endsIn', { time: countdown(f.endsAt - now) });
    if (f.status === 'running' && f.nextRoundAt) return t('nextRoundIn', { n: f.rounds.length + 1, time: countdown(f.nextRoundAt - now) });
    return '';
  }

  private tick(): void {
    const el = this.root.querySelector('.countdown');
    if (el && this.full) el.textContent = this.clockText(this.full);
  }

  redraw(): void {
    const f = this.full;
    if (f === undefined) {
      this.root.replaceChildren(h('p', {}, t('loading')));
      return;
    }
    if (f === null) {
      this.root.replaceChildren(h('h1', {}, t('tournaments')), h('p', {}, t('noSuchTournament')));
      return;
    }
    document.title = `${f.name} · ${t('appName')}`;
    const status: Record<string, Key> = { created: 'startingSoon', running: 'tournamentsRunning', finished: 'tournamentOver' };
    const button = (c: Command, label: Key, primary = false) =>
      h(primary ? 'button.primary' : 'button', { type: 'button', 'data-action': c, onclick: () => void this.act(c) }, t(label));
    const actions: HTMLElement[] = [];
    if (this.signedIn && f.status !== 'finished') {
      if (f.me.joined) {
        actions.push(button('withdraw', 'withdraw'));
        if (f.me.byeNext || f.me.zeroByeNext) actions.push(button('cancel-bye', 'cancelBye'));
        if (f.me.canAskBye) actions.push(button('bye', 'askBye'));
        if (f.me.canSitOut) actions.push(button('zero-bye', 'sitOut'));
      } else if (f.status === 'created' || f.format !== 'roundRobin') actions.push(button('join', 'joinTournament', true));
    }
    if (f.me.creator && f.status === 'created') actions.push(button('start', 'startNow'));
    if (f.me.creator && f.status === 'running') actions.push(f.paused ? button('resume', 'resumeTournament') : button('pause', 'pause'));
    const current = f.rounds.length ? f.rounds[f.rounds.length - 1] : null;
    const simul = f.format === 'simul';
    const tab: Tab = this.tab ?? (f.status === 'created' ? 'players' : simul ? 'boards' : 'standings');
    const tabs: [Tab, Key][] = f.format === 'arena'
      ? [['standings', 'standings'], ['pairings', 'arenaGames'], ['players', 'players']]
      : simul ? [['boards', 'simulBoards'], ['standings', 'simulResults'], ['players', 'players']]
        : [['standings', 'standings'], ['pairings', 'pairings'], ['crosstable', 'crosstable'], ['players', 'players']];
    const shownRound = f.rounds.find((r) => r.number === this.round) ?? current;
    let body: HTMLElement;
    if (tab !== 'boards' || !f.boards?.length) this.simulBoards.destroy();
    if (tab === 'boards') {
      body = f.boards?.length
        ? this.simulBoards.view(f, f.me.creator, this.navigate, (error) => {
          this.error = error;
          window.clearTimeout(this.poll);
          void this.load();
        })
        : h('p', {}, t('standingsAfterStart'));
    }
    else if (tab === 'standings') body = standingsTable(f);
    else if (tab === 'crosstable') body = crosstable(f, this.navigate);
    else if (tab === 'players') {
      const organiser = f.me.creator && (f.format === 'swiss' || f.format === 'roundRobin');
      body = h('div', {}, playersList(f), organiser ? this.detailsForm.update(f) : null);
    }
    else if (f.format === 'arena') body = arenaGamesTable(f, this.navigate);
    else body = shownRound
      ? h('div', {},
        h('label.field', {}, h('span', {}, t('round')), h('select', {
          onchange: (e: Event) => { this.round = Number((e.target as HTMLSelectElement).value); this.redraw(); },
        }, f.rounds.map((r) => h('option', { value: r.number, selected: r === shownRound }, t('roundN', { n: r.number }))))),
        pairingsTable(f, shownRound, this.navigate,
          f.me.creator && (f.format === 'swiss' || f.format === 'roundRobin') ? (board, result) => void this.correct(shownRound.number, board, result) : null))
      : h('p', {}, t('standingsAfterStart'));
    const entry = f.entry.kind === 'rating' ? t('entryRatingRange', { min: f.entry.min ?? '–', max: f.entry.max ?? '–' })
      : f.entry.kind === 'invite' ? t('byInvitation') : t('openEntry');
    const parts: (HTMLElement | null)[] = [
      h('h1', {}, f.name),
      h('p.tournament-facts', {}, formatText(f), ' · ', controlText(f.control), ' · ', t(f.rated ? 'rated' : 'casual'),
        f.variant === 'chess960' ? ` · ${t('chess960')}` : '', ' · ', entry, ' · ', t('createdBy', { name: f.createdBy })),
      f.description ? h('p.description', {}, f.description) : null,
      simul && f.status !== 'created' ? this.scoreLine(f) : null,
      h('p.tournament-status', {}, h('strong', {}, t(status[f.status])),
        f.status === 'created' ? ` · ${dateText(f.startsAt)}` : '',
        f.status === 'running' && f.format !== 'arena' ? ` · ${t('roundOf', { n: f.rounds.length, total: f.nbRounds })}` : '',
        f.endedEarly ? ` · ${f.endedEarly}` : ''),
      h('p.countdown', { role: 'timer', 'aria-live': 'off' }, this.clockText(f)),
      f.me.byeNext ? h('p.bye-next', { role: 'status' }, t('byeNextRound')) : null,
      f.me.zeroByeNext ? h('p.bye-next', { role: 'status' }, t('sitOutNextRound')) : null,
      f.me.game ? h('p.my-game', { role: 'status' }, t('yourGameIsOn'), ' ',
        h('a.primary', { href: `/g/${f.me.game}`, onclick: (e: Event) => { e.preventDefault(); this.navigate(`/g/${f.me.game}`); } }, t('openYourGame'))) : null,
      actions.length ? h('div.tournament-actions', {}, actions) : null,
      h('p.error', { role: 'alert' }, this.error),
      h('div.tabs', { role: 'tablist' }, tabs.map(([k, label]) => h('button', {
        type: 'button', role: 'tab', 'aria-selected': String(k === tab), 'data-tab': k,
        onclick: () => { this.tab = k; this.redraw(); },
      }, t(label)))),
      h('div.tab-body', { role: 'tabpanel' }, body),
      h('p.downloads', {},
        h('a', { href: `/api/tournament/${f.id}/trf`, download: '' }, t('downloadTrf')), ' · ',
        h('a', { href: `/api/tournament/${f.id}/games`, download: '' }, t('downloadGames')))];
    this.root.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
  }

  /** The host's score: won, drawn, lost, still playing. */
  private scoreLine(f: Full): HTMLElement {
    const s = simulScore(f);
    const host = f.players.find((p) => p.name === f.createdBy)?.name ?? f.createdBy;
    return h('p.simul-score', {}, t('simulScore', { host, wins: s.wins, draws: s.draws, losses: s.losses, playing: s.playing }));
  }

  destroy(): void {
    this.destroyed = true;
    this.simulBoards.destroy();
    window.clearTimeout(this.poll);
    window.clearInterval(this.ticker);
    this.root.remove();
  }
}
