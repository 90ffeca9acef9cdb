// The server's JSON API and the game socket's message types (protocol v1, docs/protocol.md).

import type { BoardPrefs } from './prefs';

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
  rated?: boolean;
  /** On one device: play over the board, with or without an arbiter watching. */
  arbiter?: 'supervised' | 'unsupervised';
  /** On one device: three kings moved into check lose. */
  kingFouls?: boolean;
  /** Against the computer: it moves within a few seconds, whatever the clock. */
  humanPace?: boolean;
  /** The start position, as FEN; such a game is never rated. */
  fen?: string;
}

export interface MoveView {
  san: string;
  uci: string;
  clock?: number;
  fen: string;
  offer?: boolean;
  /** Blindfold: the sides that looked at the board after this move. */
  peeks?: Side[];
}

export type PlayerView =
  | { kind: 'human'; online: boolean; name?: string; title?: string; rating?: number; provisional?: boolean; ratingDiff?: number }
  | { kind: 'computer'; level: number; elo?: number }
  | { kind: 'open' };

export interface ClockView {
  white: number;
  black: number;
  running: Side | null;
  delayLeft: number;
  control: string;
  movesToGo?: [number | null, number | null];
  /** Correspondence: until when each side is on vacation (their clock stands). */
  away?: [number | null, number | null];
}

/** How a game ended: the codes of the server's table of endings (`vizier_rules::ENDINGS`). */
export type ReasonCode =
  | 'checkmate' | 'resignation' | 'stalemate' | 'dead-position' | 'agreement'
  | 'threefold-repetition' | 'fifty-move-rule' | 'fivefold-repetition' | 'seventy-five-move-rule'
  | 'time-forfeit' | 'time-forfeit-no-mate' | 'illegal-moves' | 'illegal-moves-no-mate' | 'illegal-position' | 'fouls' | 'invalid-sealed-move'
  | 'aborted' | 'first-move-timeout' | 'abandoned' | 'left';

/** Why the server refused a message (`protocol::ErrorCode`), and the client's own
 * `connection-lost` for a command whose answer never came. */
export type ErrorCode =
  | 'bad-message' | 'rate-limited' | 'spectator' | 'not-your-side' | 'not-started' | 'game-over'
  | 'game-not-over' | 'bad-invite' | 'own-invite' | 'no-player-cookie' | 'storage'
  | 'not-your-turn' | 'illegal-move' | 'no-offer' | 'already-offered' | 'too-early-for-draw'
  | 'offers-not-yet' | 'offer-cooldown' | 'not-your-claim' | 'too-late-to-abort' | 'no-abort' | 'no-berserk' | 'no-vacation' | 'takebacks-off'
  | 'no-takeback' | 'adjourned' | 'not-adjourned' | 'nothing-to-claim' | 'no-such-piece' | 'king-capture' | 'no-adjournment'
  | 'bad-request' | 'too-many-games' | 'too-many-new-games' | 'bad-username' | 'bad-password'
  | 'username-taken' | 'wrong-credentials' | 'too-many-tries' | 'not-signed-in' | 'foreign-origin'
  | 'rated-needs-account' | 'no-such-seek' | 'opponent-not-gone' | 'analysis-busy' | 'too-many-analyses'
  | 'not-analysable' | 'no-move-yet' | 'connection-lost';

/** A position's verdict in a review, from White's side. */
export type Verdict = { cp: number } | { mate: number } | { over: Side | null };

export type Judgement = 'inaccuracy' | 'mistake' | 'blunder';

/** A finished game's review (`GET /api/games/{id}/review`). */
export interface Review {
  nodes: number;
  positions: { verdict: Verdict; best?: string; bestSan?: string }[];
  moves: { winBefore: number; winAfter: number; accuracy: number; judgement?: Judgement }[];
  accuracy: { white: number | null; black: number | null };
}

/** Where a game's review stands. */
export type ReviewStatus =
  | { status: 'none' }
  | { status: 'running'; done: number; total: number }
  | { status: 'done'; review: Review }
  | { status: 'error'; code: ErrorCode };

/** Asks for (`start`) or about a game's review. */
export async function fetchReview(game: string, start: boolean): Promise<ReviewStatus> {
  const r = await fetch(`/api/games/${game}/review`, {
    method: start ? 'POST' : 'GET',
    headers: { accept: 'application/json' },
  }).catch(() => null);
  if (!r) return { status: 'error', code: 'connection-lost' };
  const body = (await r.json().catch(() => ({}))) as ReviewStatus & { code?: ErrorCode };
  if (r.status === 404 && !start) return { status: 'none' };
  if (!r.ok) return { status: 'error', code: body.code ?? 'storage' };
  return body;
}

