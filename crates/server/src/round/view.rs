//! What each viewer may see: the state sent after a change, and the event sent after a move.

use vizier_arbiter::{Game, GameResult, Ply, StartPosition, TimeControl};
use vizier_rules::{Color, UciCastling};

use super::Round;
use crate::hub::now_ms;
use crate::protocol::{
    ClaimsView, ClockView, MoveEvent, MoveView, PlayerView, ResultView, Side, State, Status,
};
use crate::record::Seat;

/// The move list as clients see it: each move with the position after it, replayed from the
/// start. Only whole states need it (a move event carries its one move), so a game keeps no
/// copy of it between them.
fn move_views(game: &Game) -> Vec<MoveView> {
    let mut pos = game.start_position().clone();
    game.plies()
        .iter()
        .map(|p| {
            if !p.irregular {
                pos.play_unchecked(p.mv);
            }
            ply_view(p, pos.fen())
        })
        .collect()
}

fn ply_view(p: &Ply, fen: String) -> MoveView {
    MoveView {
        san: p.san.clone(),
        uci: p.uci.clone(),
        clock: p.clock_ms,
        fen,
        offer: p.draw_offer,
    }
}

impl Round {
    fn player_view(&self, color: Color) -> PlayerView {
        match &self.seats[color.index()] {
            Seat::Open => PlayerView::Open,
            Seat::Computer { level } => PlayerView::Computer {
                level: *level,
                elo: crate::levels::elo(*level),
            },
            Seat::Player(id) => PlayerView::Human {
                online: self
                    .connections
                    .iter()
                    .any(|c| c.player.as_deref() == Some(id)),
            },
        }
    }

    /// The game as `player` may see it: legal moves and claims only for the side they have to
    /// move, the invite only to its creator.
    pub(super) fn state_for(&self, player: Option<&str>) -> State {
        let mut state = self.state_but_moves(player);
        if let Some(game) = &self.game {
            state.moves = move_views(game);
        }
        state
    }

    /// The last move as `player` may see it, with what changed.
    pub(super) fn move_event_for(&self, player: Option<&str>) -> Option<MoveEvent> {
        let game = self.game.as_ref()?;
        // The position after an irregular move that stood is the current one too.
        let last = ply_view(game.plies().last()?, game.position().fen());
        Some(MoveEvent::new(self.state_but_moves(player), last))
    }

    /// [`Round::state_for`] with an empty move list: the list is most of a state's cost.
    fn state_but_moves(&self, player: Option<&str>) -> State {
        let now = now_ms();
        let mine = self.sides_of(player);
        let you: Vec<Side> = mine.iter().map(|&c| c.into()).collect();
        let start = &self.start;
        let chess960 = self
            .game
            .as_ref()
            .map_or(start.is_chess960(), Game::is_chess960)
            || matches!(self.setup.start, StartPosition::Chess960(_));
        let mut state = State {
            game: self.id.clone(),
            version: self.version,
            kind: self.kind.into(),
            status: Status::Waiting,
            chess960,
            time_control: self.setup.control.to_pgn(),
            initial_fen: start.fen(),
            fen: start.fen(),
            turn: start.turn().into(),
            check: start.is_check(),
            moves: Vec::new(),
            you,
            white: self.player_view(Color::White),
            black: self.player_view(Color::Black),
            clock: None,
            server_time: now,
            dests: Default::default(),
            draw_offer: None,
            takeback: None,
            takebacks: self.setup.options.takebacks,
            claims: ClaimsView::default(),
            can_abort: false,
            result: None,
            invite: None,
            rematch: self.rematch.map(Side::from),
        };
        let Some(game) = &self.game else {
            if !mine.is_empty() {
                state.invite = self.invite.clone();
            }
            return state;
        };
        let pos = game.position();
        state.fen = pos.fen();
        state.turn = pos.turn().into();
        state.check = pos.is_check();
        let clock = game.clock();
        if clock.is_timed() {
            let running = clock.running();
            let has_counts = matches!(&game.setup().control,
                TimeControl::Clock(periods) if periods.iter().any(|p| p.moves.is_some()));
            let moves_to_go = has_counts.then(|| Color::ALL.map(|c| clock.moves_to_go(c)));
            state.clock = Some(ClockView {
                white: clock.remaining(Color::White, now).unwrap_or(0),
                black: clock.remaining(Color::Black, now).unwrap_or(0),
                running: running.map(Side::from),
                delay_left: clock.delay_left(now),
                control: game.setup().control.to_pgn(),
                moves_to_go,
            });
        }
        match game.outcome() {
            Some(o) => {
                state.status = Status::Over;
                state.result = Some(ResultView {
                    pgn: o.result.pgn().into(),
                    score: o.result.display().into(),
                    reason: o.reason.code(),
                    article: o.reason.article().map(str::to_string),
                    winner: match o.result {
                        GameResult::WhiteWins => Some(Side::White),
                        GameResult::BlackWins => Some(Side::Black),
                        _ => None,
                    },
                });
            }
            None => {
                state.status = Status::Playing;
                state.draw_offer = game.draw_offer().map(Side::from);
                state.takeback = game.takeback_request().map(Side::from);
                state.can_abort = game.can_abort();
                if mine.contains(&pos.turn()) {
                    let history = game.history();
                    state.claims = ClaimsView {
                        threefold: history.can_claim_threefold(),
                        fifty: history.can_claim_fifty(),
                    };
                    let chess960 = game.is_chess960();
                    for m in pos.legal_moves().iter() {
                        let uci = pos.uci(*m, UciCastling::for_chess960(chess960));
                        state
                            .dests
                            .entry(uci[0..2].to_string())
                            .or_default()
                            .push(uci[2..4].to_string());
                    }
                    for d in state.dests.values_mut() {
                        d.dedup();
                    }
                }
            }
        }
        state
    }
}
