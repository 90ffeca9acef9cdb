//! The Laws in live play through the server: what only a deep proof settles ends games for
//! players and spectators alike (#54).

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::{Browser, Seat, start};
use serde_json::{Value, json};
use vizier_play::prover::{Found, first_dead};
use vizier_rules::{DeadCheck, Position};

/// One move before a dead position of the public vector that the per-move check leaves open:
/// Black's rook on g2 can still help mate (both sides can mate here); Kxg2 locks the board.
const BEFORE_DEAD: &str = "1k6/1P5p/BP3p2/1P6/8/8/5PrP/6K1 w - - 0 1";
/// The position after Kxg2.
const DEAD: &str = "1k6/1P5p/BP3p2/1P6/8/8/5PKP/8 b - - 0 1";

/// A game on one device made with `body` by a new browser: the browser, the game's id, the
/// player's seat and a spectator's (from another address).
async fn watched_local_game(addr: SocketAddr, body: Value) -> (Browser, String, Seat, Seat) {
    let player = Browser::new(addr).await;
    let (status, created) = player.post("/api/games", body).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let seat = Seat::open(&player, &id).await;
    let spectator = Browser::from_address(addr, [127, 0, 0, 2]).await;
    let watcher = Seat::open(&spectator, &id).await;
    (player, id, seat, watcher)
}

/// The game as `seat` sees it once over, within 20 s.
async fn once_over(seat: &mut Seat) -> Value {
    let ended = seat.state_where(|s| s["status"] == "over");
    tokio::time::timeout(Duration::from_secs(20), ended)
        .await
        .expect("the game ended within 20 s")
}

/// Art. 5.2.2: moves reach a position only the deep decision proves dead; the game ends as a
/// draw at the move that made it so, seen by the player and a spectator, and the PGN says
/// where.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_position_proved_dead_ends_the_game_for_players_and_spectators() {
    let dead = Position::from_fen(DEAD).unwrap();
    assert_eq!(
        dead.dead_check(vizier_rules::DEAD_CHECK_NODES),
        DeadCheck::Open,
        "only the deep proof settles it"
    );
    let addr = start(vizier_server::Limits::default()).await;
    let (player, id, mut seat, mut watcher) =
        watched_local_game(addr, json!({"kind": "local", "fen": BEFORE_DEAD})).await;
    let mut played = Vec::new();
    for uci in ["g1g2", "h7h6", "g2g3"] {
        let r = seat.send(json!({"t": "move", "uci": uci})).await;
        if r["t"] != "ack" {
            break; // the proof came first: the game is over
        }
        played.push(uci);
    }
    assert!(
        !played.is_empty(),
        "the start is alive: the first move is played"
    );
    let over = once_over(&mut seat).await;
    assert_eq!(over["result"]["reason"], "dead-position", "{over}");
    assert_eq!(over["result"]["score"], "½–½");
    // The move the deep decision names, on the game's own positions.
    let mut positions = vec![Position::from_fen(BEFORE_DEAD).unwrap()];
    for uci in &played {
        let last = positions.last().unwrap();
        let next = last.play(last.parse_uci(uci).unwrap()).unwrap();
        positions.push(next);
    }
    let Found::Dead { after } = first_dead(&positions, 0, Duration::from_secs(30)) else {
        panic!("the oracle finds the game dead");
    };
    assert_eq!(over["result"]["deadAfter"], json!(after), "{over}");
    assert_eq!(
        once_over(&mut watcher).await["result"],
        over["result"],
        "the spectator's"
    );
    let pgn = player.text(&format!("/api/games/{id}/pgn")).await;
    assert!(pgn.contains("[Result \"1/2-1/2\"]"), "{pgn}");
    assert!(pgn.contains("{dead position from here"), "{pgn}");
}

/// A game from a position is never rated, and a position that is no chess position is
/// refused with a reason.
#[tokio::test]
async fn games_from_a_position_are_checked() {
    let addr = start(vizier_server::Limits::default()).await;
    let player = Browser::new(addr).await;
    let (status, body) = player
        .post(
            "/api/games",
            json!({"kind": "local", "fen": "not a position"}),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = player
        .post(
            "/api/games",
            json!({"kind": "friend", "fen": BEFORE_DEAD, "rated": true, "timeControl": "300+2"}),
        )
        .await;
    assert_eq!(status, 400, "{body}");
}

/// Arts. 6.9 and 5.2.2 through the server: a flag falls in a position that is dead before
/// any proof of it came (this server proves nothing in the background). The game had ended
/// as a draw at the move that made it dead; players and spectators are told so, not that
/// the flag lost.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_that_falls_before_the_proof_came_gives_the_draw() {
    let mut limits = vizier_server::Limits::default();
    limits.games.proof_queue = 0;
    let addr = start(limits).await;
    let body = json!({"kind": "local", "fen": BEFORE_DEAD, "timeControl": "2+0"});
    let (_, _, mut seat, mut watcher) = watched_local_game(addr, body).await;
    for uci in ["g1g2", "h7h6"] {
        let r = seat.send(json!({"t": "move", "uci": uci})).await;
        assert_eq!(r["t"], "ack", "{r}");
    }
    // White's two seconds run out.
    let over = once_over(&mut seat).await;
    assert_eq!(over["result"]["reason"], "dead-position", "{over}");
    assert_eq!(over["result"]["score"], "½–½");
    assert_eq!(over["result"]["deadAfter"], 1);
    assert_eq!(
        once_over(&mut watcher).await["result"],
        over["result"],
        "the spectator's"
    );
}
