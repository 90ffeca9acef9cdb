// /tournament: the tournaments starting soon, being played and finished, and — signed in —
// the form that creates one (Swiss or round robin, time control, rounds, start, entry).
import { h } from '../dom';
import { lang, t, type Key } from '../i18n';
import { AccountError } from '../api';
import { create, list, type Lists, type Summary } from './api';

/** "Swiss · 7 rounds", "Round robin", "Double round robin". */
export function formatText(s: Pick<Summary, 'format' | 'double' | 'nbRounds' | 'minutes'>): string {
  if (s.format === 'swiss') return t('swissRounds', { n: s.nbRounds });
  if (s.format === 'arena') return t('arenaMinutes', { n: s.minutes ?? 0 });
  if (s.format === 'simul') return t('simul');
  return t(s.double ? 'doubleRoundRobin' : 'roundRobin');
}

/** The time control as the lobby shows it: `5+3`. */
export function controlText(control: string): string {
  if (control === '-') return t('noClock');
  // Correspondence: `1/259200`, days a move.
  if (control.startsWith('1/')) {
    const days = Number(control.slice(2)) / 86400;
    return days === 1 ? t('oneDay') : t('nDays', { n: days });
  }
  const [base, inc] = control.split('+');
  const minutes = Number(base) / 60;
  return `${Number.isInteger(minutes) ? minutes : minutes.toFixed(1)}+${inc ?? 0}`;
}

export function dateText(ms: number): string {
  return new Date(ms).toLocaleString(lang() === 'zh' ? 'zh-CN' : 'en', { dateStyle: 'medium', timeStyle: 'short' });
}

const CONTROLS: [number, number][] = [[60, 0], [180, 2], [300, 3], [600, 5], [900, 10], [1800, 20], [5400, 30]];

export class TournamentsPage {
  private readonly root = h('section.tournaments', {});
  private lists: Lists | null = null;
  private error = '';

  constructor(parent: HTMLElement, private readonly navigate: (p: string) => void, private readonly me: string | null) {
    parent.append(this.root);
    this.redraw();
    void this.load();
  }

  private async load(): Promise<void> {
    this.lists = await list().catch(() => ({ created: [], started: [], finished: [] }));
    this.redraw();
  }

  private link(s: Summary): HTMLElement {
    const path = `/tournament/${s.id}`;
    return h('li', {},
      h('a', { href: path, onclick: (e: Event) => { e.preventDefault(); this.navigate(path); } }, s.name),
      ' · ', formatText(s), ' · ', controlText(s.control), ' · ', t(s.rated ? 'rated' : 'casual'),
      s.variant === 'chess960' ? ` · ${t('chess960')}` : '',
      ' · ', t('nPlayers', { n: s.nbPlayers }),
      s.status === 'created' ? ` · ${dateText(s.startsAt)}` : '',
      s.status === 'running' && s.format !== 'arena' ? ` · ${t('roundOf', { n: s.round, total: s.nbRounds })}` : '');
  }

  private section(title: Key, items: Summary[]): HTMLElement[] {
    return [h('h2', {}, t(title)),
      items.length ? h('ul.tournament-list', {}, items.map((s) => this.link(s))) : h('p.empty', {}, t('noTournaments'))];
  }

  redraw(): void {
    document.title = `${t('tournaments')} · ${t('appName')}`;
    const l = this.lists;
    this.root.replaceChildren(
      h('h1', {}, t('tournaments')),
      this.me ? this.form() : h('p', {}, t('signInToCreateTournament')),
      ...(l ? [...this.section('tournamentsRunning', l.started), ...this.section('startingSoon', l.created), ...this.section('finishedTournaments', l.finished)]
        : [h('p', {}, t('loading'))]));
  }

