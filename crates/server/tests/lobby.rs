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

/// Two accounts, Ann and Bob, and a guest.
async fn ann_bob_and_a_guest(addr: std::net::SocketAddr) -> (Browser, Browser, Browser) {
    let ann = account(addr, "ann").await;
    let bob = account(addr, "bob").await;
    (ann, bob, Browser::new(addr).await)
}

#[tokio::test]
async fn a_seek_is_seen_taken_and_both_are_paired() {
    seek_taken(start(vizier_server::Limits::default()).await).await;
}

/// The same on PostgreSQL, in a schema of its own (where `VIZIER_TEST_POSTGRES` is set).
#[tokio::test]
#[ignore = "needs PostgreSQL: VIZIER_TEST_POSTGRES (scripts/test.sh starts one)"]
async fn a_seek_on_postgres() {
    let url = common::postgres_schema().await;
    seek_taken(common::start_on(vizier_server::Limits::default(), Some(url)).await).await;
}

async fn seek_taken(addr: std::net::SocketAddr) {
    let (ann, bob, guest) = ann_bob_and_a_guest(addr).await;
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

#[tokio::test]
async fn a_challenge_by_name_is_seen_live_and_accepted_or_declined() {
    let addr = start(vizier_server::Limits::default()).await;
    let (ann, bob, guest) = ann_bob_and_a_guest(addr).await;
    let mut b = LobbyClient::open(&bob).await;
    let mut a = LobbyClient::open(&ann).await;
    // As lichess's clients send it: a form with dotted names.
    let r = ann
        .http
        .post(ann.url("/api/challenge/BOB"))
        .form(&[
            ("rated", "true"),
            ("clock.limit", "300"),
            ("clock.increment", "3"),
            ("color", "black"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let c: serde_json::Value = r.json().await.unwrap();
    assert_eq!(
        (
            c["status"].as_str(),
            c["speed"].as_str(),
            c["rated"].as_bool()
        ),
        (Some("created"), Some("blitz"), Some(true))
    );
    assert_eq!(c["destUser"]["name"], "bob");
    assert_eq!(
        c["timeControl"],
        json!({"type": "clock", "limit": 300, "increment": 3, "show": "5+3"})
    );
    let id = c["id"].as_str().unwrap().to_string();
    let seen = b
        .wait("challenge", |v| v["challenge"]["id"] == id.as_str())
        .await;
    assert_eq!(seen["challenge"]["challenger"]["name"], "ann");
    let (_, list) = bob.get("/api/challenge").await;
    assert_eq!(list["in"][0]["id"], id.as_str());
    let (_, list) = ann.get("/api/challenge").await;
    assert_eq!(list["out"][0]["id"], id.as_str());
    // Only Bob may answer; a guest may not challenge.
    assert_eq!(
        ann.post(&format!("/api/challenge/{id}/accept"), json!({}))
            .await
            .0,
        404
    );
    assert_eq!(guest.post("/api/challenge/bob", json!({})).await.0, 401);
    assert_eq!(ann.post("/api/challenge/ann", json!({})).await.0, 400);
    assert_eq!(ann.post("/api/challenge/nobody", json!({})).await.0, 404);
    let (status, accepted) = bob
        .post(&format!("/api/challenge/{id}/accept"), json!({}))
        .await;
    assert_eq!(status, 200, "{accepted}");
    let game = accepted["game"].as_str().unwrap().to_string();
    let told = a
        .wait("challenge", |v| v["challenge"]["status"] == "accepted")
        .await;
    assert_eq!(told["challenge"]["game"], game.as_str());
    a.wait("paired", |v| v["game"] == game.as_str()).await;
    let seat = Seat::open(&ann, &game).await;
    assert_eq!(seat.state["you"], json!(["black"]), "Ann asked for Black");
    assert_eq!(seat.state["timeControl"], "300+3");
    assert_eq!(seat.state["rated"], true);

    // A second challenge, declined with a reason.
    let (_, c) = ann
        .post(
            "/api/challenge/bob",
            json!({"clock": {"limit": 60, "increment": 0}}),
        )
        .await;
    let id = c["id"].as_str().unwrap().to_string();
    assert_eq!(c["speed"], "bullet");
    let (status, _) = bob
        .post(
            &format!("/api/challenge/{id}/decline"),
            json!({"reason": "tooFast"}),
        )
        .await;
    assert_eq!(status, 200);
    let told = a
        .wait("challenge", |v| v["challenge"]["status"] == "declined")
        .await;
    assert_eq!(told["challenge"]["declineReason"], "tooFast");
    assert_eq!(
        bob.post(&format!("/api/challenge/{id}/accept"), json!({}))
            .await
            .0,
        404
    );
    // A third, withdrawn.
    let (_, c) = ann.post("/api/challenge/bob", json!({})).await;
    let id = c["id"].as_str().unwrap().to_string();
    assert_eq!(
        ann.post(&format!("/api/challenge/{id}/cancel"), json!({}))
            .await
            .0,
        200
    );
    b.wait("challenge", |v| v["challenge"]["status"] == "canceled")
        .await;
}

#[tokio::test]
async fn a_player_who_leaves_can_be_claimed_against_after_the_countdown() {
    let addr = start(vizier_server::Limits::default()).await;
    let (ann, bob) = (Browser::new(addr).await, Browser::new(addr).await);
    let (_, created) = ann
        .post(
            "/api/games",
            json!({"kind": "friend", "timeControl": "60", "color": "white"}),
        )
        .await;
    let game = created["id"].as_str().unwrap().to_string();
    let mut white = Seat::open(&ann, &game).await;
    let invite = white.state["invite"].as_str().unwrap().to_string();
    let mut black = Seat::open(&bob, &game).await;
    assert_eq!(
        black.send(json!({"t": "join", "invite": invite})).await["t"],
        "ack"
    );
    assert_eq!(
        white.send(json!({"t": "move", "uci": "e2e4"})).await["t"],
        "ack"
    );
    assert_eq!(
        black.send(json!({"t": "move", "uci": "e7e5"})).await["t"],
        "ack"
    );
    // Ann's only socket goes: Bob sees the countdown (a 1-minute game: 10 s).
    drop(white);
    let s = black.state_where(|s| s["gone"].is_array()).await;
    assert_eq!(s["gone"][0]["side"], "white");
    let wait = s["gone"][0]["claimableAt"].as_u64().unwrap() - s["serverTime"].as_u64().unwrap();
    assert!((9_000..=10_000).contains(&wait), "{wait}");
    let r = black.send(json!({"t": "claim-left"})).await;
    assert_eq!(r["code"], "opponent-not-gone", "{r}");
    tokio::time::sleep(std::time::Duration::from_millis(wait + 200)).await;
    let r = black.send(json!({"t": "claim-left"})).await;
    assert_eq!(r["t"], "ack", "{r}");
    let end = black.state_where(|s| s["status"] == "over").await;
    assert_eq!(
        (
            end["result"]["reason"].as_str(),
            end["result"]["pgn"].as_str()
        ),
        (Some("left"), Some("0-1"))
    );
    assert!(end["gone"].is_null(), "no countdown once it is over");
}

#[tokio::test]
async fn another_pages_socket_hears_challenges_and_keeps_no_seek_open() {
    let addr = start(vizier_server::Limits::default()).await;
    let (ann, bob) = (account(addr, "ann").await, account(addr, "bob").await);
    let mut watcher = LobbyClient::open(&ann).await;
    let mut elsewhere = LobbyClient::open_at(&bob, "/api/lobby/socket?only=private").await;
    // Bob seeks from the home page, then goes to another page: his seek goes with him.
    let mut home = LobbyClient::open(&bob).await;
    let r = home.send(json!({"t": "seek", "timeControl": "600"})).await;
    let seek = r["seek"].as_str().unwrap().to_string();
    watcher
        .wait("seek-added", |v| v["seek"]["id"] == seek.as_str())
        .await;
    drop(home);
    watcher
        .wait("seek-removed", |v| v["id"] == seek.as_str())
        .await;
    // On the other page he hears Ann's challenge, and nothing of the lobby's seeks.
    let (status, c) = ann
        .post(
            "/api/challenge/bob",
            json!({"clock": {"limit": 300, "increment": 0}}),
        )
        .await;
    assert_eq!(status, 200, "{c}");
    let told = elsewhere
        .wait("challenge", |v| v["challenge"]["id"] == c["id"])
        .await;
    assert_eq!(told["challenge"]["challenger"]["name"], "ann");
    assert!(
        !elsewhere.seen.iter().any(|v| v["t"] == "seek-added"),
        "{:?}",
        elsewhere.seen
    );
    // Accepted there, both are paired.
    let id = c["id"].as_str().unwrap();
    let (status, accepted) = bob
        .post(&format!("/api/challenge/{id}/accept"), json!({}))
        .await;
    assert_eq!(status, 200, "{accepted}");
    let game = accepted["game"].as_str().unwrap();
    elsewhere.wait("paired", |v| v["game"] == game).await;
    watcher.wait("paired", |v| v["game"] == game).await;
}

/// The games being played are listed in the lobby as they start and leave it as they end:
/// the lobby follows the site's games.
#[tokio::test]
async fn the_games_being_played_come_and_go_with_their_games() {
    let addr = start(vizier_server::Limits::default()).await;
    let (ann, bob, guest) = ann_bob_and_a_guest(addr).await;
    let mut a = LobbyClient::open(&ann).await;
    let mut b = LobbyClient::open(&bob).await;
    let mut g = LobbyClient::open(&guest).await;
    let r = a
        .send(json!({"t": "seek", "timeControl": "300+3", "color": "white"}))
        .await;
    let seek = r["seek"].as_str().unwrap().to_string();
    b.wait("seek-added", |v| v["seek"]["id"] == seek.as_str())
        .await;
    let r = b.send(json!({"t": "accept-seek", "seek": seek})).await;
    let game = r["game"].as_str().unwrap().to_string();
    let listed = |v: &serde_json::Value| {
        (v["games"].as_array().into_iter().flatten()).any(|g| g["id"] == game.as_str())
    };
    let now = g.wait("games", listed).await;
    let row = (now["games"].as_array().unwrap().iter())
        .find(|r| r["id"] == game.as_str())
        .unwrap();
    assert_eq!(row["white"], "ann");
    assert_eq!(row["black"], "bob");
    assert_eq!(row["timeControl"], "300+3");
    let mut white = Seat::open(&ann, &game).await;
    g.seen.clear();
    let r = white.send(json!({"t": "resign"})).await;
    assert_eq!(r["t"], "ack", "{r}");
    g.wait("games", |v| !listed(v)).await;
}
