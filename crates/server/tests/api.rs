//! The lichess-compatible API under load and abuse: a client that stops reading its stream
//! does not slow the game, tokens are scoped, rate-limited and revocable, and bots play each
//! other a limited number of games a day. (lichess's own clients drive the API end to end in
//! `tools/api_clients.py` and `web/e2e/api.test.mjs`.)

mod common;

use std::time::{Duration, Instant};

use common::{Browser, creds, start};
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use vizier_rules::{Position, UciCastling};

/// Signs `name` up and makes a token with `scopes`.
async fn account(addr: std::net::SocketAddr, name: &str, scopes: &[&str]) -> String {
    let b = Browser::new(addr).await;
    let (status, _) = b.post("/signup", creds(name, "a good password")).await;
    assert_eq!(status, 201);
    let (status, made) = b
        .post(
            "/api/account/tokens",
            json!({"description": "test", "scopes": scopes}),
        )
        .await;
    assert_eq!(status, 200, "{made}");
    made["token"].as_str().unwrap().to_string()
}

/// A client of the API with `token`.
struct Client {
    addr: std::net::SocketAddr,
    token: String,
    http: reqwest::Client,
}

impl Client {
    fn new(addr: std::net::SocketAddr, token: &str) -> Client {
        Client {
            addr,
            token: token.to_string(),
            http: reqwest::Client::new(),
        }
    }

    async fn post(&self, path: &str, body: Value) -> (u16, Value, Option<String>) {
        let r = self
            .http
            .post(format!("http://{}{path}", self.addr))
            .bearer_auth(&self.token)
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        let retry = r
            .headers()
            .get("retry-after")
            .map(|v| v.to_str().unwrap().to_string());
        (status, r.json().await.unwrap_or(Value::Null), retry)
    }

    /// A stream's lines, as they come.
    async fn stream(&self, path: &str) -> tokio::sync::mpsc::Receiver<Value> {
        let mut r = self
            .http
            .get(format!("http://{}{path}", self.addr))
            .bearer_auth(&self.token)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200, "{path}");
        let (tx, rx) = tokio::sync::mpsc::channel(1_000);
        tokio::spawn(async move {
            let mut buffer = Vec::new();
            // Dropping the receiver closes the connection at once.
            while let Ok(Some(chunk)) = tokio::select! {
                chunk = r.chunk() => chunk,
                () = tx.closed() => return,
            } {
                buffer.extend_from_slice(&chunk);
                while let Some(nl) = buffer.iter().position(|&b| b == b'\n') {
                    let line: Vec<u8> = buffer.drain(..=nl).collect();
                    if line.len() > 1
                        && tx
                            .send(serde_json::from_slice(&line).unwrap())
                            .await
                            .is_err()
                    {
                        return;
                    }
                }
            }
        });
        rx
    }
}

/// The next line of a stream of type `kind`.
async fn next_of(rx: &mut tokio::sync::mpsc::Receiver<Value>, kind: &str) -> Value {
    let wait = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let line = rx.recv().await.expect("the stream closed");
            if line["type"] == kind {
                return line;
            }
        }
    });
    wait.await.unwrap_or_else(|_| panic!("no {kind} line"))
}

/// `a` challenges `b` (each a client with challenge and board scopes) and `b` accepts: the
/// game, `a` White, at 10+5.
async fn game_between(a: &Client, a_name: &str, b: &Client, b_name: &str) -> String {
    game_at(a, a_name, b, b_name, 600, 5).await
}

