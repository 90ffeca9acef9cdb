//! The game as lichess's Bot and Board API shows it: `gameFull`, `gameState`, and the game
//! summary of the event stream (`gameStart`, `gameFinish`) and of `/api/account/playing`,
//! with lichess's field names, rendered from the round's snapshot.

use serde_json::{Value, json};
use vizier_arbiter::{GameResult, Millis, Outcome, StartPosition, TimeControl};
use vizier_play::round::Snapshot;
use vizier_rating::Class;
use vizier_rules::{Color, Reason};
use vizier_store::record::Seat;

/// What a clock shows when the game has none (lichess's "no limit").
const NO_CLOCK_MS: u64 = 2_147_483_647;

/// The colour's name (`white`).
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// lichess's speed of a time control: a game without a clock is correspondence there.
pub fn speed(control: &TimeControl) -> &'static str {
    Class::of_control(control).map_or("correspondence", Class::key)
}

/// The speed's name as lichess shows a perf (`Blitz`).
pub fn perf_name(speed: &str) -> String {
    let mut c = speed.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// The variant, as lichess names it: a set-up position is `fromPosition`.
pub fn variant(start: &StartPosition) -> Value {
    match start {
        StartPosition::Standard => json!({"key": "standard", "name": "Standard", "short": "Std"}),
        StartPosition::Chess960(_) => {
            json!({"key": "chess960", "name": "Chess960", "short": "960"})
        }
        StartPosition::Fen(_) => {
            json!({"key": "fromPosition", "name": "From Position", "short": "FEN"})
        }
    }
}

/// A single-period clock's start and increment in ms, as lichess gives `clock`.
fn simple_clock(control: &TimeControl) -> Option<(Millis, Millis)> {
    match control {
        TimeControl::Clock(periods) => periods.first().map(|p| (p.base_ms, p.increment_ms)),
        _ => None,
    }
}

/// lichess's name and number for how a game stands.
pub fn status(round: &Snapshot) -> (&'static str, u8) {
    let Some(board) = &round.board else {
        return match round.invite_ended {
            Some(_) => ("aborted", 25),
            None => ("created", 10),
        };
    };
    match board.outcome {
        None => ("started", 20),
        Some(o) => ending_status(&o),
    }
}

/// lichess's status of an ending: its draws are all `draw`, a flag that falls where the
/// opponent cannot mate is `outoftime` without a winner, and the Laws' endings lichess has
/// no name for (illegal moves, fouls, an invalid sealed move) are `unknownFinish`.
fn ending_status(o: &Outcome) -> (&'static str, u8) {
    match o.reason {
        Reason::Checkmate => ("mate", 30),
        Reason::Resignation => ("resign", 31),
        Reason::Stalemate => ("stalemate", 32),
        Reason::Left if o.result != GameResult::Draw => ("timeout", 33),
        Reason::TimeForfeit | Reason::TimeForfeitNoMate => ("outoftime", 35),
        Reason::Aborted | Reason::Abandoned => ("aborted", 25),
        Reason::FirstMoveTimeout => ("noStart", 37),
        Reason::IllegalMoves
        | Reason::Fouls
        | Reason::InvalidSealedMove
        | Reason::IllegalPosition
            if o.result != GameResult::Draw =>
        {
            ("unknownFinish", 38)
        }
        _ => ("draw", 34),
    }
}

/// The winner's colour, if any.
pub fn winner(round: &Snapshot) -> Option<Color> {
    match round.board.as_ref()?.outcome?.result {
        GameResult::WhiteWins => Some(Color::White),
        GameResult::BlackWins => Some(Color::Black),
        _ => None,
    }
}

/// A player as the game stream shows them: an account by its lower-case name, with its title
/// and rating; the computer by its level.
pub fn player(round: &Snapshot, c: Color, now: Millis) -> Value {
    let i = c.index();
    match &round.seats[i] {
        Seat::Computer { level, .. } => {
            json!({"id": format!("vizier-level-{level}"), "name": format!("Vizier level {level}"), "aiLevel": level})
        }
        Seat::Open => json!({"id": "", "name": "", "title": null}),
        Seat::Player(_) => {
            let players = &round.players;
            let Some(name) = &players.names[i] else {
                return json!({"id": "anonymous", "name": "Anonymous", "title": null});
            };
            let mut v =
                json!({"id": name.to_lowercase(), "name": name, "title": players.titles[i]});
            if let Some((rating, provisional)) = players.shown_rating(c, now) {
                v["rating"] = json!(rating);
                if provisional {
                    v["provisional"] = json!(true);
                }
            }
            v
        }
    }
}

/// `gameState`: the moves so far (kept by the stream), the clocks at `now`, the status, and
/// the offers open.
pub fn game_state(round: &Snapshot, moves: &str, now: Millis) -> Value {
    let control = &round.table.setup.control;
    let (winc, binc) = simple_clock(control).map_or((0, 0), |(_, inc)| (inc, inc));
    let left = |c: Color| {
        round
            .board
            .as_ref()
            .and_then(|b| b.clock.remaining(c, now))
            .unwrap_or(NO_CLOCK_MS)
    };
    let (status, _) = status(round);
    let mut v = json!({
        "type": "gameState",
        "moves": moves,
        "wtime": left(Color::White),
        "btime": left(Color::Black),
        "winc": winc,
        "binc": binc,
        "status": status,
    });
    if let Some(w) = winner(round) {
        v["winner"] = json!(color_name(w));
    }
    if let Some(board) = &round.board
        && board.outcome.is_none()
    {
        if let Some(by) = board.draw_offer {
            v[if by == Color::White { "wdraw" } else { "bdraw" }] = json!(true);
        }
        if let Some(by) = board.takeback {
            v[if by == Color::White {
                "wtakeback"
            } else {
                "btakeback"
            }] = json!(true);
        }
    }
    v
}

/// The start position as lichess gives `initialFen`: `startpos` for the standard one.
fn initial_fen(round: &Snapshot) -> String {
    match round.table.setup.start {
        StartPosition::Standard => "startpos".into(),
        _ => round.table.start.fen(),
    }
}

/// `gameFull`: what never changes in the game, and its state.
pub fn game_full(round: &Snapshot, moves: &str, now: Millis) -> Value {
    let table = &round.table;
    let control = &table.setup.control;
    let speed = speed(control);
    let mut v = json!({
        "type": "gameFull",
        "id": table.id,
        "variant": variant(&table.setup.start),
        "speed": speed,
        "perf": {"name": perf_name(speed)},
        "rated": table.rated,
        "createdAt": table.created_at,
        "white": player(round, Color::White, now),
        "black": player(round, Color::Black, now),
        "initialFen": initial_fen(round),
        "state": game_state(round, moves, now),
    });
    if let Some((initial, increment)) = simple_clock(control) {
        v["clock"] = json!({"initial": initial, "increment": increment});
    }
    if let TimeControl::Correspondence { days_per_move } = control {
        v["daysPerTurn"] = json!(days_per_move);
    }
    v
}

/// The game as `me` (playing `color`) sees it in a `gameStart` or `gameFinish` event, and in
/// `/api/account/playing`.
pub fn game_info(round: &Snapshot, color: Color, last_move: &str, now: Millis) -> Value {
    let table = &round.table;
    let speed = speed(&table.setup.control);
    let board = round.board.as_ref();
    let (name, id) = status(round);
    let opponent = match &round.seats[(!color).index()] {
        Seat::Computer { level, .. } => {
            json!({"id": null, "username": format!("Vizier level {level}"), "ai": level})
        }
        _ => {
            let seen = player(round, !color, now);
            let mut o = json!({"id": seen["id"], "username": seen["name"]});
            if let Some(r) = seen.get("rating") {
                o["rating"] = r.clone();
            }
            o
        }
    };
    let turn = board.map_or(Color::White, |b| b.position.turn());
    let running = board.is_some_and(|b| b.outcome.is_none());
    let seconds_left = board
        .and_then(|b| b.clock.remaining(color, now))
        .map_or(NO_CLOCK_MS / 1_000, |ms| ms / 1_000);
    let mut v = json!({
        "fullId": format!("{}{}", table.id, &color_name(color)[..1]),
        "gameId": table.id,
        "id": table.id,
        "fen": board.map_or_else(|| table.start.fen(), |b| b.position.fen()),
        "color": color_name(color),
        "lastMove": last_move,
        "source": source(round),
        "status": {"id": id, "name": name},
        "variant": variant(&table.setup.start),
        "speed": speed,
        "perf": speed,
        "rated": table.rated,
        "hasMoved": board.is_some_and(|b| b.plies > usize::from(color == Color::Black)),
        "opponent": opponent,
        "isMyTurn": running && turn == color,
        "secondsLeft": seconds_left,
        "compat": {"bot": true, "board": true},
    });
    if let Some((rating, _)) = round.players.shown_rating(color, now) {
        v["rating"] = json!(rating);
    }
    if let Some(w) = winner(round) {
        v["winner"] = json!(color_name(w));
    }
    if let Some(change) = &round.players.changes[color.index()] {
        v["ratingDiff"] = json!(change.shown_diff() as i32);
    }
    v
}

/// Where the game came from, in lichess's words.
fn source(round: &Snapshot) -> &'static str {
    use vizier_store::record::Kind;
    match round.table.kind {
        Kind::Computer => "ai",
        _ if matches!(round.table.setup.start, StartPosition::Fen(_)) => "position",
        _ => "friend",
    }
}

