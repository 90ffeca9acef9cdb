// Conditional premoves in correspondence: while the opponent thinks, "if they play X, I
// answer Y…". One box per game page, kept across redraws (what is typed stays); the lines
// are fetched again after every move, since a move uses them up.
import { h } from '../../dom';
import { t } from '../../i18n';
import { AccountError, send } from '../../api';
import type { RoundCtrl } from '../ctrl';

interface Line { uci: string[]; san: string[] }

/** `1. e4 e5 2. Nf3`: SAN with move numbers, counted from `plies` half-moves played. */
function numbered(san: string[], plies: number): string {
  return san.map((m, i) => {
    const ply = plies + i;
    const n = Math.floor(ply / 2) + 1;
    if (ply % 2 === 0) return `${n}. ${m}`;
    return i === 0 ? `${n}… ${m}` : m;
  }).join(' ');
}

export class ConditionalBox {
  private lines: Line[] = [];
  private editable = false;
  private fetchedAt = -1;
  private error = '';
  private readonly input = h('input', { name: 'conditional', autocomplete: 'off', spellcheck: 'false', placeholder: 'e4 e5 Nf3 Nc6' }) as HTMLInputElement;
  private readonly el = h('details.conditional', {});

  constructor(private readonly ctrl: RoundCtrl, private readonly redraw: () => void) {}

  /** The box for this state, or nothing outside correspondence play. */
  view(): HTMLElement | null {
    const s = this.ctrl.data;
    if (!s || s.status !== 'playing' || s.you.length !== 1 || !s.timeControl.startsWith('1/')) return null;
    if (s.version !== this.fetchedAt) {
      this.fetchedAt = s.version;
      void this.load();
    }
    if (!this.editable && !this.lines.length) return null;
    const plies = s.moves.length;
    const parts: (HTMLElement | null)[] = [
      h('summary', {}, t('conditionalTitle', { n: this.lines.length })),
      h('p.hint', {}, t('conditionalHint')),
      this.lines.length
        ? h('ul.conditional-lines', {}, this.lines.map((line, i) => h('li', {},
          h('span.line', {}, numbered(line.san, plies)), ' ',
          h('button', { type: 'button', 'data-action': 'remove-line', onclick: () => void this.save(this.lines.filter((_, j) => j !== i).map((l) => l.uci.join(' '))) },
            t('removeLine')))))
        : h('p', {}, t('conditionalNone')),
      this.editable
        ? h('form.conditional-add', { onsubmit: (e: Event) => { e.preventDefault(); void this.add(); } },
          h('label', {}, h('span', {}, t('conditionalAdd')), this.input),
          h('button', { type: 'submit', 'data-action': 'add-line' }, t('add')))
        : null,
      h('p.error', { role: 'alert' }, this.error)];
    this.el.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
    return this.el;
  }

  private async load(): Promise<void> {
    const r = await fetch(`/api/games/${this.ctrl.id}/conditional`).catch(() => null);
    if (!r?.ok) return;
    const body = (await r.json()) as { lines: Line[]; editable: boolean };
    this.lines = body.lines;
    this.editable = body.editable;
    this.redraw();
  }

  private async add(): Promise<void> {
    const text = this.input.value.trim();
    if (!text) return;
    if (await this.save([...this.lines.map((l) => l.uci.join(' ')), text])) this.input.value = '';
  }

  private async save(lines: string[]): Promise<boolean> {
    try {
      await send('POST', `/api/games/${this.ctrl.id}/conditional`, { lines });
      this.error = '';
      this.el.open = true;
      await this.load();
      return true;
    } catch (e) {
      this.error = e instanceof AccountError ? e.message : String(e);
      this.redraw();
      return false;
    }
  }
}