/// As [`game_between`], at `limit` + `increment` seconds.
async fn game_at(
    a: &Client,
    a_name: &str,
    b: &Client,
    b_name: &str,
    limit: u64,
    increment: u64,
) -> String {
    let mut events = b.stream("/api/stream/event").await;
    let body = json!({"clock.limit": limit, "clock.increment": increment, "color": "white"});
    let (status, sent, _) = a.post(&format!("/api/challenge/{b_name}"), body).await;
    assert_eq!(status, 200, "{sent}");
    let challenge = next_of(&mut events, "challenge").await;
    assert_eq!(challenge["challenge"]["challenger"]["name"], a_name);
    let id = challenge["challenge"]["id"].as_str().unwrap().to_string();
    let (status, _, _) = b
        .post(&format!("/api/challenge/{id}/accept"), json!({}))
        .await;
    assert_eq!(status, 200);
    let start = next_of(&mut events, "gameStart").await;
    start["game"]["gameId"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn a_stream_its_client_stopped_reading_does_not_slow_the_game() {
    let addr = start(vizier_server::Limits::DEFAULT).await;
    let scopes = ["board:play", "challenge:write", "challenge:read"];
    let (ta, tb) = (
        account(addr, "Ana", &scopes).await,
        account(addr, "Ben", &scopes).await,
    );
    let (a, b) = (Client::new(addr, &ta), Client::new(addr, &tb));
    let game = game_between(&a, "Ana", &b, "Ben").await;

    // A client that opens Ana's stream with a tiny window and never reads a byte.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(256).unwrap();
    let mut stalled = socket.connect(addr).await.unwrap();
    let request = format!(
        "GET /api/board/game/stream/{game} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {ta}\r\n\r\n"
    );
    stalled.write_all(request.as_bytes()).await.unwrap();

    // Ben watches his own stream, read as it comes; both play random legal moves.
    let mut watched = b.stream(&format!("/api/board/game/stream/{game}")).await;
    next_of(&mut watched, "gameFull").await;
    let mut pos = Position::new();
    let mut slowest = Duration::ZERO;
    let mut plies = 0;
    let mut rng = 7u64;
    while plies < 300 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mv = moves[(rng >> 33) as usize % moves.len()];
        let uci = pos.uci(mv, UciCastling::KingStep);
        let mover = if plies % 2 == 0 { &a } else { &b };
        let sent = Instant::now();
        let (status, answer, _) = mover
            .post(&format!("/api/board/game/{game}/move/{uci}"), json!({}))
            .await;
        // The game may end by the Laws (fivefold, 75 moves, dead position) before 300 plies.
        if status != 200 {
            assert!(answer["error"].is_string(), "{answer}");
            break;
        }
        let state = next_of(&mut watched, "gameState").await;
        slowest = slowest.max(sent.elapsed());
        pos.play_unchecked(mv);
        plies += 1;
        assert_eq!(
            state["moves"].as_str().unwrap().split(' ').count(),
            plies,
            "{state}"
        );
        if state["status"] != "started" {
            break;
        }
    }
    assert!(plies >= 100, "only {plies} plies were played");
    assert!(
        slowest < Duration::from_millis(500),
        "a move took {slowest:?} to reach the other player while a stream stalled"
    );
    drop(stalled);
}

#[tokio::test]
async fn tokens_are_scoped_rate_limited_and_revocable() {
    let limits = vizier_server::Limits {
        api_requests_per_token_second: 1,
        ..vizier_server::Limits::DEFAULT
    };
    let addr = start(limits).await;
    let owner = Browser::new(addr).await;
    owner
        .post("/signup", creds("Cleo", "a good password"))
        .await;
    let (_, made) = owner
        .post(
            "/api/account/tokens",
            json!({"description": "reader", "scopes": ["challenge:read"]}),
        )
        .await;
    let token = made["token"].as_str().unwrap().to_string();
    let c = Client::new(addr, &token);

    // The token may read challenges, not play.
    let (status, body, _) = c.post("/api/bot/account/upgrade", json!({})).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (403, Some("Missing scope: bot:play"))
    );
    // A scope that does not exist is refused when the token is made.
    let (status, _) = owner
        .post(
            "/api/account/tokens",
            json!({"description": "x", "scopes": ["web:mod"]}),
        )
        .await;
    assert_eq!(status, 400);
    // A token cannot make tokens.
    let (status, _, _) = c
        .post(
            "/api/account/tokens",
            json!({"description": "x", "scopes": ["bot:play"]}),
        )
        .await;
    assert_eq!(status, 403);

    // The event stream is open while the token lives.
    let mut events = c.stream("/api/stream/event").await;
    // Ten requests may come at once; then lichess's 429, with when to try again.
    let mut refused = None;
    for _ in 0..30 {
        let (status, body, retry) = c.post("/api/bot/account/upgrade", json!({})).await;
        if status == 429 {
            refused = Some((body, retry));
            break;
        }
    }
    let (body, retry) = refused.expect("no request was refused");
    assert_eq!(
        body,
        json!({"error": "Too many requests. Try again later."})
    );
    assert!(retry.is_some_and(|r| r.parse::<u32>().is_ok()));

    // Revoked: the token is unknown at once, and its stream ends.
    let (_, list) = owner.get("/api/account/tokens").await;
    let id = list[0]["id"].as_str().unwrap();
    assert!(list[0]["usedAt"].is_i64(), "{list}");
    let r = owner
        .http
        .delete(owner.url(&format!("/api/account/tokens/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let ended = tokio::time::timeout(Duration::from_secs(5), async {
        while events.recv().await.is_some() {}
    });
    assert!(
        ended.await.is_ok(),
        "the revoked token's stream stayed open"
    );
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    let (status, body, _) = c.post("/api/bot/account/upgrade", json!({})).await;
    assert_eq!((status, body), (401, json!({"error": "No such token"})));
    let tested = reqwest::Client::new()
        .post(format!("http://{addr}/api/token/test"))
        .body(token.clone())
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap();
    assert_eq!(tested, json!({ token: null }));
}

#[tokio::test]
async fn bots_play_each_other_a_limited_number_of_games_a_day() {
    let limits = vizier_server::Limits {
        bot_games_a_day: 1,
        ..vizier_server::Limits::DEFAULT
    };
    let addr = start(limits).await;
    let scopes = ["bot:play"];
    let mut bots = Vec::new();
    for name in ["Ada", "Bob", "Cyd"] {
        let c = Client::new(addr, &account(addr, name, &scopes).await);
        let (status, _, _) = c.post("/api/bot/account/upgrade", json!({})).await;
        assert_eq!(status, 200);
        bots.push(c);
    }
    let [ada, bob, cyd] = &bots[..] else {
        unreachable!()
    };
    let mut events = bob.stream("/api/stream/event").await;
    let (status, _, _) = ada
        .post("/api/challenge/Bob", json!({"clock.limit": 60}))
        .await;
    assert_eq!(status, 200);
    let id = next_of(&mut events, "challenge").await["challenge"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, _, _) = bob
        .post(&format!("/api/challenge/{id}/accept"), json!({}))
        .await;
    assert_eq!(status, 200);
    // Ada has played her one game against a bot today: 429, with lichess's key.
    let (status, body, _) = ada
        .post("/api/challenge/Cyd", json!({"clock.limit": 60}))
        .await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(body["ratelimit"]["key"], "bot.vsBot.day");
    assert!(body["ratelimit"]["seconds"].as_u64().unwrap() <= 86_400);
    // Cyd may not challenge Bob, who has played his: 400, naming him.
    let (status, body, _) = cyd
        .post("/api/challenge/Bob", json!({"clock.limit": 60}))
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .starts_with("Bob played 1 games")
    );
    assert_eq!(body["ratelimit"]["key"], "bot.vsBot.day");
}

