// The analysis board (/analysis): a position from a FEN, a pasted or uploaded PGN, or a
// finished game (?game=id), its moves as a tree to walk and extend, and the engine's lines
// beside it (1–5 of them, with depth, evaluation and a bar), the best move as an arrow and,
// asked for, the opponent's threat. The chess is the server's (analysis socket).
import { Chessground } from 'chessground';
import type { Api } from 'chessground/api';
import type { DrawShape } from 'chessground/draw';
import type { Key } from 'chessground/types';
import type { ErrorCode } from '../api';
import { h } from '../dom';
import { errorText, t } from '../i18n';
import { fenTurn, pieceAt } from '../round/movelist';
import { evalText, whiteWin } from '../round/review';
import { AnalysisSocket, type Dests, type EngineLine, type Lines, RequestError } from './socket';
import { addMove, deleteAt, fenAt, moveLabel, movesTo, next, nodeAt, passTurn, promote, type Path, type Tree, type TreeNode } from './tree';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** The move glyphs of PGN's first NAGs: good, mistake, brilliant, blunder, interesting, dubious. */
const NAG_GLYPHS: Record<number, string> = { 1: '!', 2: '?', 3: '!!', 4: '??', 5: '!?', 6: '?!' };

export class AnalysisPage {
  private readonly root = h('section.analysis', {});
  private readonly bar = h('div.eval-bar', { 'aria-hidden': 'true' }, h('div.eval-white', {}));
  private readonly boardEl = h('div.board.cg-wrap', {});
  private readonly panel = h('div.analysis-panel', {});
  private readonly engineBox = h('section.engine', {});
  private readonly socket: AnalysisSocket;
  private cg: Api | null = null;
  private tree: Tree = { fen: START, chess960: false, children: [] };
  private path: Path = [];
  private dests: Dests = {};
  private check = false;
  private flipped = false;
  private engineOn = true;
  private multiPv = 3;
  private threat = false;
  private lines: Lines | null = null;
  private error: string | null = null;
  private loadText = '';
  private loaderOpen = false;
  private settle = 0;
  private readonly keys = (e: KeyboardEvent) => this.onKey(e);

  constructor(parent: HTMLElement) {
    parent.append(this.root);
    this.engineBox.setAttribute('aria-label', t('engine'));
    this.root.append(h('h2.sr-only', {}, t('analysisBoard')),
      h('div.analysis-board', {}, this.bar, h('div.board-wrap', {}, this.boardEl)), this.panel);
    this.socket = new AnalysisSocket((l) => { this.lines = l; this.drawEngine(); }, (code) => this.fail(code));
    document.addEventListener('keydown', this.keys);
    const q = new URLSearchParams(location.search);
    const game = q.get('game');
    if (game) void this.loadGame(game);
    else void this.setTree({ fen: q.get('fen') ?? START, chess960: q.get('chess960') === '1', children: [] });
  }

  redraw(): void {
    this.draw();
  }

  destroy(): void {
    window.clearTimeout(this.settle);
    document.removeEventListener('keydown', this.keys);
    this.socket.close();
    this.cg?.destroy();
    this.root.remove();
  }

  private fail(code: ErrorCode, detail = ''): void {
    this.error = `${t('errorPrefix')} ${errorText(code)}${detail ? ` (${detail})` : ''}`;
    this.draw();
  }

  private async loadGame(id: string): Promise<void> {
    const r = await fetch(`/api/games/${id}/pgn`).catch(() => null);
    if (!r?.ok) return this.fail('not-analysable');
    await this.loadPgn(await r.text());
  }

  private async loadPgn(pgn: string): Promise<void> {
    try {
      const imported = await this.socket.importPgn(pgn);
      this.error = null;
      await this.setTree({ fen: imported.fen, chess960: imported.chess960, comment: imported.comment, children: imported.children });
    } catch (e) {
      if (e instanceof RequestError) this.fail(e.code, e.message);
    }
  }

  private async setTree(tree: Tree): Promise<void> {
    try {
      await this.socket.position(tree.fen, tree.chess960);
    } catch (e) {
      if (e instanceof RequestError) return this.fail(e.code, e.message);
    }
    this.tree = tree;
    this.error = null;
    await this.goTo([]);
  }

