// The account page's vacation box: correspondence days off (30 a year). While away, every
// correspondence clock of the player stands; back early gives the days not begun back.
import { h } from './dom';
import { lang, t } from './i18n';
import { AccountError, send } from './api';

interface Vacation { daysPerYear: number; daysLeft: number; awayUntil: number | null }

export class VacationBox {
  readonly el = h('div.vacation', {});
  private state: Vacation | null = null;
  private error = '';

  constructor() {
    void this.load();
  }

  private async load(): Promise<void> {
    const r = await fetch('/api/account/vacation').catch(() => null);
    if (!r?.ok) return;
    this.state = (await r.json()) as Vacation;
    this.draw();
  }

  private async call(path: string, body: unknown): Promise<void> {
    try {
      this.state = (await send('POST', path, body)) as Vacation;
      this.error = '';
    } catch (e) {
      this.error = e instanceof AccountError ? e.message : String(e);
    }
    this.draw();
  }

  private draw(): void {
    const v = this.state;
    if (!v) return;
    const parts: HTMLElement[] = [h('h2', {}, t('vacationTitle')), h('p.hint', {}, t('vacationHint'))];
    if (v.awayUntil) {
      const date = new Date(v.awayUntil).toLocaleString(lang() === 'zh' ? 'zh-CN' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' });
      parts.push(h('p.away', { role: 'status' }, t('awayUntil', { date })),
        h('button', { type: 'button', 'data-action': 'vacation-end', onclick: () => void this.call('/api/account/vacation/end', {}) }, t('backFromVacation')));
    } else {
      const days = h('input', { type: 'number', name: 'days', min: 1, max: Math.max(1, v.daysLeft), value: Math.min(7, v.daysLeft), required: true }) as HTMLInputElement;
      const form = h('form.account-form.vacation-form', {
        onsubmit: (e: Event) => { e.preventDefault(); void this.call('/api/account/vacation', { days: Number(days.value) }); },
      }, h('label.field', {}, h('span', {}, t('vacationDays')), days),
      h('button.primary', { type: 'submit', disabled: v.daysLeft < 1 }, t('goOnVacation')));
      parts.push(form);
    }
    parts.push(h('p.days-left', {}, t('vacationDaysLeft', { n: v.daysLeft, of: v.daysPerYear })),
      h('p.error', { role: 'alert' }, this.error));
    this.el.replaceChildren(...parts);
  }
}