#[tokio::test]
async fn a_board_seek_waits_in_the_lobby_until_taken() {
    let addr = start(vizier_server::Limits::DEFAULT).await;
    let token = account(addr, "Dee", &["board:play"]).await;
    let board = Client::new(addr, &token);
    let mut events = board.stream("/api/stream/event").await;
    let taker = Browser::new(addr).await;
    taker.post("/signup", creds("Eve", "a good password")).await;
    let mut lobby = common::LobbyClient::open(&taker).await;

    // The seek's answer is a stream that lives as long as the seek.
    let seek = board
        .http
        .post(format!("http://{addr}/api/board/seek"))
        .bearer_auth(&token)
        .form(&[("time", "5"), ("increment", "3"), ("color", "white")])
        .send()
        .await
        .unwrap();
    assert_eq!(seek.status(), 200);
    let added = lobby
        .wait("seek-added", |v| v["seek"]["name"] == "Dee")
        .await;
    assert_eq!(added["seek"]["timeControl"], "300+3");
    let id = added["seek"]["id"].as_str().unwrap();
    let r = lobby.send(json!({"t": "accept-seek", "seek": id})).await;
    assert_eq!(r["t"], "ack", "{r}");
    // Taken: the server closes the seek's stream, and the game starts for the board.
    let closed = tokio::time::timeout(Duration::from_secs(5), seek.bytes()).await;
    assert!(closed.is_ok(), "the seek's stream stayed open once taken");
    let start = next_of(&mut events, "gameStart").await;
    assert_eq!(start["game"]["color"], "white");
    assert_eq!(start["game"]["opponent"]["username"], "Eve");

    // A seek whose client goes away is withdrawn.
    let seek = board
        .http
        .post(format!("http://{addr}/api/board/seek"))
        .bearer_auth(&token)
        .form(&[("time", "10"), ("increment", "0")])
        .send()
        .await
        .unwrap();
    let added = lobby
        .wait("seek-added", |v| v["seek"]["timeControl"] == "600")
        .await;
    let id = added["seek"]["id"].as_str().unwrap().to_string();
    drop(seek);
    lobby.wait("seek-removed", |v| v["id"] == id).await;
}

