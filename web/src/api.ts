// The server's JSON API and the game socket's message types (protocol v1, docs/protocol.md).

export type Side = 'white' | 'black';

export interface LevelInfo {
  level: number;
  elo?: number;
}

export interface NewGameRequest {
  kind: 'computer' | 'friend' | 'local';
  level?: number;
  color?: Side | 'random';
  timeControl?: string;
  chess960?: boolean;
  takebacks?: boolean;
}

export interface MoveView {
  san: string;
  uci: string;
  clock?: number;
  fen: string;
  offer?: boolean;
}

export type PlayerView =
  | { kind: 'human'; online: boolean }
  | { kind: 'computer'; level: number; elo?: number }
  | { kind: 'open' };

export interface ClockView {
  white: number;
  black: number;
  running: Side | null;
  delayLeft: number;
  control: string;
  movesToGo?: [number | null, number | null];
}

/** How a game ended: the codes of the server's table of endings (`vizier_rules::ENDINGS`). */
export type ReasonCode =
  | 'checkmate' | 'resignation' | 'stalemate' | 'dead-position' | 'agreement'
  | 'threefold-repetition' | 'fifty-move-rule' | 'fivefold-repetition' | 'seventy-five-move-rule'
  | 'time-forfeit' | 'illegal-moves' | 'illegal-position' | 'fouls' | 'invalid-sealed-move'
  | 'aborted' | 'first-move-timeout' | 'abandoned';

/** Why the server refused a message (`protocol::ErrorCode`), and the client's own
 * `connection-lost` for a command whose answer never came. */
export type ErrorCode =
  | 'bad-message' | 'rate-limited' | 'spectator' | 'not-your-side' | 'not-started' | 'game-over'
  | 'game-not-over' | 'bad-invite' | 'own-invite' | 'no-player-cookie' | 'storage'
  | 'not-your-turn' | 'illegal-move' | 'no-offer' | 'already-offered' | 'too-early-for-draw'
  | 'offers-not-yet' | 'offer-cooldown' | 'not-your-claim' | 'too-late-to-abort' | 'takebacks-off'
  | 'no-takeback' | 'adjourned' | 'not-adjourned' | 'nothing-to-claim' | 'no-such-piece'
  | 'bad-request' | 'too-many-games' | 'too-many-new-games' | 'connection-lost';

export interface ResultView {
  pgn: string;
  score: string;
  reason: ReasonCode;
  article?: string;
  winner?: Side;
}

export interface GameState {
  game: string;
  version: number;
  kind: 'computer' | 'friend' | 'local';
  status: 'waiting' | 'playing' | 'over';
  chess960: boolean;
  /** The time control in PGN form ("-": none), also before the game begins. */
  timeControl: string;
  initialFen: string;
  fen: string;
  turn: Side;
  check: boolean;
  moves: MoveView[];
  you: Side[];
  white: PlayerView;
  black: PlayerView;
  clock?: ClockView;
  serverTime: number;
  dests: Record<string, string[]>;
  drawOffer?: Side;
  takeback?: Side;
  takebacks: boolean;
  claims: { threefold: boolean; fifty: boolean };
  canAbort: boolean;
  result?: ResultView;
  invite?: string;
  rematch?: Side;
}

/** The parts of the state a move can change: a move event carries them all (absent = cleared). */
const LIVE = [
  'status', 'fen', 'turn', 'check', 'clock', 'serverTime', 'dests',
  'drawOffer', 'takeback', 'claims', 'canAbort', 'result',
] as const;

/** One move, and every part of the state a move changes; the rest of the state stands. */
export type MoveEvent = Pick<GameState, 'game' | 'version' | (typeof LIVE)[number]> & { move: MoveView };

/** The state after `e`, when `s` is the state just before it; null when it is not. */
export function applyMove(s: GameState, e: MoveEvent): GameState | null {
  if (s.game !== e.game || e.version !== s.version + 1) return null;
  const next: GameState = { ...s, version: e.version, moves: [...s.moves, e.move] };
  for (const key of LIVE) (next as unknown as Record<string, unknown>)[key] = e[key];
  return next;
}

export type ServerMessage =
  | ({ v: 1; t: 'state' } & GameState)
  | ({ v: 1; t: 'move' } & MoveEvent)
  | { v: 1; t: 'ack'; id?: number }
  | { v: 1; t: 'error'; id?: number; code: ErrorCode; message: string }
  | { v: 1; t: 'rematch'; game: string }
  | { v: 1; t: 'pong'; id?: number };

export async function levels(): Promise<LevelInfo[]> {
  const r = await fetch('/api/levels');
  return r.ok ? ((await r.json()) as LevelInfo[]) : [];
}

export async function createGame(req: NewGameRequest): Promise<string> {
  const r = await fetch('/api/games', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(req),
  });
  const body = (await r.json().catch(() => ({}))) as { id?: string; code?: ErrorCode; error?: string };
  if (!r.ok || !body.id) throw new CreateError(body.code ?? 'storage', body.error ?? `HTTP ${r.status}`);
  return body.id;
}

/** A refused new game: the code to translate, and the server's English for the details. */
export class CreateError extends Error {
  constructor(readonly code: ErrorCode, message: string) {
    super(message);
  }
}
