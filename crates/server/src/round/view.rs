//! What each viewer may see: the state sent after a change, and the event sent after a move.

use vizier_arbiter::{
    Adjournment, Game, GameResult, Mode, Outcome, Ply, StartPosition, TimeControl,
};
use vizier_rules::{Color, UciCastling};

use super::Round;
use crate::hub::now_ms;
use crate::protocol::{
    ClaimsView, ClockView, InfractionsView, Live, MoveEvent, MoveView, PlayerView, ResultView,
    Side, State, Status,
};
use vizier_store::record::Seat;

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
            } else if let Some(after) = irregular_after(&pos, p) {
                pos = after;
            }
            ply_view(p, pos.fen())
        })
        .collect()
}

/// The position after an illegal move that stood, from its note on the scoresheet ("e2-e5",
/// "O-O").
fn irregular_after(pos: &vizier_rules::Position, p: &Ply) -> Option<vizier_rules::Position> {
    match p.uci.as_str() {
        "O-O" => pos.play_irregular_castling(true),
        "O-O-O" => pos.play_irregular_castling(false),
        _ => pos.play_irregular(p.mv.from(), p.mv.to(), None),
    }
}

fn result_view(o: &Outcome) -> ResultView {
    ResultView {
        pgn: o.result.pgn().into(),
        score: o.result.display().into(),
        reason: o.reason.code(),
        article: o.reason.article().map(str::to_string),
        winner: match o.result {
            GameResult::WhiteWins => Some(Side::White),
            GameResult::BlackWins => Some(Side::Black),
            _ => None,
        },
    }
}

fn ply_view(p: &Ply, fen: String) -> MoveView {
    MoveView {
        san: p.san.to_string(),
        uci: p.uci.to_string(),
        clock: p.clock_ms,
        fen,
        offer: p.draw_offer,
        peeks: p.peeks.iter().map(|&c| c.into()).collect(),
    }
}

impl Round {
    fn player_view(&self, color: Color) -> PlayerView {
        match &self.seats[color.index()] {
            Seat::Open => PlayerView::Open,
            Seat::Computer { level, .. } => PlayerView::Computer {
                level: *level,
                elo: crate::levels::elo(*level),
            },
            Seat::Player(id) => {
                let shown = self.shown_rating(color);
                let change = self.players.changes[color.index()].as_ref();
                PlayerView::Human {
                    online: self
                        .connections
                        .iter()
                        .any(|c| c.player.as_deref() == Some(id)),
                    name: self.players.names[color.index()].clone(),
                    rating: shown.map(|(r, _)| r),
                    provisional: shown.is_some_and(|(_, p)| p),
                    rating_diff: change
                        .map(|c| (c.glicko_after.round() - c.glicko_before.round()) as i32),
                }
            }
        }
    }

    /// The game as `player` may see it: legal moves and claims only for the side they have to
    /// move, the invite only to its creator.
    pub(super) fn state_for(&self, player: Option<&str>) -> State {
        let mine = self.sides_of(player);
        let start = &self.start;
        let chess960 = self
            .game
            .as_ref()
            .map_or(start.is_chess960(), Game::is_chess960)
            || matches!(self.setup.start, StartPosition::Chess960(_));
        State {
            game: self.id.clone(),
            version: self.version,
            kind: self.kind,
            chess960,
            time_control: self.setup.control.to_pgn(),
            initial_fen: start.fen(),
            moves: self.game.as_ref().map(move_views).unwrap_or_default(),
            you: mine.iter().map(|&c| c.into()).collect(),
            white: self.player_view(Color::White),
            black: self.player_view(Color::Black),
            takebacks: self.setup.options.takebacks,
            arbiter: match self.setup.mode {
                Mode::Online => None,
                Mode::OverTheBoard { supervised: true } => Some("supervised"),
                Mode::OverTheBoard { supervised: false } => Some("unsupervised"),
            },
            king_fouls: self.setup.options.king_into_check_fouls,
            rated: self.rated,
            gone: self.gone_views(),
            invite: if self.game.is_none() && !mine.is_empty() {
                self.invite.clone()
            } else {
                None
            },
            rematch: self.rematch.map(Side::from),
            live: self.live_for(&mine),
        }
    }