#[tokio::test]
async fn a_board_client_claims_a_threefold_repetition() {
    let addr = start(vizier_server::Limits::DEFAULT).await;
    let scopes = ["board:play", "challenge:write", "challenge:read"];
    let (ta, tb) = (
        account(addr, "Fay", &scopes).await,
        account(addr, "Gus", &scopes).await,
    );
    let (a, b) = (Client::new(addr, &ta), Client::new(addr, &tb));
    let game = game_between(&a, "Fay", &b, "Gus").await;
    let mut watched = a.stream(&format!("/api/board/game/stream/{game}")).await;
    next_of(&mut watched, "gameFull").await;
    let claim = format!("/api/board/game/{game}/claim-draw");
    // Not yet: nothing to claim, and the game goes on.
    let (status, body, _) = a.post(&claim, json!({})).await;
    assert_eq!(status, 400, "{body}");
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    for (i, uci) in shuffle.iter().chain(&shuffle).enumerate() {
        let mover = if i % 2 == 0 { &a } else { &b };
        let (status, body, _) = mover
            .post(&format!("/api/board/game/{game}/move/{uci}"), json!({}))
            .await;
        assert_eq!(status, 200, "{uci}: {body}");
        next_of(&mut watched, "gameState").await;
    }
    // The start position a third time, White to move: White's claim is correct (Art. 9.2).
    let (status, body, _) = b.post(&claim, json!({})).await;
    assert_eq!(status, 400, "only the side to move claims: {body}");
    let (status, body, _) = a.post(&claim, json!({})).await;
    assert_eq!((status, body), (200, json!({"ok": true})));
    let end = next_of(&mut watched, "gameState").await;
    assert_eq!(end["status"], "draw", "{end}");
    assert!(end.get("winner").is_none());
}

