// The analysis board's socket (/api/analysis/socket): the board's chess as requests that get
// one answer each, and the engine's lines as they deepen. Reopens itself when it drops.
import type { ErrorCode } from '../api';
import type { TreeNode } from './tree';

export type Dests = Record<string, string[]>;

/** A position as the server shows it. */
export interface Shown {
  fen: string;
  dests: Dests;
  check: boolean;
}

export interface EngineLine {
  depth: number;
  cp?: number;
  mate?: number;
  pv: string[];
  san: string[];
}

export interface Lines {
  id: number;
  depth: number;
  done: boolean;
  lines: EngineLine[];
}

export interface Imported {
  fen: string;
  chess960: boolean;
  tags: [string, string][];
  comment?: string;
  children: TreeNode[];
}

export class RequestError extends Error {
  constructor(readonly code: ErrorCode, message: string) {
    super(message);
  }
}

type Waiting = { ok: (v: Record<string, unknown>) => void; fail: (e: RequestError) => void };

export class AnalysisSocket {
  private ws: WebSocket | null = null;
  private next = 1;
  private readonly waiting = new Map<number, Waiting>();
  private closed = false;
  /** Requests waiting for a socket to open: the next one that does, whichever it is. */
  private opened: (() => void)[] = [];
  /** The analysis whose lines are wanted; older ones' are dropped. */
  private current = 0;

  constructor(private readonly onLines: (l: Lines) => void, private readonly onError: (code: ErrorCode) => void) {
    this.open();
  }

  private open(): void {
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/analysis/socket`;
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.addEventListener('open', () => {
      const waiting = this.opened;
      this.opened = [];
      for (const go of waiting) go();
    }, { once: true });
    ws.addEventListener('message', (e) => this.receive(String(e.data)));
    ws.addEventListener('close', () => {
      for (const w of this.waiting.values()) w.fail(new RequestError('connection-lost', 'the socket closed'));
      this.waiting.clear();
      if (!this.closed) window.setTimeout(() => this.open(), 1000);
    });
  }

  close(): void {
    this.closed = true;
    this.ws?.close();
  }

  private receive(text: string): void {
    let m: Record<string, unknown>;
    try {
      m = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return;
    }
    const id = typeof m.id === 'number' ? m.id : -1;
    if (m.t === 'lines') {
      if (id === this.current) this.onLines(m as unknown as Lines);
      return;
    }
    const w = this.waiting.get(id);
    if (w) {
      this.waiting.delete(id);
      if (m.t === 'error') w.fail(new RequestError(m.code as ErrorCode, String(m.message)));
      else w.ok(m);
    } else if (m.t === 'error' && id === this.current) {
      this.onError(m.code as ErrorCode);
    }
  }

  /** Resolves once a socket is open: at once, or when the next one opens (a socket that
   * closes before opening is replaced, and its waiters wait for the replacement). */
  private whenOpen(): Promise<void> {
    if (this.ws?.readyState === WebSocket.OPEN) return Promise.resolve();
    return new Promise((ok) => this.opened.push(ok));
  }

  private async send(msg: Record<string, unknown>): Promise<number> {
    await this.whenOpen();
    const id = this.next++;
    this.ws?.send(JSON.stringify({ ...msg, id }));
    return id;
  }

  private async ask<T>(msg: Record<string, unknown>): Promise<T> {
    await this.whenOpen();
    const id = this.next++;
    return new Promise<T>((ok, fail) => {
      // An answer that never comes (a message refused unread, as when sent too fast) fails.
      const timer = window.setTimeout(() => {
        this.waiting.delete(id);
        fail(new RequestError('connection-lost', 'no answer'));
      }, 5000);
      this.waiting.set(id, {
        ok: (v) => { window.clearTimeout(timer); ok(v as T); },
        fail: (e) => { window.clearTimeout(timer); fail(e); },
      });
      this.ws?.send(JSON.stringify({ ...msg, id }));
    });
  }

  position(fen: string, chess960: boolean): Promise<Shown> {
    return this.ask({ t: 'position', fen, chess960 });
  }

  play(fen: string, move: string, chess960: boolean): Promise<Shown & { uci: string; san: string }> {
    return this.ask({ t: 'play', fen, move, chess960 });
  }

  importPgn(pgn: string): Promise<Imported> {
    return this.ask({ t: 'import', pgn });
  }

  /** Starts analysing (the lines come to `onLines`); replaces the analysis running. */
  async analyse(fen: string, moves: string[], lines: number): Promise<void> {
    this.current = -1;
    this.current = await this.send({ t: 'analyse', fen, moves, lines });
  }

  /** Drops the running analysis's lines from now on (it goes on until replaced or stopped). */
  dropLines(): void {
    this.current = -1;
  }

  async stop(): Promise<void> {
    this.current = -1;
    await this.send({ t: 'stop' });
  }
}
