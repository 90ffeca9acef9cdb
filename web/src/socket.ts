// The game socket: reconnects with backoff, pings to stay alive, and matches acks and errors
// to the commands that caused them. After a reconnect the server's first message is the full
// state, so nothing needs replaying.
import type { ErrorCode, ServerMessage } from './api';

export interface SocketEvents {
  message(m: ServerMessage): void;
  connected(up: boolean): void;
  /** The server has no such game: the socket stops trying. */
  missing(): void;
}

export class GameSocket {
  private ws: WebSocket | null = null;
  private nextId = 1;
  private retry = 0;
  private closed = false;
  private pinger = 0;
  private pending = new Map<number, (error: ErrorCode | null) => void>();

  constructor(private readonly game: string, private readonly events: SocketEvents) {
    this.open();
  }

  private opened = false;

  private open(): void {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${scheme}://${location.host}/api/games/${encodeURIComponent(this.game)}/socket`);
    this.ws = ws;
    ws.onopen = () => {
      this.opened = true;
      this.retry = 0;
      this.events.connected(true);
      this.pinger = window.setInterval(() => this.send({ t: 'ping' }), 25_000);
    };
    ws.onmessage = (e) => {
      let m: ServerMessage;
      try {
        m = JSON.parse(String(e.data)) as ServerMessage;
      } catch {
        return;
      }
      if ((m.t === 'ack' || m.t === 'error') && m.id !== undefined) {
        const done = this.pending.get(m.id);
        this.pending.delete(m.id);
        done?.(m.t === 'error' ? m.code : null);
      }
      this.events.message(m);
    };
    ws.onclose = () => {
      window.clearInterval(this.pinger);
      for (const done of this.pending.values()) done('connection-lost');
      this.pending.clear();
      if (this.closed) return;
      this.events.connected(false);
      const wait = Math.min(8000, 300 * 2 ** this.retry++);
      if (this.opened) {
        window.setTimeout(() => this.open(), wait);
        return;
      }
      // Never connected: a browser hides the refusal's status, so ask whether the game exists.
      void fetch(`/api/games/${encodeURIComponent(this.game)}/pgn`, { method: 'HEAD' })
        .then((r) => r.status === 404)
        .catch(() => false)
        .then((missing) => {
          if (this.closed) return;
          if (missing) this.events.missing();
          else window.setTimeout(() => this.open(), wait);
        });
    };
  }

  /** Sends a command; resolves with null once stored, or with the code of the refusal. */
  command(msg: Record<string, unknown>): Promise<ErrorCode | null> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      if (!this.send({ ...msg, id })) {
        resolve('connection-lost');
        return;
      }
      this.pending.set(id, resolve);
    });
  }

  send(msg: Record<string, unknown>): boolean {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  close(): void {
    this.closed = true;
    window.clearInterval(this.pinger);
    this.ws?.close();
  }
}
