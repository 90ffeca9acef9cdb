//! Analysis end to end against a real server: a finished game's review (queued, made once,
//! stored, judged), and the analysis board's socket (lines that deepen, a mate found, bad
//! positions refused, a new request replacing the last).

mod common;

use std::time::Duration;

use common::{Browser, Seat, Ws, next_json, start};
use futures_util::SinkExt;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

fn limits() -> vizier_server::Limits {
    vizier_server::Limits {
        review_nodes: 3_000,
        analysis_nodes: 200_000,
        analysis_ms: 2_000,
        ..vizier_server::Limits::DEFAULT
    }
}

/// A game on one device, played to its end with `moves` (SAN).
async fn played(b: &Browser, moves: &[&str]) -> String {
    let (status, created) = b
        .post("/api/games", json!({"kind": "local", "timeControl": "-"}))
        .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let mut seat = Seat::open(b, &id).await;
    for mv in moves {
        let r = seat.send(json!({"t": "move", "uci": mv})).await;
        assert_eq!(r["t"], "ack", "{mv}: {r}");
    }
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_reviewed_once_and_its_blunder_marked() {
    let addr = start(limits()).await;
    let b = Browser::new(addr).await;
    let id = played(&b, &["f3", "e5", "g4", "Qh4#"]).await;
    let path = format!("/api/games/{id}/review");
    assert_eq!(b.get(&path).await, (404, json!({"status": "none"})));
    let (status, first) = b.post(&path, json!({})).await;
    assert_eq!(status, 202, "{first}");
    assert_eq!(first["total"], 5);
    let mut review = Value::Null;
    for _ in 0..200 {
        let (status, body) = b.get(&path).await;
        if status == 200 {
            review = body["review"].clone();
            break;
        }
        assert_eq!(status, 202, "{body}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(review["positions"].as_array().unwrap().len(), 5, "{review}");
    assert_eq!(review["positions"][4]["verdict"], json!({"over": "black"}));
    // After 2. g4 Black mates in one: the position says so, and the move was a blunder.
    assert_eq!(review["positions"][3]["verdict"], json!({"mate": -1}));
    assert_eq!(review["positions"][3]["bestSan"], "Qh4#");
    assert_eq!(review["positions"][3]["best"], "d8h4");
    assert_eq!(review["moves"][2]["judgement"], "blunder", "{review}");
    assert_eq!(review["moves"][3]["judgement"], Value::Null);
    let (w, bl) = (
        review["accuracy"]["white"].as_f64().unwrap(),
        review["accuracy"]["black"].as_f64().unwrap(),
    );
    assert!(w < bl, "White blundered: {w} against {bl}");
    // The annotated PGN, read back by python-chess with the same evaluations and glyphs.
    let pgn = b.text(&format!("/api/games/{id}/pgn?evals=true")).await;
    assert!(pgn.contains("$4 {[%eval #-1] Blunder. "), "{pgn}");
    if let Some(read) = python_chess_reads(&pgn) {
        let want: Vec<Value> = (0..4)
            .map(|i| {
                let after = &review["positions"][i + 1]["verdict"];
                let eval = if after["cp"].is_i64() {
                    json!({"cp": after["cp"]})
                } else if after["mate"].is_i64() {
                    json!({"mate": after["mate"]})
                } else {
                    Value::Null
                };
                let nags = match review["moves"][i]["judgement"].as_str() {
                    Some("inaccuracy") => json!([6]),
                    Some("mistake") => json!([2]),
                    Some("blunder") => json!([4]),
                    _ => json!([]),
                };
                json!({"eval": eval, "nags": nags})
            })
            .collect();
        assert_eq!(read, want, "{pgn}");
    }

    // Asked again, it is the stored one at once.
    let (status, again) = b.post(&path, json!({})).await;
    assert_eq!((status, &again["review"]), (200, &review));

    // A game still going is not reviewed; an unknown one is not found.
    let (status, created) = b
        .post("/api/games", json!({"kind": "local", "timeControl": "-"}))
        .await;
    assert_eq!(status, 201);
    let live = created["id"].as_str().unwrap();
    let (status, e) = b
        .post(&format!("/api/games/{live}/review"), json!({}))
        .await;
    assert_eq!((status, e["code"].as_str()), (409, Some("game-not-over")));
    let (status, _) = b.post("/api/games/nosuchgame/review", json!({})).await;
    assert_eq!(status, 404);
}

/// What python-chess reads from `pgn`'s mainline: each move's evaluation (from White's side)
/// and glyphs; none where python-chess is not installed (scripts/test.sh installs it, and CI
/// must have it).
fn python_chess_reads(pgn: &str) -> Option<Vec<Value>> {
    let script = r#"
import io, json, sys
import chess.pgn
game = chess.pgn.read_game(io.StringIO(sys.stdin.read()))
out = []
for node in game.mainline():
    e = node.eval()
    if e is None:
        ev = None
    elif e.white().is_mate():
        ev = {"mate": e.white().mate()}
    else:
        ev = {"cp": e.white().score()}
    out.append({"eval": ev, "nags": sorted(node.nags)})
print(json.dumps(out))
"#;
    let has = std::process::Command::new("python3")
        .args(["-c", "import chess"])
        .status()
        .is_ok_and(|s| s.success());
    if !has {
        assert!(
            std::env::var_os("CI").is_none(),
            "python-chess is needed in CI"
        );
        eprintln!("python-chess not installed: the annotated PGN is not read back here");
        return None;
    }
    use std::io::Write;
    let mut child = std::process::Command::new("python3")
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(pgn.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    serde_json::from_slice(&out.stdout).ok()
}

/// The analysis board's socket.
struct Board {
    ws: Ws,
}

impl Board {
    async fn open(b: &Browser) -> Board {
        Board {
            ws: b.socket("/api/analysis/socket").await,
        }
    }

    async fn send(&mut self, msg: Value) {
        self.ws
            .send(Message::Text(msg.to_string().into()))
            .await
            .unwrap();
    }

    /// Messages until the one that ends analysis `id` (its last lines, or an error).
    async fn until_done(&mut self, id: u64) -> (Vec<Value>, Value) {
        let mut updates = Vec::new();
        loop {
            let m = next_json(&mut self.ws).await;
            if m["id"] != json!(id) {
                continue;
            }
            if m["t"] != "lines" || m["done"] == true {
                return (updates, m);
            }
            updates.push(m);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analysis_board_hears_lines_deepen_and_finds_a_mate() {
    let addr = start(limits()).await;
    let b = Browser::new(addr).await;
    let mut board = Board::open(&b).await;

    board
        .send(json!({"t": "analyse", "id": 1, "moves": ["e2e4", "e7e5"], "lines": 3}))
        .await;
    let (updates, last) = board.until_done(1).await;
    assert!(!updates.is_empty(), "depths are reported as they complete");
    let depths: Vec<i64> = updates
        .iter()
        .map(|u| u["depth"].as_i64().unwrap())
        .collect();
    assert!(depths.windows(2).all(|w| w[0] <= w[1]), "{depths:?}");
    let lines = last["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3, "{last}");
    let firsts: std::collections::HashSet<_> = lines.iter().map(|l| l["pv"][0].clone()).collect();
    assert_eq!(firsts.len(), 3, "three different moves");
    assert!(lines.iter().all(|l| l["cp"].is_i64()
        && l["san"].as_array().unwrap().len() == l["pv"].as_array().unwrap().len()));

    // White mates with Ra8: the score says so.
    board
        .send(json!({"t": "analyse", "id": 2, "fen": "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"}))
        .await;
    let (_, last) = board.until_done(2).await;
    assert_eq!(last["lines"][0]["mate"], 1, "{last}");
    assert_eq!(last["lines"][0]["san"][0], "Ra8#");
    let (_, black) = {
        board
            .send(json!({"t": "analyse", "id": 3, "fen": "k7/8/1K6/8/8/8/8/7R b - - 0 1"}))
            .await;
        board.until_done(3).await
    };
    assert_eq!(
        black["lines"][0]["mate"], 1,
        "White mates after Black's forced move: {black}"
    );

    // Bad positions and moves are refused; a finished position has no lines.
    board
        .send(json!({"t": "analyse", "id": 4, "fen": "not a fen"}))
        .await;
    let (_, e) = board.until_done(4).await;
    assert_eq!(e["code"], "not-analysable");
    board
        .send(json!({"t": "analyse", "id": 5, "moves": ["e2e5"]}))
        .await;
    let (_, e) = board.until_done(5).await;
    assert_eq!(e["code"], "not-analysable");
    board
        .send(json!({"t": "analyse", "id": 6, "moves": ["f2f3", "e7e5", "g2g4", "d8h4"]}))
        .await;
    let (_, over) = board.until_done(6).await;
    assert_eq!(over["lines"], json!([]));

    // The board's chess: legal moves, a move played, a PGN read into a tree.
    board.send(json!({"t": "position", "id": 7})).await;
    let (_, p) = board.until_done(7).await;
    assert_eq!(p["dests"]["g1"], json!(["f3", "h3"]), "{p}");
    board
        .send(json!({"t": "play", "id": 8, "fen": p["fen"], "move": "Nf3"}))
        .await;
    let (_, played) = board.until_done(8).await;
    assert_eq!(
        (played["t"].as_str(), played["uci"].as_str()),
        (Some("played"), Some("g1f3"))
    );
    board
        .send(json!({"t": "play", "id": 9, "fen": p["fen"], "move": "Nf4"}))
        .await;
    let (_, e) = board.until_done(9).await;
    assert_eq!(e["code"], "illegal-move");
    board
        .send(json!({"t": "import", "id": 21, "pgn": "1. e4 (1. d4 d5) 1... c5 {Sicilian} *"}))
        .await;
    let (_, tree) = board.until_done(21).await;
    assert_eq!(tree["children"][1]["san"], "d4", "{tree}");
    assert_eq!(tree["children"][0]["children"][0]["comment"], "Sicilian");

    // A new request replaces the one running, at once: the player's places are not used up.
    for id in 10..20 {
        board
            .send(json!({"t": "analyse", "id": id, "lines": 1}))
            .await;
    }
    let (_, last) = board.until_done(19).await;
    assert_eq!(last["t"], "lines", "{last}");
}