    /// The last move as `player` may see it, with what changed.
    pub(super) fn move_event_for(&self, player: Option<&str>) -> Option<MoveEvent> {
        let game = self.game.as_ref()?;
        // The position after an irregular move that stood is the current one too.
        let live = self.live_for(&self.sides_of(player));
        let mv = ply_view(game.plies().last()?, live.fen.clone());
        Some(MoveEvent {
            game: self.id.clone(),
            version: self.version,
            mv,
            live,
        })
    }

    /// What a move can change, for a viewer playing `mine`.
    fn live_for(&self, mine: &[Color]) -> Live {
        let now = now_ms();
        // What a position shows before the game's own parts are added.
        let at = |pos: &vizier_rules::Position, status| Live {
            status,
            fen: pos.fen(),
            turn: pos.turn().into(),
            check: pos.is_check(),
            clock: None,
            server_time: now,
            dests: Default::default(),
            draw_offer: None,
            takeback: None,
            claims: ClaimsView::default(),
            can_abort: false,
            infractions: None,
            can_adjourn: false,
            adjournment: None,
            result: None,
            opening: None,
        };
        let Some(game) = &self.game else {
            let Some(reason) = self.invite_ended else {
                return at(&self.start, Status::Waiting);
            };
            let expired = Outcome {
                result: GameResult::NoResult,
                reason,
                at: 0,
            };
            return Live {
                result: Some(result_view(&expired)),
                ..at(&self.start, Status::Over)
            };
        };
        let pos = game.position();
        let clock = game.clock();
        let clock = clock.is_timed().then(|| {
            let has_counts = matches!(&game.setup().control,
                TimeControl::Clock(periods) if periods.iter().any(|p| p.moves.is_some()));
            ClockView {
                white: clock.remaining(Color::White, now).unwrap_or(0),
                black: clock.remaining(Color::Black, now).unwrap_or(0),
                running: clock.running().map(Side::from),
                delay_left: clock.delay_left(now),
                control: game.setup().control.to_pgn(),
                moves_to_go: has_counts.then(|| Color::ALL.map(|c| clock.moves_to_go(c))),
            }
        });
        let mut live = Live {
            clock,
            opening: self.opening.map(|o| crate::protocol::OpeningView {
                eco: o.eco,
                name: o.name,
                zh: crate::opening::chinese(o.name),
            }),
            ..at(pos, Status::Playing)
        };
        if let Some(o) = game.outcome() {
            live.status = Status::Over;
            live.result = Some(result_view(&o));
            return live;
        }
        live.draw_offer = game.draw_offer().map(Side::from);
        live.takeback = game.takeback_request().map(Side::from);
        live.can_abort = game.can_abort();
        let setup = game.setup();
        if setup.mode != Mode::Online || setup.options.king_into_check_fouls.is_some() {
            live.infractions = Some(InfractionsView {
                illegal: Color::ALL.map(|c| game.infractions(c).0),
                fouls: Color::ALL.map(|c| game.infractions(c).1),
                claimable: game.claimable_illegal_move().map(Side::from),
            });
        }
        live.can_adjourn = self.may_adjourn();
        live.adjournment = self.adjournment_view();
        let sealed = matches!(game.adjournment(), Some(Adjournment::Sealed(_)));
        if mine.contains(&pos.turn()) && !sealed {
            let history = game.history();
            live.claims = ClaimsView {
                threefold: history.can_claim_threefold(),
                fifty: history.can_claim_fifty(),
            };
            let castling = UciCastling::for_chess960(game.is_chess960());
            live.dests = crate::analysis::board::dests(pos, castling);
        }
        live
    }
}