  private form(): HTMLElement {
    const field = (label: Key, input: HTMLElement) => h('label.field', {}, h('span', {}, t(label)), input);
    const name = h('input', { name: 'name', required: true, minLength: 2, maxLength: 60, value: t('defaultTournamentName') });
    const format = h('select', { name: 'format' },
      h('option', { value: 'swiss' }, t('swiss')),
      h('option', { value: 'arena' }, t('arena')),
      h('option', { value: 'simul' }, t('simul')),
      h('option', { value: 'roundRobin' }, t('roundRobin')),
      h('option', { value: 'doubleRoundRobin' }, t('doubleRoundRobin')));
    const rounds = h('input', { name: 'nbRounds', type: 'number', min: 1, max: 20, value: 5 });
    const roundsField = field('rounds', rounds);
    const minutes = h('input', { name: 'minutes', type: 'number', min: 5, max: 720, value: 60 });
    const streaks = h('input', { type: 'checkbox', name: 'streaks', checked: true });
    const minutesField = field('arenaLength', minutes);
    const streaksField = h('label.check', {}, streaks, ' ', t('arenaStreaks'));
    const berserk = h('input', { type: 'checkbox', name: 'berserk', checked: true });
    const berserkField = h('label.check', {}, berserk, ' ', t('arenaBerserk'));
    const shown = () => {
      roundsField.hidden = format.value !== 'swiss';
      minutesField.hidden = streaksField.hidden = berserkField.hidden = format.value !== 'arena';
      hostColourField.hidden = format.value !== 'simul';
      // Simuls are casual unless asked; a game without a clock never rated.
      if (format.value === 'simul') rated.checked = false;
    };
    format.addEventListener('change', shown);
    const control = h('select', { name: 'control' },
      CONTROLS.map(([l, i]) => h('option', { value: `${l}+${i}`, selected: l === 300 }, controlText(`${l}+${i}`))),
      [1, 3, 7, 14].map((d) => h('option', { value: `1/${d * 86400}` }, `${t('class.correspondence')} · ${controlText(`1/${d * 86400}`)}`)),
      h('option', { value: '-' }, t('noClockSimul')));
    const hostColour = h('select', { name: 'hostColour' },
      (['white', 'black', 'random'] as const).map((c) => h('option', { value: c }, t(c))));
    const hostColourField = field('hostColour', hostColour);
    const rated = h('input', { type: 'checkbox', name: 'rated', checked: true });
    const chess960 = h('input', { type: 'checkbox', name: 'chess960' });
    const startsIn = h('input', { name: 'startsIn', type: 'number', min: 0, max: 86400, value: 10 });
    const minRating = h('input', { name: 'minRating', type: 'number', min: 0, max: 4000 });
    const maxRating = h('input', { name: 'maxRating', type: 'number', min: 0, max: 4000 });
    const invited = h('input', { name: 'invited', placeholder: t('invitedHint') });
    const description = h('textarea', { name: 'description', maxLength: 2000, rows: 2 });
    const forfeit = h('input', { name: 'forfeitAfter', type: 'number', min: 10, max: 600, value: 120 });
    const pause = h('input', { name: 'roundBreak', type: 'number', min: 0, max: 3600, value: 30 });
    const error = h('p.error', { role: 'alert' }, this.error);
    const submit = async (e: Event) => {
      e.preventDefault();
      const settings: Record<string, string | number | boolean> = {
        name: name.value, format: format.value, nbRounds: Number(rounds.value), control: control.value,
        rated: rated.checked, variant: chess960.checked ? 'chess960' : 'standard',
        startsIn: Number(startsIn.value), description: description.value,
        forfeitAfter: Number(forfeit.value), roundBreak: Number(pause.value),
        minutes: Number(minutes.value), streaks: streaks.checked, berserk: berserk.checked, hostColour: hostColour.value,
      };
      if (minRating.value) settings.minRating = Number(minRating.value);
      if (maxRating.value) settings.maxRating = Number(maxRating.value);
      if (invited.value.trim()) settings.invited = invited.value;
      try {
        const made = await create(settings);
        this.navigate(`/tournament/${made.id}`);
      } catch (err) {
        this.error = err instanceof AccountError ? err.message : String(err);
        error.textContent = this.error;
      }
    };
    shown();
    return h('details.new-tournament', {},
      h('summary', {}, t('newTournament')),
      h('form', { onsubmit: submit },
        field('tournamentName', name), field('tournamentFormat', format), roundsField, minutesField, streaksField, berserkField,
        hostColourField,
        field('timeControl', control),
        h('label.check', {}, rated, ' ', t('rated')),
        h('label.check', {}, chess960, ' ', t('chess960')),
        field('startsInMinutes', startsIn),
        field('minRating', minRating), field('maxRating', maxRating),
        field('invitedOnly', invited),
        field('forfeitAfter', forfeit), field('roundBreak', pause),
        field('description', description),
        error,
        h('button.primary', { type: 'submit' }, t('createTournament'))));
  }

  destroy(): void {
    this.root.remove();
  }
}
