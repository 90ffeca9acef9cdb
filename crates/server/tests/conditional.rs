//! Conditional premoves over HTTP: only the waiting player leaves lines and sees them; the
//! opponent and spectators see none; other sites' pages cannot leave them.

mod common;

use common::{Browser, creds, start};
use serde_json::json;

async fn account(addr: std::net::SocketAddr, name: &str) -> Browser {
    let b = Browser::new(addr).await;
    let (status, _) = b.post("/signup", creds(name, "a good password")).await;
    assert_eq!(status, 201);
    b
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_waiting_player_leaves_and_sees_their_lines() {
    let addr = start(vizier_server::Limits::default()).await;
    let ann = account(addr, "ann").await;
    let bob = account(addr, "bob").await;
    let stranger = account(addr, "cyd").await;
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
    let game = accepted["game"].as_str().unwrap().to_string();
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