#[tokio::test]
async fn an_app_on_another_site_calls_the_api_with_a_token_but_never_with_cookies() {
    let addr = start(vizier_server::Limits::DEFAULT).await;
    let token = account(addr, "Hal", &["challenge:write", "board:play"]).await;
    account(addr, "Ivy", &["board:play"]).await;
    let http = reqwest::Client::new();
    // The browser's preflight for a token request from elsewhere is allowed...
    let r = http
        .request(
            reqwest::Method::OPTIONS,
            format!("http://{addr}/api/challenge/Ivy"),
        )
        .header("origin", "https://board-app.example")
        .header("access-control-request-method", "POST")
        .header(
            "access-control-request-headers",
            "authorization,content-type",
        )
        .send()
        .await
        .unwrap();
    assert!(r.status().is_success());
    assert_eq!(r.headers()["access-control-allow-origin"], "*");
    assert!(
        r.headers()
            .get("access-control-allow-credentials")
            .is_none()
    );
    // ...and so is the request itself.
    let r = http
        .post(format!("http://{addr}/api/challenge/Ivy"))
        .header("origin", "https://board-app.example")
        .bearer_auth(&token)
        .json(&json!({"clock.limit": 300, "clock.increment": 0}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    // The same request with the player's cookies instead is refused.
    let b = Browser::new(addr).await;
    b.post("/login", creds("Hal", "a good password")).await;
    let r = b
        .http
        .post(b.url("/api/challenge/Ivy"))
        .header("origin", "https://board-app.example")
        .json(&json!({"clock.limit": 300}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
}

#[tokio::test]
async fn a_board_client_is_told_its_opponent_left_and_claims_the_win() {
    let addr = start(vizier_server::Limits::DEFAULT).await;
    let scopes = ["board:play", "challenge:write", "challenge:read"];
    let (ta, tb) = (
        account(addr, "Jo", &scopes).await,
        account(addr, "Kim", &scopes).await,
    );
    let (a, b) = (Client::new(addr, &ta), Client::new(addr, &tb));
    // At 1+0 a player gone 10 s may be claimed against.
    let game = game_at(&a, "Jo", &b, "Kim", 60, 0).await;
    let path = format!("/api/board/game/stream/{game}");
    let mut mine = a.stream(&path).await;
    let theirs = b.stream(&path).await;
    next_of(&mut mine, "gameFull").await;
    for (mover, uci) in [(&a, "e2e4"), (&b, "e7e5")] {
        let (status, _, _) = mover
            .post(&format!("/api/board/game/{game}/move/{uci}"), json!({}))
            .await;
        assert_eq!(status, 200);
        next_of(&mut mine, "gameState").await;
    }
    // Kim closes the stream: Jo is told, with when the win may be claimed.
    drop(theirs);
    let gone = next_of(&mut mine, "opponentGone").await;
    assert_eq!(gone["gone"], true, "{gone}");
    let wait = gone["claimWinInSeconds"].as_u64().unwrap();
    assert!((1..=10).contains(&wait), "{gone}");
    let claim = format!("/api/board/game/{game}/claim-victory");
    let (status, _, _) = a.post(&claim, json!({})).await;
    assert_eq!(status, 400, "too early to claim");
    tokio::time::sleep(Duration::from_secs(wait) + Duration::from_millis(300)).await;
    let (status, body, _) = a.post(&claim, json!({})).await;
    assert_eq!((status, body), (200, json!({"ok": true})));
    let end = next_of(&mut mine, "gameState").await;
    assert_eq!(
        (end["status"].as_str(), end["winner"].as_str()),
        (Some("timeout"), Some("white")),
        "{end}"
    );
}

#[tokio::test]
async fn a_bot_takes_no_seek_where_a_person_on_another_page_may() {
    let addr = start(vizier_server::Limits::DEFAULT).await;
    let seeker = Browser::new(addr).await;
    seeker
        .post("/signup", creds("Lea", "a good password"))
        .await;
    let mut lobby = common::LobbyClient::open(&seeker).await;
    let r = lobby
        .send(json!({"t": "seek", "timeControl": "300+3", "rated": false}))
        .await;
    let seek = r["seek"].as_str().unwrap().to_string();

    // A bot, signed in at the site, on its lobby socket.
    let bot = Browser::new(addr).await;
    bot.post("/signup", creds("Max", "a good password")).await;
    let (_, made) = bot
        .post(
            "/api/account/tokens",
            json!({"description": "b", "scopes": ["bot:play"]}),
        )
        .await;
    let token = made["token"].as_str().unwrap();
    let (status, _, _) = Client::new(addr, token)
        .post("/api/bot/account/upgrade", json!({}))
        .await;
    assert_eq!(status, 200);
    let mut bots = common::LobbyClient::open(&bot).await;
    let r = bots.send(json!({"t": "accept-seek", "seek": seek})).await;
    assert_eq!(r["t"], "error", "{r}");
    let r = bots
        .send(json!({"t": "seek", "timeControl": "300+3", "rated": false}))
        .await;
    assert_eq!(r["t"], "error", "{r}");

    // A person on another page (a private lobby socket) takes it.
    let person = Browser::new(addr).await;
    person
        .post("/signup", creds("Ned", "a good password"))
        .await;
    let mut elsewhere =
        common::LobbyClient::open_at(&person, "/api/lobby/socket?only=private").await;
    let r = elsewhere
        .send(json!({"t": "accept-seek", "seek": seek}))
        .await;
    assert_eq!(r["t"], "ack", "{r}");
}