  /** Looks at the position at `path` at once; its legal moves and the engine follow once the
   * player stops there (holding an arrow key sends nothing until it is let go). */
  private goTo(path: Path): Promise<void> {
    this.path = path;
    this.lines = null;
    this.socket.dropLines();
    this.dests = {};
    this.draw();
    window.clearTimeout(this.settle);
    return new Promise((done) => {
      this.settle = window.setTimeout(() => void this.settleAt(path).then(done), 120);
    });
  }

  private async settleAt(path: Path): Promise<void> {
    if (this.path !== path) return;
    try {
      const shown = await this.socket.position(fenAt(this.tree, path), this.tree.chess960);
      if (this.path !== path) return;
      this.dests = shown.dests;
      this.check = shown.check;
    } catch {
      this.dests = {};
    }
    this.analyse();
    // Only the board and the engine: a move list drawn again under a click would lose it.
    this.drawEngine();
  }

  private analyse(): void {
    if (!this.engineOn) {
      void this.socket.stop();
      return;
    }
    const fen = fenAt(this.tree, this.path);
    if (this.threat) {
      const passed = passTurn(fen, this.check);
      if (passed) void this.socket.analyse(passed, [], this.multiPv);
      return;
    }
    // From the start with the moves, so that the engine knows the repetitions.
    void this.socket.analyse(this.tree.fen, movesTo(this.tree, this.path), this.multiPv);
  }

  private async play(move: string): Promise<boolean> {
    const fen = fenAt(this.tree, this.path);
    try {
      const played = await this.socket.play(fen, move, this.tree.chess960);
      await this.goTo(addMove(this.tree, this.path, { uci: played.uci, san: played.san, fen: played.fen }));
      return true;
    } catch (e) {
      if (e instanceof RequestError) this.fail(e.code, e.message);
      this.draw();
      return false;
    }
  }

  private onKey(e: KeyboardEvent): void {
    const target = e.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return;
    if (e.key === 'ArrowLeft' && this.path.length) void this.goTo(this.path.slice(0, -1));
    else if (e.key === 'ArrowRight') {
      const n = next(this.tree, this.path);
      if (n) void this.goTo(n);
    } else if (e.key === 'Home') void this.goTo([]);
    else if (e.key === 'End') {
      let p = this.path;
      for (let n = next(this.tree, p); n; n = next(this.tree, n)) p = n;
      void this.goTo(p);
    } else if (e.key === 'f') {
      this.flipped = !this.flipped;
      this.draw();
    } else return;
    e.preventDefault();
  }

  private shapes(): DrawShape[] {
    const best = this.lines?.lines[0]?.pv[0];
    if (!best) return [];
    return [{ orig: best.slice(0, 2) as Key, dest: best.slice(2, 4) as Key, brush: this.threat ? 'red' : 'paleBlue' }];
  }

  private drawBoard(): void {
    const fen = fenAt(this.tree, this.path);
    const turn = fenTurn(fen);
    const node = nodeAt(this.tree, this.path);
    const last = node && 'uci' in node ? node.uci : undefined;
    const dests = new Map<Key, Key[]>(Object.entries(this.dests) as [Key, Key[]][]);
    const config = {
      fen: fen.split(' ')[0],
      orientation: this.flipped ? 'black' as const : 'white' as const,
      turnColor: turn,
      check: this.check,
      lastMove: last ? [last.slice(0, 2), last.slice(2, 4)] as Key[] : undefined,
      coordinates: true,
      movable: { free: false, color: turn, dests, showDests: true, rookCastle: !this.tree.chess960 },
      premovable: { enabled: false },
      drawable: { autoShapes: this.shapes() },
      events: { move: (orig: Key, dest: Key) => this.onBoardMove(orig, dest) },
    };
    if (this.cg) this.cg.set(config);
    else this.cg = Chessground(this.boardEl, config);
  }

  private onBoardMove(orig: Key, dest: Key): void {
    const fen = fenAt(this.tree, this.path);
    const piece = pieceAt(fen, orig);
    const promotes = piece?.toLowerCase() === 'p' && (dest[1] === '8' || dest[1] === '1');
    void this.play(`${orig}${dest}${promotes ? 'q' : ''}`);
  }

  /** The whole page again (a move looked at, played, loaded). */
  private draw(): void {
    const focusedName = document.activeElement instanceof HTMLElement && this.panel.contains(document.activeElement)
      ? document.activeElement.getAttribute('name') : null;
    this.panel.replaceChildren(
      this.engineBox, this.treeView(), this.controls(), this.loader(),
      ...(this.error ? [h('p.notice.error', { role: 'alert' }, this.error)] : []));
    this.drawEngine();
    if (focusedName) this.panel.querySelector<HTMLElement>(`[name="${focusedName}"]`)?.focus();
  }