export interface ResultView {
  pgn: string;
  score: string;
  reason: ReasonCode;
  article?: string;
  winner?: Side;
  /** A dead position: the plies after which it was dead. */
  deadAfter?: number;
}

/** A named opening: ECO code, English name, and a Chinese one where the server gives it. */
export interface OpeningView {
  eco: string;
  name: string;
  zh?: string;
}

export interface GameState {
  /** The opening the moves reached so far, if named. */
  opening?: OpeningView;
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
  /** Whether the game changes its players' ratings. */
  rated: boolean;
  /** Sides whose player left, and when the opponent may claim the game (server ms). */
  gone?: { side: Side; claimableAt: number }[];
  claims: { threefold: boolean; fifty: boolean };
  canAbort: boolean;
  /** Arena: the sides that may still berserk, and those that did. */
  canBerserk?: Side[];
  berserked?: Side[];
  result?: ResultView;
  invite?: string;
  rematch?: Side;
  /** Over the board: any move can be made, and the Laws judge it. */
  arbiter?: 'supervised' | 'unsupervised';
  kingFouls?: number;
  /** Illegal moves and fouls, [white, black]; the side whose illegal move may be claimed now. */
  infractions?: { illegal: [number, number]; fouls: [number, number]; claimable?: Side };
  canAdjourn?: boolean;
  adjournment?: { phase: 'asked' | 'sealing' | 'sealed'; by: Side; resumeAsked?: Side };
}

/** The parts of the state a move can change: a move event carries them all (absent = cleared). */
const LIVE = [
  'status', 'fen', 'turn', 'check', 'clock', 'serverTime', 'dests',
  'drawOffer', 'takeback', 'claims', 'canAbort', 'canBerserk', 'berserked', 'infractions', 'canAdjourn', 'adjournment', 'result', 'opening',
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

/** The signed-in account (`GET /api/account`). */
export interface Me {
  id: string;
  username: string;
  /** `BOT` for a bot account. */
  title?: string;
  createdAt: number;
  prefs: { lang?: 'en' | 'zh'; sound?: boolean; board?: BoardPrefs };
  perfs?: Record<string, { rating: number; rd: number; prov?: boolean; games: number }>;
}

/** The signed-in account, or null for a guest. */
export async function me(): Promise<Me | null> {
  const r = await fetch('/api/account').catch(() => null);
  return r?.ok ? ((await r.json()) as Me) : null;
}

/** A refused account request. */
export class AccountError extends Error {
  constructor(readonly code: ErrorCode, message: string) {
    super(message);
  }
}

export async function send(method: string, path: string, body?: unknown): Promise<unknown> {
  const r = await fetch(path, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).catch(() => null);
  if (!r) throw new AccountError('connection-lost', 'no answer');
  const answer = (await r.json().catch(() => ({}))) as { code?: ErrorCode; error?: string };
  if (!r.ok) throw new AccountError(answer.code ?? 'storage', answer.error ?? `HTTP ${r.status}`);
  return answer;
}

export async function savePreferences(prefs: Me['prefs']): Promise<void> {
  await send('POST', '/api/account/preferences', prefs);
}

export async function changePassword(current: string, next: string): Promise<void> {
  await send('POST', '/api/account/password', { current, new: next });
}

export async function closeAccount(password: string): Promise<void> {
  await send('POST', '/api/account/close', { password });
}

export interface SessionView {
  id: string;
  createdAt: number;
  seenAt?: number;
  address: string;
  agent: string;
  current: boolean;
}

export async function sessions(): Promise<SessionView[]> {
  return (await send('GET', '/api/account/sessions')) as SessionView[];
}

export interface TokenView {
  id: string;
  description: string;
  /** Comma-separated. */
  scopes: string;
  createdAt: number;
  usedAt?: number | null;
}

/** The scopes a token may have, as lichess names them. */
export const SCOPES = ['bot:play', 'board:play', 'challenge:read', 'challenge:write', 'preference:read', 'tournament:write'] as const;

export async function tokens(): Promise<TokenView[]> {
  return (await send('GET', '/api/account/tokens')) as TokenView[];
}

/** A new token: the token itself, shown this once. */
export async function createToken(description: string, scopes: string[]): Promise<string> {
  return ((await send('POST', '/api/account/tokens', { description, scopes })) as { token: string }).token;
}

export async function revokeToken(id: string): Promise<void> {
  await send('DELETE', `/api/account/tokens/${encodeURIComponent(id)}`);
}

export async function endSession(id: string): Promise<void> {
  const r = await fetch(`/api/account/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' }).catch(() => null);
  if (!r?.ok) throw new AccountError(r ? 'storage' : 'connection-lost', `HTTP ${r?.status ?? 0}`);
}
