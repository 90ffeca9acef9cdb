// The game page: puts the controller, the board and the panel's views together. Redraws are
// batched: however many states and clicks arrive in one frame, the page is drawn once.
import { h } from '../dom';
import { t } from '../i18n';
import type { Prefs } from '../prefs';
import { speak } from '../speech';
import { Board } from './board';
import { RoundCtrl } from './ctrl';
import { parseCommand } from './reader';
import { tickClocks } from './view/clock';
import { panel } from './view/main';

export class GamePage {
  private readonly ctrl: RoundCtrl;
  private readonly board: Board;
  private readonly boardEl = h('div.board.cg-wrap', {});
  private readonly panelEl = h('div.panel', {});
  private readonly live = h('div.sr-only', { 'aria-live': 'polite', role: 'status' });
  private readonly promotion = h('div.promotion', { hidden: true, role: 'dialog' });
  private readonly keyHandler = (e: KeyboardEvent) => this.onKey(e);
  private ticker = 0;
  private frame = 0;
  private announced: object | null = null;
  private readAloud: object | null = null;
  private spoken: object | null = null;

  /** `prefsChanged`: a preference was changed on this page (remember it everywhere). */
  constructor(root: HTMLElement, id: string, prefs: Prefs, navigate: (p: string) => void, prefsChanged: () => void) {
    root.append(h('section.game', {}, h('div.board-wrap', {}, this.boardEl, this.promotion), this.panelEl, this.live));
    this.ctrl = new RoundCtrl(id, prefs, navigate, () => this.redraw(), prefsChanged);
    this.board = new Board(this.boardEl, this.promotion, this.ctrl, (text) => this.ctrl.tell(text), (key) => {
      const cmd = parseCommand(key);
      if (!cmd) return false;
      this.ctrl.answer(cmd);
      return true;
    });
    this.ticker = window.setInterval(() => tickClocks(this.ctrl, this.panelEl), 100);
    document.addEventListener('keydown', this.keyHandler);
    this.draw();
  }

  destroy(): void {
    window.cancelAnimationFrame(this.frame);
    window.clearInterval(this.ticker);
    document.removeEventListener('keydown', this.keyHandler);
    this.ctrl.destroy();
    this.board.destroy();
  }

  /** Asks for a redraw at the next frame (the language or sound changed, or the state). */
  redraw(): void {
    if (this.frame) return;
    this.frame = window.requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  private draw(): void {
    const focused = document.activeElement;
    const list = this.panelEl.querySelector('ol.moves');
    const atEnd = !list || list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
    const restore = this.focusKeeper(focused);
    this.panelEl.replaceChildren(...panel(this.ctrl));
    this.panelEl.classList.toggle('over', this.ctrl.data?.status === 'over');
    document.title = t('appName');
    restore();
    const moves = this.panelEl.querySelector('ol.moves');
    if (moves && atEnd) moves.scrollTop = moves.scrollHeight;
    this.announce();
    this.board.sync();
    tickClocks(this.ctrl, this.panelEl);
  }

  /** What gives a keyboard user their place back once the panel is drawn again: the move box
   * with its caret, the same action's button or the one a step asks for next (Resign →
   * Confirm), the keyboard board once a held move is confirmed or cancelled, and Confirm
   * when a move made there is held. */
  private focusKeeper(focused: Element | null): () => void {
    if (focused instanceof HTMLInputElement && focused.classList.contains('move-input')) {
      const caret = focused.selectionStart;
      return () => {
        const input = this.panelEl.querySelector<HTMLInputElement>('input.move-input');
        input?.focus();
        if (input && caret !== null) input.setSelectionRange(caret, caret);
      };
    }
    const action = focused instanceof HTMLElement && this.panelEl.contains(focused) ? focused.dataset.action : undefined;
    if (action === 'confirm-move' || action === 'cancel-move') return () => this.board.keyboard.refocus();
    if (action) {
      return () => (this.panelEl.querySelector<HTMLElement>(`[data-action="${action}"]`)
        ?? this.panelEl.querySelector<HTMLElement>('[data-autofocus]'))?.focus();
    }
    const onBoard = focused instanceof HTMLElement && !!focused.closest('.kb-board');
    return () => {
      if (this.ctrl.pending && onBoard) this.panelEl.querySelector<HTMLElement>('[data-action="confirm-move"]')?.focus();
    };
  }

  /** Says what is new: a move or a readout in the live region, words through speech. */
  private announce(): void {
    const a = this.ctrl.announcement;
    if (a && a !== this.announced) {
      this.announced = a;
      this.live.textContent = t('announceMove', { side: t(a.side), san: a.san });
    }
    const r = this.ctrl.readout;
    if (r && r !== this.readAloud) {
      this.readAloud = r;
      this.live.textContent = r.text;
    }
    const words = this.ctrl.spoken;
    if (words && words !== this.spoken) {
      this.spoken = words;
      speak(words.text, words.lang);
    }
  }

  private onKey(e: KeyboardEvent): void {
    const target = e.target;
    if (!this.ctrl.data || target instanceof HTMLInputElement || target instanceof HTMLSelectElement) return;
    // The keyboard board has its own keys.
    if (target instanceof HTMLElement && target.closest('.kb-board')) return;
    if (e.key === 'ArrowLeft') this.ctrl.step(-1);
    else if (e.key === 'ArrowRight') this.ctrl.step(1);
    else if (e.key === 'Home') this.ctrl.view(0);
    else if (e.key === 'End') this.ctrl.view(null);
    else if (e.key === 'f') this.ctrl.flip();
    else return;
    e.preventDefault();
  }
}