  /** What the engine says (as it deepens, only this is drawn again): its lines, the bar and
   * the arrow. */
  private drawEngine(): void {
    this.drawBoard();
    const best = this.lines?.lines[0];
    const win = best && !this.threat ? whiteWin(best.mate !== undefined ? { mate: best.mate } : { cp: best.cp ?? 0 }) : 50;
    (this.bar.firstChild as HTMLElement).style.height = `${win}%`;
    this.bar.classList.toggle('flipped', this.flipped);
    const focusedName = document.activeElement instanceof HTMLElement && this.engineBox.contains(document.activeElement)
      ? document.activeElement.getAttribute('name') : null;
    this.engineBox.replaceChildren(...this.engineView());
    if (focusedName) this.engineBox.querySelector<HTMLElement>(`[name="${focusedName}"]`)?.focus();
  }

  private engineView(): HTMLElement[] {
    const on = h('input', { type: 'checkbox', name: 'engine', checked: this.engineOn, onchange: () => { this.engineOn = on.checked; this.lines = null; this.analyse(); this.draw(); } });
    const pv = h('select', { name: 'lines', 'aria-label': t('engineLines'), onchange: () => { this.multiPv = Number(pv.value); this.analyse(); } },
      ...[1, 2, 3, 4, 5].map((n) => h('option', { value: String(n), selected: n === this.multiPv }, String(n))));
    const threat = h('input', { type: 'checkbox', name: 'threat', checked: this.threat, onchange: () => { this.threat = threat.checked; this.lines = null; this.analyse(); this.draw(); } });
    const head = h('div.engine-head', {},
      h('label', {}, on, ' ', t('engine')), h('label', {}, t('engineLines'), ' ', pv), h('label', {}, threat, ' ', t('showThreat')),
      h('span.engine-depth', {}, this.lines ? t('depthN', { n: this.lines.depth }) : ''));
    const list = h('ol.engine-lines', { 'aria-label': t('engineLines'), 'aria-live': 'off' });
    if (this.engineOn) {
      const lines = this.lines?.lines ?? [];
      for (const line of lines) list.append(this.lineView(line));
      // Rows kept for lines still to come, so that the moves below stay put under the pointer.
      for (let i = lines.length; i < this.multiPv; i++) list.append(h('li.engine-pad', { 'aria-hidden': 'true' }, '\u00a0'));
    }
    return [head, list];
  }

  private lineView(line: EngineLine): HTMLElement {
    const verdict = line.mate !== undefined ? { mate: line.mate } : { cp: line.cp ?? 0 };
    const first = line.pv[0];
    return h('li.engine-line', {},
      h('strong.engine-eval', {}, evalText(verdict)), ' ',
      this.threat
        ? h('span', {}, line.san.join(' '))
        : h('button.link', { 'data-action': 'play-line', onclick: () => void this.play(first) }, line.san[0] ?? ''),
      this.threat ? '' : ` ${line.san.slice(1).join(' ')}`);
  }

  /** The moves: the main line with its variations in brackets, each move a button. */
  private treeView(): HTMLElement {
    const box = h('nav.tree', { 'aria-label': t('moves') });
    if (this.tree.comment) box.append(h('span.comment', {}, this.tree.comment));
    box.append(...this.lineNodes(this.tree.children, [], 1, true, 0));
    return box;
  }

  /** A line from `children` (the first being child `index` of the node at `path`), its
   * alternatives in brackets after each move. */
  private lineNodes(children: TreeNode[], path: Path, ply: number, numbered: boolean, index: number): (HTMLElement | string)[] {
    const out: (HTMLElement | string)[] = [];
    let nodes = children;
    let at = path;
    let n = ply;
    let first = true;
    let number = numbered;
    while (nodes.length) {
      const [main, ...alternatives] = nodes;
      const here = [...at, first ? index : 0];
      out.push(this.moveButton(main, here, n, number), ' ');
      number = false;
      if (main.comment) {
        out.push(h('span.comment', {}, main.comment), ' ');
        number = true;
      }
      alternatives.forEach((alt, i) => {
        const inner = this.lineNodes([alt], at, n, true, i + 1);
        if (inner[inner.length - 1] === ' ') inner.pop();
        out.push(h('span.variation', {}, '(', ...inner, ')'), ' ');
        number = true;
      });
      nodes = main.children;
      at = here;
      first = false;
      n++;
    }
    return out;
  }

