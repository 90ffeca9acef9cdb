//! What each viewer of a game may see, as the socket's messages: the whole state, or the last
//! move and what changed with it. Rendered from the round's snapshot by each socket, for its
//! own viewer at the time `now` (the clocks as they stand then): legal moves and claims only for
//! the side they have to move, the invite only to its creator.

use vizier_arbiter::{Adjournment, GameResult, Millis, Mode, Outcome, Ply, TimeControl};
use vizier_play::ids::PlayerId;
use vizier_rules::{Color, UciCastling};
use vizier_store::record::Seat;

use crate::protocol::{
    AdjournPhase, AdjournmentView, ClaimsView, ClockView, GoneView, InfractionsView, Live,
    MoveEvent, MoveView, OpeningView, PlayerView, ResultView, ServerMessage, State, Status,
};
use vizier_play::round::{GameEvent, Snapshot, Update, leave_wait_ms};

/// What `player` is sent of `update`: the new game of an agreed rematch; the last move alone
/// after a single move; else the whole state.
pub fn message_for(update: &Update, player: Option<&PlayerId>, now: Millis) -> ServerMessage {
    if let [GameEvent::Rematch { game }] = update.events.as_slice() {
        return ServerMessage::Rematch { game: game.clone() };
    }
    let round = &update.round;
    if round.moves.is_none()
        && let Some(event) = move_event_for(round, player, now)
    {
        return ServerMessage::Move(Box::new(event));
    }
    ServerMessage::State(Box::new(state_for(round, player, now)))
}

/// The game as `player` may see it.
pub fn state_for(round: &Snapshot, player: Option<&PlayerId>, now: Millis) -> State {
    let mine = round.sides_of(player);
    let table = &round.table;
    State {
        game: table.id.clone(),
        version: round.version,
        kind: table.kind,
        chess960: table.chess960,
        time_control: table.setup.control.to_pgn(),
        initial_fen: table.start.fen(),
        moves: (round.moves.iter().flat_map(|m| m.iter()))
            .map(|m| ply_view(&m.ply, m.fen.clone()))
            .collect(),
        you: mine.clone(),
        white: player_view(round, Color::White, now),
        black: player_view(round, Color::Black, now),
        takebacks: table.setup.options.takebacks,
        arbiter: match table.setup.mode {
            Mode::Online => None,
            Mode::OverTheBoard { supervised: true } => Some("supervised"),
            Mode::OverTheBoard { supervised: false } => Some("unsupervised"),
        },
        king_fouls: table.setup.options.king_into_check_fouls,
        rated: table.rated,
        gone: gone_views(round),
        invite: if round.board.is_none() && !mine.is_empty() {
            round.invite.clone()
        } else {
            None
        },
        rematch: round.rematch,
        live: live_for(round, &mine, now),
    }
}

/// The last move as `player` may see it, with what changed.
pub fn move_event_for(
    round: &Snapshot,
    player: Option<&PlayerId>,
    now: Millis,
) -> Option<MoveEvent> {
    let last = round.board.as_ref()?.last.as_ref()?;
    // The position after an irregular move that stood is the current one too.
    let live = live_for(round, &round.sides_of(player), now);
    let mv = ply_view(last, live.fen.clone());
    Some(MoveEvent {
        game: round.table.id.clone(),
        version: round.version,
        mv,
        live,
    })
}

fn result_view(o: &Outcome, dead_after: Option<usize>) -> ResultView {
    ResultView {
        pgn: o.result.pgn().into(),
        score: o.result.display().into(),
        reason: o.reason.code(),
        article: o.reason.article().map(str::to_string),
        winner: match o.result {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            _ => None,
        },
        dead_after: dead_after.filter(|_| o.reason == vizier_rules::Reason::DeadPosition),
    }
}

fn ply_view(p: &Ply, fen: String) -> MoveView {
    MoveView {
        san: p.san.to_string(),
        uci: p.uci.to_string(),
        clock: p.clock_ms,
        fen,
        offer: p.draw_offer,
        peeks: p.peeks.to_vec(),
    }
}

fn player_view(round: &Snapshot, color: Color, now: Millis) -> PlayerView {
    match &round.seats[color.index()] {
        Seat::Open => PlayerView::Open,
        Seat::Computer { level, .. } => PlayerView::Computer {
            level: *level,
            elo: crate::levels::elo(*level),
        },
        Seat::Player(_) => {
            let players = &round.players;
            let shown = players.shown_rating(color, now);
            let change = players.changes[color.index()].as_ref();
            PlayerView::Human {
                online: round.online[color.index()],
                name: players.names[color.index()].clone(),
                title: players.titles[color.index()].clone(),
                rating: shown.map(|(r, _)| r),
                provisional: shown.is_some_and(|(_, p)| p),
                rating_diff: change.map(|c| c.shown_diff() as i32),
            }
        }
    }
}

