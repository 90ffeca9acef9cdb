// The tournament API's shapes (`/api/tournament`, `/api/tournament/{id}`) and its calls.
import { send } from '../api';

export type Status = 'created' | 'running' | 'finished';

export interface Summary {
  id: string;
  name: string;
  format: 'swiss' | 'roundRobin' | 'arena' | 'simul';
  double: boolean;
  nbRounds: number;
  round: number;
  control: string;
  speed: string | null;
  rated: boolean;
  variant: 'standard' | 'chess960';
  startsAt: number;
  status: Status;
  paused: boolean;
  nbPlayers: number;
  createdBy: string;
  /** An arena's length, and when it ends. */
  minutes: number | null;
  endsAt: number | null;
}

export interface Player {
  number: number;
  name: string;
  rating: number;
  provisional: boolean;
  withdrawn: boolean;
  points: number;
  byeNext: boolean;
  zeroByeNext: boolean;
  /** What the organiser entered for title norms. */
  title: FideTitle | null;
  federation: string | null;
  sex: 'm' | 'w' | null;
}

export type FideTitle = 'GM' | 'IM' | 'FM' | 'CM' | 'WGM' | 'WIM' | 'WFM' | 'WCM';
export const FIDE_TITLES: FideTitle[] = ['GM', 'IM', 'FM', 'CM', 'WGM', 'WIM', 'WFM', 'WCM'];

/** One player's title norm results (FIDE B.01), every norm above their title. */
export interface PlayerNorms {
  number: number;
  games: number;
  best: string | null;
  checks: { title: string; average: number; performance: number; missing: string | null }[];
}

export interface Board {
  white: number;
  black: number;
  game: string | null;
  /** `1-0`, `½-½`, `0-1`, `+/-`, `-/+`, `-/-`; null while played. */
  result: string | null;
  /** The organiser set the result as arbiter. */
  corrected?: boolean;
}

export interface Round {
  number: number;
  startedAt: number;
  boards: Board[];
  byes: { player: number; kind: 'pairing' | 'absent' | 'half' }[];
}

export interface StandingRow {
  rank: number;
  number: number;
  name: string;
  rating: number;
  points: string;
  tiebreaks: (string | null)[];
  withdrawn: boolean;
  /** An arena's sheet: each game's points, double while on fire. */
  sheet?: { points: number; fire: boolean; berserk: boolean; outcome: number }[];
  /** The tournament performance rating over the games played. */
  performance?: number;
  fire?: boolean;
}

export interface Cell {
  opponent: number | null;
  colour: 'w' | 'b' | null;
  /** `1 = 0 + - U Z`, or `*` while played. */
  result: string;
  game: string | null;
}

/** A simul's board as the host sees it (live fields while it is played). */
export interface SimulBoard {
  board: number;
  opponent: number;
  hostColour: 'white' | 'black';
  game: string | null;
  result: string | null;
  fen?: string;
  hostToMove?: boolean;
  lastMove?: string;
  secondsLeft?: number;
  /** The host's legal moves, from square to squares, when it is the host's turn. */
  dests?: Record<string, string[]>;
}

export interface Full extends Summary {
  description: string;
  entry: { kind: 'open' } | { kind: 'rating'; min: number | null; max: number | null } | { kind: 'invite'; names: string[] };
  forfeitAfter: number;
  roundBreak: number;
  nextRoundAt: number | null;
  endedEarly: string | null;
  players: Player[];
  rounds: Round[];
  /** An arena's games, the latest first. */
  arenaGames: { white: number; black: number; game: string; result: string | null }[];
  standings: { tiebreaks: string[]; afterRound: number; rows: StandingRow[] } | null;
  crosstable: (Cell | null)[][] | null;
  /** A round robin's or Swiss's norm results, once the organiser entered titles. */
  norms: PlayerNorms[] | null;
  me: {
    number: number | null; joined: boolean; game: string | null; creator: boolean;
    byeNext: boolean; canAskBye: boolean; zeroByeNext: boolean; canSitOut: boolean;
  };
  /** A simul's boards, those waiting for the host first. */
  boards?: SimulBoard[];
}

export interface Lists {
  created: Summary[];
  started: Summary[];
  finished: Summary[];
}

export async function list(): Promise<Lists> {
  return (await send('GET', '/api/tournament')) as Lists;
}

export async function get(id: string): Promise<Full | null> {
  const r = await fetch(`/api/tournament/${encodeURIComponent(id)}`).catch(() => null);
  return r?.ok ? ((await r.json()) as Full) : null;
}

export async function create(settings: Record<string, string | number | boolean>): Promise<Full> {
  return (await send('POST', '/api/tournament', settings)) as Full;
}

export type Command = 'join' | 'withdraw' | 'pause' | 'resume' | 'start' | 'bye' | 'zero-bye' | 'cancel-bye';

export async function command(id: string, c: Command): Promise<void> {
  await send('POST', `/api/tournament/${encodeURIComponent(id)}/${c}`, {});
}

/** The organiser enters a player's title, federation and sex; empty clears. */
export async function setDetails(id: string, number: number, details: { title: string; federation: string; sex: string }): Promise<void> {
  await send('POST', `/api/tournament/${encodeURIComponent(id)}/player/${number}`, details);
}

/** The organiser, as arbiter, sets a finished board's result. */
export async function correctResult(id: string, round: number, board: number, result: string): Promise<void> {
  await send('POST', `/api/tournament/${encodeURIComponent(id)}/result`, { round, board, result });
}