  private moveButton(node: TreeNode, path: Path, ply: number, forceNumber: boolean): HTMLElement {
    const label = moveLabel(this.tree.fen, ply);
    const number = label.white ? `${label.number}. ` : forceNumber ? `${label.number}… ` : '';
    const current = path.length === this.path.length && path.every((v, i) => v === this.path[i]);
    return h('button.tree-move', {
      class: `tree-move${current ? ' current' : ''}`, 'aria-current': current ? 'true' : undefined,
      'data-path': path.join('.'), onclick: () => void this.goTo(path),
    }, `${number}${node.san}${(node.nags ?? []).map((n) => NAG_GLYPHS[n] ?? '').join('')}`);
  }

  private controls(): HTMLElement {
    const input = h('input.move-input', {
      name: 'move', type: 'text', placeholder: t('moveInput'), 'aria-label': t('moveInputLabel'), autocomplete: 'off', spellcheck: false,
    });
    const fen = fenAt(this.tree, this.path);
    return h('div.analysis-controls', {},
      h('div.nav', {},
        h('button', { 'aria-label': t('navStart'), title: t('navStart'), onclick: () => void this.goTo([]) }, '⇤'),
        h('button', { 'aria-label': t('navBack'), title: t('navBack'), onclick: () => this.path.length && void this.goTo(this.path.slice(0, -1)) }, '←'),
        h('button', { 'aria-label': t('navForward'), title: t('navForward'), onclick: () => { const n = next(this.tree, this.path); if (n) void this.goTo(n); } }, '→'),
        h('button', { 'data-action': 'flip', onclick: () => { this.flipped = !this.flipped; this.draw(); } }, t('flip')),
        h('button', { 'data-action': 'promote', disabled: !this.path.length, onclick: () => void this.goTo(promote(this.tree, this.path)) }, t('promoteVariation')),
        h('button', { 'data-action': 'delete', disabled: !this.path.length, onclick: () => void this.goTo(deleteAt(this.tree, this.path)) }, t('deleteMove'))),
      h('form.move-form', {
        onsubmit: (e: Event) => {
          e.preventDefault();
          const text = input.value.trim();
          if (text) void this.play(text).then((ok) => { if (ok) input.value = ''; });
        },
      }, input),
      h('label.field', {}, h('span', {}, t('fenOfPosition')), h('input.fen', { readOnly: true, value: fen, name: 'fen', onfocus: (e: Event) => (e.target as HTMLInputElement).select() })));
  }

  private loader(): HTMLElement {
    const text = h('textarea', { name: 'load', rows: 4, 'aria-label': t('pasteFenOrPgn'), placeholder: t('pasteFenOrPgn'), value: this.loadText,
      oninput: () => { this.loadText = text.value; } });
    const chess960 = h('input', { type: 'checkbox', name: 'chess960', checked: this.tree.chess960 });
    const file = h('input', { type: 'file', name: 'file', accept: '.pgn,application/x-chess-pgn,text/plain', 'aria-label': t('uploadPgn'),
      onchange: async () => {
        const f = file.files?.[0];
        if (f) await this.loadPgn(await f.text());
      } });
    const load = async () => {
      const value = text.value.trim();
      if (!value) return;
      // A FEN is one line of six fields; anything else is read as PGN.
      if (/^[1-8pnbrqkPNBRQK/]+ [wb] /.test(value) && !value.includes('\n')) {
        await this.setTree({ fen: value, chess960: chess960.checked, children: [] });
      } else await this.loadPgn(value);
    };
    const details = h('details.loader', { open: this.loaderOpen, ontoggle: () => { this.loaderOpen = details.open; } },
      h('summary', {}, t('loadPosition')),
      text,
      h('div.loader-actions', {},
        h('button.primary', { 'data-action': 'load', onclick: () => void load() }, t('load')),
        h('label', {}, chess960, ' ', t('chess960')),
        h('label', {}, t('uploadPgn'), ' ', file),
        h('button', { 'data-action': 'new-board', onclick: () => void this.setTree({ fen: START, chess960: false, children: [] }) }, t('startPosition'))));
    return details;
  }
}