/// The gone sides as the state shows them.
fn gone_views(round: &Snapshot) -> Vec<GoneView> {
    let Some(wait) = leave_wait_ms(&round.table.setup.control) else {
        return Vec::new();
    };
    if round.board.as_ref().is_none_or(|b| b.outcome.is_some()) {
        return Vec::new();
    }
    Color::ALL
        .into_iter()
        .filter_map(|c| {
            round.gone[c.index()].map(|since: Millis| GoneView {
                side: c,
                claimable_at: since + wait,
            })
        })
        .collect()
}

/// The adjournment as the state shows it.
fn adjournment_view(round: &Snapshot) -> Option<AdjournmentView> {
    let view = |phase, by: Color| AdjournmentView {
        phase,
        by,
        resume_asked: None,
    };
    match round.board.as_ref()?.adjournment {
        Some(Adjournment::Sealing(by)) => Some(view(AdjournPhase::Sealing, by)),
        Some(Adjournment::Sealed(by)) => Some(AdjournmentView {
            resume_asked: round.resume_asked,
            ..view(AdjournPhase::Sealed, by)
        }),
        None => round.adjourn_asked.map(|by| view(AdjournPhase::Asked, by)),
    }
}

/// What a move can change, for a viewer playing `mine`.
fn live_for(round: &Snapshot, mine: &[Color], now: Millis) -> Live {
    // What a position shows before the game's own parts are added.
    let at = |pos: &vizier_rules::Position, status| Live {
        status,
        fen: pos.fen(),
        turn: pos.turn(),
        check: pos.is_check(),
        clock: None,
        server_time: now,
        dests: Default::default(),
        draw_offer: None,
        takeback: None,
        claims: ClaimsView::default(),
        can_abort: false,
        can_berserk: Vec::new(),
        berserked: Vec::new(),
        infractions: None,
        can_adjourn: false,
        adjournment: None,
        result: None,
        opening: None,
    };
    let table = &round.table;
    let Some(board) = &round.board else {
        let Some(reason) = round.invite_ended else {
            return at(&table.start, Status::Waiting);
        };
        let expired = Outcome {
            result: GameResult::NoResult,
            reason,
            at: 0,
        };
        return Live {
            result: Some(result_view(&expired, None)),
            ..at(&table.start, Status::Over)
        };
    };
    let pos = &board.position;
    let clock = &board.clock;
    let control = &table.setup.control;
    let clock = clock.is_timed().then(|| {
        let has_counts = matches!(control,
            TimeControl::Clock(periods) if periods.iter().any(|p| p.moves.is_some()));
        ClockView {
            white: clock.remaining(Color::White, now).unwrap_or(0),
            black: clock.remaining(Color::Black, now).unwrap_or(0),
            running: clock.running(),
            delay_left: clock.delay_left(now),
            control: control.to_pgn(),
            moves_to_go: has_counts.then(|| Color::ALL.map(|c| clock.moves_to_go(c))),
            away: Some(Color::ALL.map(|c| clock.away_until(c, now)))
                .filter(|a| a.iter().any(Option::is_some)),
        }
    });
    let mut live = Live {
        clock,
        opening: round.opening.map(|o| OpeningView {
            eco: o.eco,
            name: o.name,
            zh: vizier_play::opening::chinese(o.name),
        }),
        ..at(pos, Status::Playing)
    };
    live.berserked = (Color::ALL.into_iter())
        .filter(|c| board.clock.berserked(*c))
        .collect();
    if let Some(o) = &board.outcome {
        live.status = Status::Over;
        live.result = Some(result_view(o, board.dead_after));
        return live;
    }
    live.draw_offer = board.draw_offer;
    live.takeback = board.takeback;
    live.can_abort = board.can_abort;
    live.can_berserk = (Color::ALL.into_iter())
        .filter(|c| board.can_berserk[c.index()])
        .collect();
    let setup = &table.setup;
    if setup.mode != Mode::Online || setup.options.king_into_check_fouls.is_some() {
        live.infractions = Some(InfractionsView {
            illegal: board.infractions.map(|(illegal, _)| illegal),
            fouls: board.infractions.map(|(_, fouls)| fouls),
            claimable: board.claimable_illegal,
        });
    }
    live.can_adjourn = round.may_adjourn;
    live.adjournment = adjournment_view(round);
    let sealed = matches!(board.adjournment, Some(Adjournment::Sealed(_)));
    if mine.contains(&pos.turn()) && !sealed {
        live.claims = ClaimsView {
            threefold: board.claims.threefold,
            fifty: board.claims.fifty,
        };
        let castling = UciCastling::for_chess960(round.table.chess960);
        live.dests = crate::analysis::board::dests(pos, castling);
    }
    live
}
