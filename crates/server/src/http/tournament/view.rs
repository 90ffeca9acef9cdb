//! A tournament as its JSON shows it: the lists' summary, the whole for one asker (their
//! number, game and rights), a simul's boards for its host.

use serde_json::{Value, json};
use vizier_compete::model::{ByeKind, Entry, Format, Status, Tournament};
use vizier_compete::report;
use vizier_play::ids::PlayerId;
use vizier_rating::Class;

use super::super::AppState;

/// A tournament as the lists show it.
pub(super) fn summary(t: &Tournament) -> Value {
    let class = vizier_arbiter::TimeControl::parse_pgn(&t.control)
        .ok()
        .and_then(|c| Class::of_control(&c));
    json!({
        "id": t.id,
        "name": t.name,
        "format": t.format.key(),
        "double": matches!(t.format, Format::RoundRobin { double: true }),
        "nbRounds": t.total_rounds(),
        "round": t.rounds.len(),
        "control": t.control,
        "speed": class.map(|c| c.key()),
        "rated": t.rated,
        "variant": if t.chess960 { "chess960" } else { "standard" },
        "startsAt": t.starts_at,
        "status": t.status.as_str(),
        "paused": t.paused,
        "nbPlayers": t.players.iter().filter(|e| !e.withdrawn).count(),
        "createdBy": t.created_by_name,
        "minutes": match t.format { Format::Arena { minutes, .. } => Some(minutes), _ => None },
        "endsAt": t.ends_at(),
    })
}

/// The whole tournament, for `me` (the asker's player id).
pub(super) fn full(t: &Tournament, me: &PlayerId) -> Value {
    let mut out = summary(t);
    let halves: Vec<u32> = (1..=t.players.len() as u32)
        .map(|n| t.halves_of(n))
        .collect();
    let players: Vec<Value> = t
        .players
        .iter()
        .enumerate()
        .map(|(i, e)| {
            json!({
                "number": i + 1,
                "name": e.name,
                "rating": e.rating,
                "provisional": e.provisional,
                "withdrawn": e.withdrawn,
                "byeNext": e.bye_next,
                "zeroByeNext": e.zero_bye_next,
                "title": e.details.title,
                "federation": e.details.federation,
                "sex": e.details.sex,
                "points": halves[i] as f64 / 2.0,
            })
        })
        .collect();
    let rounds: Vec<Value> = t
        .rounds
        .iter()
        .map(|r| {
            json!({
                "number": r.number,
                "startedAt": r.started_at,
                "boards": r.boards.iter().map(|b| json!({
                    "white": b.white,
                    "black": b.black,
                    "game": b.game,
                    "result": b.result.map(|r| r.text()),
                    "corrected": b.corrected,
                })).collect::<Vec<_>>(),
                "byes": r.byes.iter().map(|y| json!({
                    "player": y.player,
                    "kind": match y.kind {
                        ByeKind::Pairing => "pairing",
                        ByeKind::Absent => "absent",
                        ByeKind::Half => "half",
                    },
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let number = t.number_of(me.as_str());
    // A simul's host plays every board: the page lists them instead.
    let host = t.is_simul() && t.created_by == me.as_str();
    let my_game = number.filter(|_| !host).and_then(|n| {
        if let Some(g) =
            (t.arena_games.iter()).find(|g| g.result.is_none() && (g.white == n || g.black == n))
        {
            return Some(g.game.clone());
        }
        let round = t.current_round()?;
        let board = round.boards.iter().find(|b| b.white == n || b.black == n)?;
        board.game.clone().filter(|_| board.result.is_none())
    });
    let started = t.status != Status::Created;
    let extra = json!({
        "description": t.description,
        "entry": match &t.entry {
            Entry::Open => json!({"kind": "open"}),
            Entry::Rating { min, max } => json!({"kind": "rating", "min": min, "max": max}),
            Entry::Invite { names } => json!({"kind": "invite", "names": names}),
        },
        "forfeitAfter": t.forfeit_after_s,
        "roundBreak": t.round_break_s,
        "nextRoundAt": t.next_round_at,
        "endedEarly": t.ended_early,
        "players": players,
        "rounds": rounds,
        "arenaGames": t.arena_games.iter().rev().take(200).map(|g| json!({
            "white": g.white,
            "black": g.black,
            "game": g.game,
            "result": g.result.map(|r| r.text()),
        })).collect::<Vec<_>>(),
        "standings": started.then(|| report::standings(t)),
        "crosstable": (started && !t.is_arena()).then(|| report::crosstable(t)),
        "norms": started.then(|| report::norms(t)).flatten(),
        "me": {
            "number": number,
            "joined": number.is_some_and(|n| t.entrant(n).is_some_and(|e| !e.withdrawn)),
            "game": my_game,
            "creator": t.created_by == me.as_str(),
            "byeNext": number.and_then(|n| t.entrant(n)).is_some_and(|e| e.bye_next),
            "canAskBye": number.is_some_and(|n| vizier_compete::director::may_ask_bye(t, n).is_ok()),
            "zeroByeNext": number.and_then(|n| t.entrant(n)).is_some_and(|e| e.zero_bye_next),
            "canSitOut": number.is_some_and(|n| vizier_compete::director::may_sit_out(t, n).is_ok()),
        },
    });
    if let (Value::Object(o), Value::Object(e)) = (&mut out, extra) {
        o.extend(e);
    }
    out
}

/// A simul's boards as the host sees them: the position, whether the host is to move, the
/// last move, the host's time left and legal moves; the boards waiting for the host first.
pub(super) async fn simul_boards(state: &AppState, t: &Tournament) -> Value {
    let (Some(round), Some(host)) = (t.rounds.first(), t.host_number()) else {
        return json!([]);
    };
    let host_player = PlayerId::known(t.created_by.clone());
    let now = state.hub.now();
    let mut boards = Vec::new();
    for (i, b) in round.boards.iter().enumerate() {
        let opponent = if b.white == host { b.black } else { b.white };
        let mut v = json!({
            "board": i + 1,
            "opponent": opponent,
            "hostColour": if b.white == host { "white" } else { "black" },
            "game": b.game,
            "result": b.result.map(|r| r.text()),
        });
        if let (Some(game), None) = (&b.game, b.result)
            && let Some(info) = super::api::game_info(
                state,
                &vizier_play::ids::GameId::stored(game.clone()),
                &host_player,
                now,
            )
            .await
        {
            v["fen"] = info["fen"].clone();
            v["hostToMove"] = info["isMyTurn"].clone();
            v["lastMove"] = info["lastMove"].clone();
            v["secondsLeft"] = info["secondsLeft"].clone();
            // The host moves on the small board: its legal moves, when it is the host's turn.
            if info["isMyTurn"] == true
                && let Some(pos) =
                    (info["fen"].as_str()).and_then(|f| vizier_rules::Position::from_fen(f).ok())
            {
                let shown = crate::analysis::board::Shown::of(&pos, t.chess960);
                v["dests"] = serde_json::to_value(&shown.dests).unwrap_or_default();
            }
        }
        boards.push(v);
    }
    boards.sort_by_key(|v| !v["hostToMove"].as_bool().unwrap_or(false));
    Value::Array(boards)
}
