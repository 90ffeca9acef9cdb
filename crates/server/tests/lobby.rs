//! The lobby end to end: seeks seen by everyone and taken, quick-pairing pools, rating
//! ranges, guests kept to casual play, and seeks gone with their seeker.

mod common;

use common::{Browser, LobbyClient, Seat, creds, start};
use serde_json::json;

async fn account(addr: std::net::SocketAddr, name: &str) -> Browser {
    let b = Browser::new(addr).await;
    assert_eq!(b.post("/signup", creds(name, "lobby secret")).await.0, 201);
    b
}

#[tokio::test]
async fn a_seek_is_seen_taken_and_both_are_paired() {
    let addr = start(vizier_server::Limits::default()).await;
    let (ann, bob, guest) = (
        account(addr, "ann").await,
        account(addr, "bob").await,
        Browser::new(addr).await,
    );
    let mut a = LobbyClient::open(&ann).await;
    let mut b = LobbyClient::open(&bob).await;
    let mut g = LobbyClient::open(&guest).await;
    let r = a
        .send(json!({"t": "seek", "timeControl": "180+2", "rated": true, "color": "white"}))
        .await;
    assert_eq!(r["t"], "ack", "{r}");
    let seek = r["seek"].as_str().unwrap().to_string();
    let added = b
        .wait("seek-added", |v| v["seek"]["id"] == seek.as_str())
        .await;
    assert_eq!(added["seek"]["name"], "ann");
    assert_eq!(added["seek"]["rating"], 1500);
    assert_eq!(added["seek"]["speed"], "blitz");
    assert_eq!(added["seek"]["rated"], true);
    // A guest can neither seek nor take a rated game.
    let r = g
        .send(json!({"t": "seek", "timeControl": "180+2", "rated": true}))
        .await;
    assert_eq!(r["code"], "rated-needs-account", "{r}");
    let r = g.send(json!({"t": "accept-seek", "seek": seek})).await;
    assert_eq!(r["code"], "rated-needs-account", "{r}");
    // Nor can one take one's own.
    let r = a.send(json!({"t": "accept-seek", "seek": seek})).await;
    assert_eq!(r["code"], "no-such-seek", "{r}");
    let r = b.send(json!({"t": "accept-seek", "seek": seek})).await;
    assert_eq!(r["t"], "ack", "{r}");
    let game = r["game"].as_str().unwrap().to_string();
    let paired = a.wait("paired", |_| true).await;
    assert_eq!(paired["game"], game.as_str());
    g.wait("seek-removed", |v| v["id"] == seek.as_str()).await;
    // The game: Ann white, Bob black, rated, and it plays.
    let mut white = Seat::open(&ann, &game).await;
    assert_eq!(white.state["you"], json!(["white"]));
    assert_eq!(white.state["rated"], true);
    assert_eq!(white.state["black"]["name"], "bob");
    let r = white.send(json!({"t": "move", "uci": "e2e4"})).await;
    assert_eq!(r["t"], "ack", "{r}");
    // Taken once: a second taker finds it gone.
    let r = g.send(json!({"t": "accept-seek", "seek": seek})).await;
    assert_eq!(r["code"], "no-such-seek");
}

#[tokio::test]
async fn pools_pair_players_ranges_hold_and_seeks_leave_with_their_seeker() {
    let addr = start(vizier_server::Limits::default()).await;
    let (ann, bob, cai) = (
        account(addr, "ann").await,
        account(addr, "bob").await,
        account(addr, "cai").await,
    );
    let mut a = LobbyClient::open(&ann).await;
    let mut b = LobbyClient::open(&bob).await;
    let r = a.send(json!({"t": "pool", "timeControl": "180+2"})).await;
    assert_eq!(r["t"], "ack", "{r}");
    let r = b.send(json!({"t": "pool", "timeControl": "180+2"})).await;
    assert_eq!(r["t"], "ack", "{r}");
    let pa = a.wait("paired", |_| true).await;
    let pb = b.wait("paired", |_| true).await;
    assert_eq!(pa["game"], pb["game"]);
    let r = a.send(json!({"t": "pool", "timeControl": "170+2"})).await;
    assert_eq!(r["code"], "bad-request", "only the tiles have pools");

    // A range that leaves a 1500 out.
    let r = a
        .send(json!({"t": "seek", "timeControl": "300+3", "ratingRange": [1600, 2000]}))
        .await;
    let seek = r["seek"].as_str().unwrap().to_string();
    let r = b.send(json!({"t": "accept-seek", "seek": seek})).await;
    assert_eq!(r["code"], "no-such-seek", "{r}");
    // The seek goes when its seeker leaves the lobby.
    let mut c = LobbyClient::open(&cai).await;
    drop(a);
    c.wait("seek-removed", |v| v["id"] == seek.as_str()).await;
    // Seeks are bounded per player.
    for i in 0..3 {
        let r = c.send(json!({"t": "seek", "timeControl": "600"})).await;
        assert_eq!(r["t"], "ack", "seek {i}: {r}");
    }
    let r = c.send(json!({"t": "seek", "timeControl": "600"})).await;
    assert_eq!(r["code"], "too-many-games", "{r}");
    let r = c.send(json!({"t": "seek", "timeControl": "-"})).await;
    assert_eq!(r["code"], "bad-request", "{r}");
    // The online count reaches the lobby.
    c.wait("online", |v| v["count"].as_u64().is_some_and(|n| n >= 2))
        .await;
}
