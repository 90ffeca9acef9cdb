//! Correspondence over HTTP: conditional premoves (only the waiting player leaves lines and
//! sees them; the opponent and spectators see none; other sites' pages cannot leave them) and
//! vacations (30 days a year, every correspondence game's clock stopped, days not begun given
//! back).

mod common;

use common::{Browser, creds, start};
use serde_json::json;

async fn account(addr: std::net::SocketAddr, name: &str) -> Browser {
    let b = Browser::new(addr).await;
    let (status, _) = b.post("/signup", creds(name, "a good password")).await;
    assert_eq!(status, 201);
    b
}

/// A three-day game of Ann (White) against Bob, by challenge: its id.
async fn correspondence_game(ann: &Browser, bob: &Browser) -> String {
    let (status, sent) = ann
        .post("/api/challenge/bob", json!({"days": 3, "color": "white"}))
        .await;
    assert_eq!(status, 200, "{sent}");
    let challenge = sent["id"]
        .as_str()
        .or(sent["challenge"]["id"].as_str())
        .unwrap()
        .to_string();
    let (status, accepted) = bob
        .post(&format!("/api/challenge/{challenge}/accept"), json!({}))
        .await;
    assert_eq!(status, 200, "{accepted}");
    accepted["game"].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_waiting_player_leaves_and_sees_their_lines() {
    let addr = start(vizier_server::Limits::default()).await;
    let ann = account(addr, "ann").await;
    let bob = account(addr, "bob").await;
    let stranger = account(addr, "cyd").await;
    let game = correspondence_game(&ann, &bob).await;
    let path = format!("/api/games/{game}/conditional");
    let (status, seen) = bob.get(&path).await;
    assert_eq!(status, 200);
    assert_eq!(seen, json!({"lines": [], "editable": true}));
    let (status, body) = bob
        .post(&path, json!({"lines": ["e4 e5 Nf3 Nc6", "d4 d5"]}))
        .await;
    assert_eq!(status, 200, "{body}");
    let (_, seen) = bob.get(&path).await;
    assert_eq!(seen["lines"][0]["san"], json!(["e4", "e5", "Nf3", "Nc6"]));
    assert_eq!(seen["lines"][1]["uci"], json!(["d2d4", "d7d5"]));
    // White, to move, and a spectator see nothing of them, and may leave none.
    for other in [&ann, &stranger] {
        let (_, seen) = other.get(&path).await;
        assert_eq!(seen, json!({"lines": [], "editable": false}));
        let (status, _) = other.post(&path, json!({"lines": ["e5 Nf3"]})).await;
        assert_eq!(status, 400);
    }
    let (status, body) = bob.post(&path, json!({"lines": ["e4 Ke2"]})).await;
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().contains("Ke2"), "{body}");
    // Another site's page cannot.
    let r = bob
        .http
        .post(bob.url(&path))
        .header("origin", "http://elsewhere.example")
        .json(&json!({"lines": []}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 403);
    let (_, seen) = bob.get(&path).await;
    assert_eq!(seen["lines"].as_array().unwrap().len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vacation_stops_every_correspondence_clock_of_the_player() {
    let addr = start(vizier_server::Limits::default()).await;
    let ann = account(addr, "ann").await;
    let bob = account(addr, "bob").await;
    let game = correspondence_game(&ann, &bob).await;
    let (status, seen) = ann.get("/api/account/vacation").await;
    assert_eq!(status, 200);
    assert_eq!(
        seen,
        json!({"daysPerYear": 30, "daysLeft": 30, "awayUntil": null})
    );
    // More days than a year has, or none, are refused.
    for days in [json!(31), json!(0), json!("soon")] {
        let (status, _) = ann
            .post("/api/account/vacation", json!({"days": days}))
            .await;
        assert_eq!(status, 400, "{days}");
    }
    let (status, taken) = ann.post("/api/account/vacation", json!({"days": 10})).await;
    assert_eq!(status, 200, "{taken}");
    assert_eq!(taken["daysLeft"], 20);
    assert_eq!(taken["games"], 1);
    let until = taken["awayUntil"].as_u64().unwrap();
    // Once at a time.
    let (status, _) = ann.post("/api/account/vacation", json!({"days": 1})).await;
    assert_eq!(status, 400);
    // The one game took it (its clock stops: vizier-play's clock tests), and its PGN is
    // unchanged by it.
    let pgn = ann.text(&format!("/api/games/{game}/pgn")).await;
    assert!(pgn.contains("[TimeControl \"1/259200\"]"), "{pgn}");
    // Back early: the nine whole days not begun are given back.
    let (status, back) = ann.post("/api/account/vacation/end", json!({})).await;
    assert_eq!(status, 200, "{back}");
    assert_eq!(back["daysLeft"], 29);
    assert_eq!(back["awayUntil"], json!(null));
    assert!(until > 0);
    let (status, _) = ann.post("/api/account/vacation/end", json!({})).await;
    assert_eq!(status, 400);
    // A guest has none.
    let guest = Browser::new(addr).await;
    let (status, _) = guest.get("/api/account/vacation").await;
    assert_eq!(status, 401);
}
