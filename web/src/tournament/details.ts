// The organiser's form for a player's FIDE title, federation and sex (what the TRF carries
// and the title norms read). One element kept across the page's redraws, so that polling
// never wipes what is being typed.
import { h } from '../dom';
import { t } from '../i18n';
import { AccountError } from '../api';
import { FIDE_TITLES, setDetails, type Full } from './api';

export class DetailsForm {
  private readonly player = h('select', { name: 'player', onchange: () => this.fill() }) as HTMLSelectElement;
  private readonly title = h('select', { name: 'title' },
    h('option', { value: '' }, t('noTitle')), FIDE_TITLES.map((v) => h('option', { value: v }, v))) as HTMLSelectElement;
  private readonly federation = h('input', { name: 'federation', maxlength: 3, size: 4, autocomplete: 'off', placeholder: 'GER' }) as HTMLInputElement;
  private readonly sex = h('select', { name: 'sex' },
    h('option', { value: '' }, '–'), h('option', { value: 'm' }, t('sexMan')), h('option', { value: 'w' }, t('sexWoman'))) as HTMLSelectElement;
  private readonly note = h('p.note', { role: 'status' });
  private full: Full | null = null;
  private names = '';
  readonly el: HTMLElement;

  constructor(private readonly saved: () => void) {
    const field = (label: string, control: HTMLElement) => h('label.field', {}, h('span', {}, label), control);
    this.el = h('details.player-details', {},
      h('summary', {}, t('playerDetails')),
      h('p', {}, t('playerDetailsHint')),
      h('form', { onsubmit: (e: Event) => { e.preventDefault(); void this.save(); } },
        field(t('player'), this.player), field(t('fideTitle'), this.title),
        field(t('federation'), this.federation), field(t('sex'), this.sex),
        h('button.primary', { type: 'submit' }, t('saveDetails'))),
      this.note);
  }

  /** Brings the player list up to date; the fields keep what is typed. */
  update(full: Full): HTMLElement {
    this.full = full;
    const names = full.players.map((p) => p.name).join('\n');
    if (names !== this.names) {
      const chosen = this.player.value;
      this.names = names;
      this.player.replaceChildren(...full.players.map((p) => h('option', { value: p.number }, `${p.number}. ${p.name}`)));
      if (chosen) this.player.value = chosen;
      this.fill();
    }
    return this.el;
  }

  /** The chosen player's details as stored. */
  private fill(): void {
    const p = this.full?.players.find((q) => String(q.number) === this.player.value);
    this.title.value = p?.title ?? '';
    this.federation.value = p?.federation ?? '';
    this.sex.value = p?.sex ?? '';
  }

  private async save(): Promise<void> {
    if (!this.full) return;
    try {
      await setDetails(this.full.id, Number(this.player.value), {
        title: this.title.value, federation: this.federation.value.trim(), sex: this.sex.value,
      });
      this.note.textContent = t('detailsSaved');
      this.saved();
    } catch (e) {
      this.note.textContent = e instanceof AccountError ? e.message : String(e);
    }
  }
}