/// What a decline reason says, for the challenger to read.
fn decline_text(key: &str) -> &'static str {
    match key {
        "later" => "Not now: please ask again later.",
        "tooFast" => "This time control is too fast for me: please ask for a slower game.",
        "tooSlow" => "This time control is too slow for me: please ask for a faster game.",
        "timeControl" => "I am not taking challenges at this time control.",
        "rated" => "Please send a rated challenge instead.",
        "casual" => "Please send a casual challenge instead.",
        "standard" => "I am not taking variant challenges now.",
        "variant" => "I am not playing this variant now.",
        "noBot" => "I am not taking challenges from bots.",
        "onlyBot" => "I only take challenges from bots.",
        _ => "I am not taking challenges now.",
    }
}

/// A challenge as lichess's API shows it to `viewer`: with its URL at `site`, its perf, its
/// direction, and a decline's reason in words and as a lower-case key.
pub fn challenge(
    c: &crate::lobby::model::Challenge,
    viewer: &vizier_play::ids::PlayerId,
    site: &str,
) -> Value {
    let mut v = serde_json::to_value(c).unwrap_or_default();
    v["url"] = json!(format!("{}/{}", site.trim_end_matches('/'), c.id));
    v["variant"] = match c.variant.key {
        "chess960" => json!({"key": "chess960", "name": "Chess960", "short": "960"}),
        "fromPosition" => json!({"key": "fromPosition", "name": "From Position", "short": "FEN"}),
        _ => json!({"key": "standard", "name": "Standard", "short": "Std"}),
    };
    v["perf"] = json!({"icon": "", "name": perf_name(&c.speed)});
    v["direction"] = json!(if c.challenger.player == *viewer {
        "out"
    } else {
        "in"
    });
    if let Some(key) = &c.decline_reason {
        v["declineReason"] = json!(decline_text(key));
        v["declineReasonKey"] = json!(key.to_lowercase());
    }
    if let Some(o) = v.as_object_mut() {
        o.remove("createdAt");
        o.remove("game");
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perf_names_are_capitalised() {
        assert_eq!(perf_name("blitz"), "Blitz");
        assert_eq!(perf_name("correspondence"), "Correspondence");
    }

    #[test]
    fn endings_have_lichess_statuses() {
        let o = |result, reason| Outcome {
            result,
            reason,
            at: 0,
        };
        assert_eq!(
            ending_status(&o(GameResult::WhiteWins, Reason::Checkmate)).0,
            "mate"
        );
        assert_eq!(
            ending_status(&o(GameResult::Draw, Reason::ThreefoldRepetition)).0,
            "draw"
        );
        assert_eq!(
            ending_status(&o(GameResult::Draw, Reason::TimeForfeitNoMate)).0,
            "outoftime"
        );
        assert_eq!(
            ending_status(&o(GameResult::BlackWins, Reason::Left)).0,
            "timeout"
        );
        assert_eq!(ending_status(&o(GameResult::Draw, Reason::Left)).0, "draw");
        assert_eq!(
            ending_status(&o(GameResult::NoResult, Reason::Aborted)).0,
            "aborted"
        );
        assert_eq!(
            ending_status(&o(GameResult::WhiteWins, Reason::IllegalMoves)).0,
            "unknownFinish"
        );
    }
}
