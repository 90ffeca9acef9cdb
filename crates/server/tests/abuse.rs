//! The server under attack, one attack at a time, on loopback: each test is an attack that
//! once crashed, locked out or filled the server, and the legitimate use that must go on
//! beside it. Clients "elsewhere" connect from other loopback addresses (127.0.0.2, …).
//! `scripts/abuse.sh` runs the floods together against the release binary.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::{Browser, Seat, creds, next_json, start};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

/// `GET /healthz` from 127.0.0.1: its status and how long it took.
async fn health(addr: SocketAddr) -> (u16, Duration) {
    let started = Instant::now();
    let status = tokio::time::timeout(
        Duration::from_secs(5),
        reqwest::get(format!("http://{addr}/healthz")),
    )
    .await
    .map(|r| r.map(|r| r.status().as_u16()).unwrap_or(0))
    .unwrap_or(0);
    (status, started.elapsed())
}

/// A TCP connection to `addr` from loopback address `local`.
async fn tcp_from(addr: SocketAddr, local: [u8; 4]) -> std::io::Result<tokio::net::TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(SocketAddr::from((local, 0)))?;
    socket.connect(addr).await
}

/// What `tcp` says within `wait`, and whether it was closed (or broken) by then.
async fn read_all(tcp: &mut tokio::net::TcpStream, wait: Duration) -> (String, bool) {
    let mut text = Vec::new();
    let closed = tokio::time::timeout(wait, async {
        let mut buf = [0u8; 1024];
        loop {
            match tcp.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => text.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await
    .is_ok();
    (String::from_utf8_lossy(&text).into_owned(), closed)
}

#[tokio::test]
async fn deeply_nested_variations_get_an_error_not_a_crash() {
    let addr = start(vizier_server::Limits::default()).await;
    let b = Browser::new(addr).await;
    let mut ws = b.socket("/api/analysis/socket").await;
    for depth in [3_000, 7_000] {
        let pgn = format!("1. e4 {}{} *", "(1. d4 ".repeat(depth), ")".repeat(depth));
        let msg = json!({"t": "import", "id": depth, "pgn": pgn}).to_string();
        ws.send(Message::Text(msg.into())).await.unwrap();
        let reply = next_json(&mut ws).await;
        assert_eq!(
            (&reply["t"], &reply["id"]),
            (&json!("error"), &json!(depth))
        );
        assert!(
            reply["message"]
                .as_str()
                .unwrap()
                .contains("nest more than"),
            "{reply}"
        );
    }
    // A long game, each move a level deeper in the tree, is read whole.
    let pgn = format!("{} *", "Nf3 Nf6 Ng1 Ng8 ".repeat(1_000));
    let msg = json!({"t": "import", "id": 1, "pgn": pgn}).to_string();
    ws.send(Message::Text(msg.into())).await.unwrap();
    // Nested 4,000 deep: past what serde_json reads by default, so read as text.
    let reply = loop {
        if let Some(Ok(Message::Text(t))) = ws.next().await {
            break t.to_string();
        }
    };
    assert!(
        reply.starts_with(r#"{"v":1,"t":"imported","id":1,"#),
        "{}",
        &reply[..80]
    );
    assert_eq!(reply.matches(r#""san":"#).count(), 4_000);
    assert!(reply.ends_with(&format!("{}]}}", "]}".repeat(4_000))));
    assert_eq!(health(addr).await.0, 200);
}

#[tokio::test]
async fn slow_bodies_are_cut_off_and_cannot_take_every_connection() {
    let limits = vizier_server::Limits {
        max_connections: 100,
        connections_per_address: 40,
        ..vizier_server::Limits::default()
    };
    let addr = start(limits).await;
    // 120 connections from one address, each promising a body and sending a byte of it.
    let mut held = Vec::new();
    let mut refused = 0;
    for _ in 0..120 {
        let mut tcp = tcp_from(addr, [127, 0, 0, 2]).await.unwrap();
        let head = "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
                    Content-Length: 100000\r\n\r\n{";
        if tcp.write_all(head.as_bytes()).await.is_err() {
            refused += 1;
            continue;
        }
        held.push(tcp);
    }
    // Those over the address's share are told so at once, and closed.
    let mut answered = 0;
    for tcp in &mut held {
        let (text, closed) = read_all(tcp, Duration::from_millis(50)).await;
        if closed && (text.is_empty() || text.starts_with("HTTP/1.1 429")) {
            answered += 1;
        }
    }
    assert!(
        refused + answered >= 80,
        "{refused} refused, {answered} answered 429"
    );
    // Everyone else is served meanwhile.
    let (status, took) = health(addr).await;
    assert_eq!(status, 200);
    assert!(took < Duration::from_millis(200), "{took:?}");
    // The trickles fall behind the minimum rate after the grace and are cut off.
    tokio::time::sleep(Duration::from_secs(4)).await;
    let mut open = 0;
    for tcp in &mut held {
        let _ = tcp.write_all(b" ").await;
        if !read_all(tcp, Duration::from_millis(300)).await.1 {
            open += 1;
        }
    }
    assert_eq!(open, 0, "trickling connections still open after 4 s");
}

#[tokio::test]
async fn sockets_count_against_their_address() {
    let limits = vizier_server::Limits {
        connections_per_address: 20,
        ..vizier_server::Limits::default()
    };
    let addr = start(limits).await;
    // Cookieless upgrades: each a fresh guest, all from one address.
    let flood = Browser::without_visit(addr, [127, 0, 0, 3]);
    let mut open = Vec::new();
    let mut refusal = None;
    for _ in 0..40 {
        match flood.try_socket("/api/lobby/socket?only=private").await {
            Ok(ws) => open.push(ws),
            Err(status) => {
                refusal = Some(status);
                break;
            }
        }
    }
    assert_eq!(open.len(), 20);
    assert_eq!(refusal, Some(429));
    // Another address is not affected; one closed socket frees a place.
    let b = Browser::new(addr).await;
    assert!(b.try_socket("/api/lobby/socket?only=private").await.is_ok());
    drop(open.pop());
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(
        flood
            .try_socket("/api/lobby/socket?only=private")
            .await
            .is_ok()
    );
}

/// A copy of `b`'s cookies in a browser of its own, as an attacker who planted or read them.
fn copy_of(b: &Browser, local: [u8; 4]) -> Browser {
    let copy = Browser::without_visit(b.addr, local);
    let url: reqwest::Url = b.url("/").parse().unwrap();
    for cookie in b.cookies().split("; ") {
        copy.jar.add_cookie_str(cookie, &url);
    }
    copy
}

#[tokio::test]
async fn a_guest_cookie_from_before_sign_up_is_not_the_account() {
    let addr = start(vizier_server::Limits::default()).await;
    let victim = Browser::new(addr).await;
    let attacker = copy_of(&victim, [127, 0, 0, 4]);
    // The attacker's socket, opened with the planted cookie before the sign-up.
    let mut early = attacker.socket("/api/lobby/socket?only=private").await;
    next_json(&mut early).await;
    assert_eq!(
        victim
            .post("/signup", creds("victim", "a good secret"))
            .await
            .0,
        201
    );
    // That socket is closed.
    let closed = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match early.next().await {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return true,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert_eq!(closed, Ok(true));
    // The victim's game, created after signing up.
    let (status, created) = victim
        .post(
            "/api/games",
            json!({"kind": "computer", "level": 1, "timeControl": "600+0", "color": "white"}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let game = created["id"].as_str().unwrap().to_string();
    assert_eq!(victim.sides(&game).await, json!(["white"]));
    // The old cookie is a fresh guest now: no side, no account, nothing to resign.
    assert_eq!(attacker.sides(&game).await, json!([]));
    assert_eq!(attacker.get("/api/account").await.0, 401);
    let mut seat = Seat::open(&attacker, &game).await;
    let r = seat.send(json!({"t": "resign"})).await;
    assert_eq!(r["t"], "error", "{r}");
    let (status, created) = attacker
        .post(
            "/api/games",
            json!({"kind": "friend", "timeControl": "180+2", "rated": true}),
        )
        .await;
    assert_eq!(status, 401, "{created}");
    // The victim is still playing.
    let mut mine = Seat::open(&victim, &game).await;
    assert_eq!(mine.state["status"], "playing");
    assert_eq!(
        mine.send(json!({"t": "move", "uci": "e2e4"})).await["t"],
        "ack"
    );
}

#[tokio::test]
async fn closing_an_account_closes_its_sockets_and_sessions_everywhere() {
    let addr = start(vizier_server::Limits::default()).await;
    let ann = Browser::new(addr).await;
    assert_eq!(
        ann.post("/signup", creds("ann", "ann's secret")).await.0,
        201
    );
    let phone = Browser::from_address(addr, [127, 0, 0, 5]).await;
    assert_eq!(
        phone.post("/login", creds("ann", "ann's secret")).await.0,
        200
    );
    let mut socket = phone.socket("/api/lobby/socket?only=private").await;
    next_json(&mut socket).await;
    let (status, _) = ann
        .post("/api/account/close", json!({"password": "ann's secret"}))
        .await;
    assert_eq!(status, 200);
    let closed = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match socket.next().await {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return true,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert_eq!(closed, Ok(true));
    assert_eq!(phone.get("/api/account").await.0, 401);
}

#[tokio::test]
async fn wrong_passwords_from_elsewhere_do_not_lock_the_owner_out() {
    let addr = start(vizier_server::Limits::default()).await;
    let owner = Browser::new(addr).await;
    assert_eq!(
        owner
            .post("/signup", creds("olga", "the right one"))
            .await
            .0,
        201
    );
    let attacker = Browser::from_address(addr, [127, 0, 0, 6]).await;
    let mut statuses = Vec::new();
    for i in 0..30 {
        let (status, _) = attacker
            .post("/login", creds("olga", &format!("guess {i}")))
            .await;
        statuses.push(status);
    }
    assert!(statuses.contains(&429), "{statuses:?}");
    // The owner, from an address in good standing, signs in (after a pause at most).
    let elsewhere = Browser::from_address(addr, [127, 0, 0, 7]).await;
    let started = Instant::now();
    let (status, me) = elsewhere
        .post("/login", creds("olga", "the right one"))
        .await;
    assert_eq!(status, 200, "{me}");
    assert!(started.elapsed() < Duration::from_secs(3));
    // A wrong password from there is still refused, and marks that address.
    let third = Browser::from_address(addr, [127, 0, 0, 8]).await;
    assert_eq!(third.post("/login", creds("olga", "wrong")).await.0, 401);
    assert_eq!(
        third.post("/login", creds("olga", "the right one")).await.0,
        429
    );
    // Changing the password uses the session, not the spent sign-in budget.
    let (status, r) = owner
        .post(
            "/api/account/password",
            json!({"current": "the right one", "new": "a new one"}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
}

#[tokio::test]
async fn requests_from_other_sites_change_nothing() {
    let addr = start(vizier_server::Limits::default()).await;
    let b = Browser::new(addr).await;
    for path in [
        "/api/games",
        "/api/games/abcdefghij/review",
        "/api/challenge/someone",
        "/api/challenge/abc/accept",
    ] {
        let r = b
            .http
            .post(b.url(path))
            .header("origin", "http://evil.example")
            .json(&json!({"kind": "local", "timeControl": "300+2"}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 403, "{path}");
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["code"], "foreign-origin", "{path}");
    }
    // The same request from our own pages goes through.
    let r = b
        .http
        .post(b.url("/api/games"))
        .header("origin", format!("http://{addr}"))
        .json(&json!({"kind": "local", "timeControl": "300+2"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 201);
}

#[tokio::test]
async fn reserved_usernames_are_refused() {
    let addr = start(vizier_server::Limits::default()).await;
    let b = Browser::new(addr).await;
    for name in [
        "admin",
        "Root",
        "vizier",
        "anonymous",
        "moderator",
        "system",
        "ad_min",
    ] {
        let (status, e) = b.post("/signup", creds(name, "a good secret")).await;
        assert_eq!(
            (status, e["code"].as_str()),
            (400, Some("bad-username")),
            "{name}"
        );
    }
}

#[tokio::test]
async fn cookies_over_https_are_host_only() {
    let dir = std::env::temp_dir().join(format!("vizier-abuse-{}", rand::random::<u64>()));
    let config = vizier_server::Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        data_dir: dir,
        database: None,
        human_pace: false,
        computer_move_ms: vizier_server::Settings::COMPUTER_MOVE_MS,
        public_url: Some("https://chess.example".into()),
        trust_forwarded_for: false,
        test_clock: false,
        limits: vizier_server::Limits::default(),
    };
    let (tx, rx) = tokio::sync::oneshot::channel();
    tokio::spawn(async move { vizier_server::serve(config, Some(tx)).await.unwrap() });
    let addr = rx.await.unwrap();
    let r = reqwest::get(format!("http://{addr}/")).await.unwrap();
    let cookie = r.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(cookie.starts_with("__Host-vizier_player="), "{cookie}");
    assert!(
        cookie.contains("Secure") && cookie.contains("Path=/"),
        "{cookie}"
    );
    assert!(!cookie.contains("Domain"), "{cookie}");
}

#[tokio::test]
async fn computer_games_are_capped_per_guest_and_per_address() {
    let addr = start(vizier_server::Limits::default()).await;
    let computer =
        json!({"kind": "computer", "level": 10, "timeControl": "600+0", "color": "black"});
    let guest = Browser::from_address(addr, [127, 0, 0, 10]).await;
    for _ in 0..3 {
        assert_eq!(guest.post("/api/games", computer.clone()).await.0, 201);
    }
    let (status, e) = guest.post("/api/games", computer.clone()).await;
    assert_eq!(
        (status, e["code"].as_str()),
        (429, Some("too-many-games")),
        "{e}"
    );
    // Fresh guests at the same address: ten games in all from there.
    let mut made = 3;
    let refused = loop {
        let fresh = Browser::from_address(addr, [127, 0, 0, 10]).await;
        let (status, e) = fresh.post("/api/games", computer.clone()).await;
        if status != 201 {
            break (status, e);
        }
        made += 1;
        assert!(made <= 10, "more than ten computer games from one address");
    };
    assert_eq!(made, 10);
    assert_eq!(refused.0, 429, "{}", refused.1);
    // Elsewhere, a player starts one at once.
    let other = Browser::from_address(addr, [127, 0, 0, 11]).await;
    assert_eq!(other.post("/api/games", computer).await.0, 201);
}

#[tokio::test]
async fn seeks_and_pool_places_belong_to_a_lobby_socket_and_an_address() {
    let addr = start(vizier_server::Limits::default()).await;
    let seek = json!({"t": "seek", "timeControl": "180+2"});
    // Not from a page's private socket, which keeps nothing open.
    let b = Browser::from_address(addr, [127, 0, 0, 12]).await;
    let mut private = common::LobbyClient::open_at(&b, "/api/lobby/socket?only=private").await;
    for msg in [seek.clone(), json!({"t": "pool", "timeControl": "1+0"})] {
        let r = private.send(msg).await;
        assert_eq!(
            (&r["t"], &r["code"]),
            (&json!("error"), &json!("bad-request")),
            "{r}"
        );
    }
    // From one address, ten seeks at most, however many guests make them.
    let mut clients = Vec::new();
    let mut open = 0;
    let mut refused = None;
    'guests: for _ in 0..5 {
        let guest = Browser::without_visit(addr, [127, 0, 0, 12]);
        let mut c = common::LobbyClient::open(&guest).await;
        for _ in 0..3 {
            let r = c.send(seek.clone()).await;
            if r["t"] != "ack" {
                refused = Some(r);
                break 'guests;
            }
            open += 1;
        }
        clients.push(c);
    }
    assert_eq!(open, 10);
    assert_eq!(refused.unwrap()["code"], "too-many-games");
    // Pool places by their label (`1+0`), as the tiles show them.
    let elsewhere = Browser::from_address(addr, [127, 0, 0, 13]).await;
    let mut c = common::LobbyClient::open(&elsewhere).await;
    assert_eq!(
        c.send(json!({"t": "pool", "timeControl": "1+0"})).await["t"],
        "ack"
    );
}

#[tokio::test]
async fn every_path_to_a_new_game_spends_the_addresss_budget() {
    let limits = vizier_server::Limits {
        games: vizier_play::Limits {
            new_games_per_address_hour: 2,
            open_games_per_player: 2,
            ..vizier_play::Limits::DEFAULT
        },
        ..vizier_server::Limits::default()
    };
    let addr = start(limits).await;
    // A game on one device, resigned, then rematched: the rematch is a new game.
    let ann = Browser::from_address(addr, [127, 0, 0, 14]).await;
    let (status, created) = ann
        .post(
            "/api/games",
            json!({"kind": "local", "timeControl": "300+2"}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let mut game = created["id"].as_str().unwrap().to_string();
    let mut refusal = None;
    for _ in 0..3 {
        let mut seat = Seat::open(&ann, &game).await;
        assert_eq!(
            seat.send(json!({"t": "move", "uci": "e2e4"})).await["t"],
            "ack"
        );
        assert_eq!(seat.send(json!({"t": "resign"})).await["t"], "ack");
        // The new game is told before the ack: read both.
        seat.ws
            .send(Message::Text(
                json!({"t": "rematch", "id": 99}).to_string().into(),
            ))
            .await
            .unwrap();
        let next = loop {
            let m = seat.recv().await;
            if m["t"] == "rematch" {
                break Some(m["game"].as_str().unwrap().to_string());
            }
            if m["t"] == "error" && m["id"] == 99 {
                refusal = Some(m);
                break None;
            }
        };
        let Some(next) = next else { break };
        game = next;
    }
    let r = refusal.expect("a rematch past the budget is refused");
    assert_eq!(r["code"], "too-many-games", "{r}");
    // Joining a friend's invite counts among the joiner's unfinished games.
    let bob = Browser::from_address(addr, [127, 0, 0, 15]).await;
    for _ in 0..2 {
        let (status, _) = bob
            .post("/api/games", json!({"kind": "local", "timeControl": "-"}))
            .await;
        assert_eq!(status, 201);
    }
    let cid = Browser::from_address(addr, [127, 0, 0, 16]).await;
    let (status, created) = cid
        .post(
            "/api/games",
            json!({"kind": "friend", "timeControl": "300+2", "color": "white"}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let game = created["id"].as_str().unwrap().to_string();
    let host = Seat::open(&cid, &game).await;
    let invite = host.state["invite"].as_str().unwrap().to_string();
    let mut guest = Seat::open(&bob, &game).await;
    let r = guest.send(json!({"t": "join", "invite": invite})).await;
    assert_eq!(
        (&r["t"], &r["code"]),
        (&json!("error"), &json!("too-many-games")),
        "{r}"
    );
}

#[tokio::test]
async fn quick_pairings_spend_the_budgets_of_both_addresses() {
    let limits = vizier_server::Limits {
        games: vizier_play::Limits {
            new_games_per_address_hour: 2,
            ..vizier_play::Limits::DEFAULT
        },
        ..vizier_server::Limits::default()
    };
    let addr = start(limits).await;
    let mut paired = 0;
    for _ in 0..4 {
        let (a, b) = (
            Browser::without_visit(addr, [127, 0, 0, 17]),
            Browser::without_visit(addr, [127, 0, 0, 17]),
        );
        let (mut ca, mut cb) = (
            common::LobbyClient::open(&a).await,
            common::LobbyClient::open(&b).await,
        );
        assert_eq!(
            ca.send(json!({"t": "pool", "timeControl": "1+0"})).await["t"],
            "ack"
        );
        assert_eq!(
            cb.send(json!({"t": "pool", "timeControl": "1+0"})).await["t"],
            "ack"
        );
        let got = tokio::time::timeout(Duration::from_secs(3), ca.wait("paired", |_| true)).await;
        if got.is_ok() {
            paired += 1;
        }
    }
    assert_eq!(paired, 2, "two new games an hour from the address");
}

#[tokio::test]
async fn an_address_holds_a_few_analyses_whatever_its_cookies() {
    let limits = vizier_server::Limits {
        analysis_threads: 1,
        analysis_ms: 60_000,
        analysis_nodes: u64::MAX,
        ..vizier_server::Limits::default()
    };
    let addr = start(limits).await;
    let mut answers = Vec::new();
    let mut sockets = Vec::new();
    for i in 0..6 {
        let guest = Browser::without_visit(addr, [127, 0, 0, 18]);
        let mut ws = guest.try_socket("/api/analysis/socket").await.unwrap();
        let msg = json!({"t": "analyse", "id": i}).to_string();
        ws.send(Message::Text(msg.into())).await.unwrap();
        let first = tokio::time::timeout(Duration::from_millis(500), next_json(&mut ws)).await;
        answers.push(first.map(|v| v["code"].clone()).unwrap_or(Value::Null));
        sockets.push(ws);
    }
    let refused = answers
        .iter()
        .filter(|c| **c == json!("too-many-analyses"))
        .count();
    assert_eq!(refused, 2, "{answers:?}");
}

#[tokio::test]
async fn a_keyed_move_sent_twice_is_played_once() {
    let addr = start(vizier_server::Limits::default()).await;
    let b = Browser::new(addr).await;
    let (_, created) = b
        .post(
            "/api/games",
            json!({"kind": "local", "timeControl": "300+2"}),
        )
        .await;
    let game = created["id"].as_str().unwrap().to_string();
    let mut seat = Seat::open(&b, &game).await;
    let keyed = json!({"t": "move", "uci": "e2e4", "key": "m1"});
    assert_eq!(seat.send(keyed.clone()).await["t"], "ack");
    // The ack was lost: the client sends it again, and hears the same answer.
    assert_eq!(seat.send(keyed).await["t"], "ack");
    let r = seat
        .send(json!({"t": "move", "uci": "e7e5", "key": "m2"}))
        .await;
    assert_eq!(r["t"], "ack", "{r}");
    // A refused keyed action is refused again, the same way.
    let bad = json!({"t": "move", "uci": "e2e4", "key": "m3"});
    let first = seat.send(bad.clone()).await;
    assert_eq!(first["t"], "error");
    assert_eq!(seat.send(bad).await["code"], first["code"]);
}

#[tokio::test]
async fn time_controls_are_read_strictly() {
    let addr = start(vizier_server::Limits::default()).await;
    let b = Browser::new(addr).await;
    for bad in ["3e2", "300++3", "+300", "300+ 3", "inf"] {
        let (status, e) = b
            .post("/api/games", json!({"kind": "local", "timeControl": bad}))
            .await;
        assert_eq!(status, 400, "{bad}: {e}");
    }
    let (status, _) = b
        .post(
            "/api/games",
            json!({"kind": "local", "timeControl": "300+3"}),
        )
        .await;
    assert_eq!(status, 201);
}

#[tokio::test]
async fn a_session_unused_for_thirty_days_ends_with_its_cookie() {
    let dir = std::env::temp_dir().join(format!("vizier-abuse-{}", rand::random::<u64>()));
    let config = vizier_server::Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        data_dir: dir.clone(),
        database: None,
        human_pace: false,
        computer_move_ms: vizier_server::Settings::COMPUTER_MOVE_MS,
        public_url: None,
        trust_forwarded_for: false,
        test_clock: false,
        limits: vizier_server::Limits::default(),
    };
    let (tx, rx) = tokio::sync::oneshot::channel();
    tokio::spawn(async move { vizier_server::serve(config, Some(tx)).await.unwrap() });
    let addr = rx.await.unwrap();
    let ann = Browser::new(addr).await;
    assert_eq!(
        ann.post("/signup", creds("ann", "ann's secret")).await.0,
        201
    );
    assert_eq!(ann.get("/api/account").await.0, 200);
    // Last used 31 days ago.
    let db = rusqlite::Connection::open(dir.join("vizier.db")).unwrap();
    db.busy_timeout(Duration::from_secs(5)).unwrap();
    let long_ago = vizier_play::time::now_ms() as i64 - 31 * 86_400_000;
    db.execute(
        "UPDATE sessions SET seen_at = ?1, created_at = ?1",
        [long_ago],
    )
    .unwrap();
    let r = ann.http.get(ann.url("/api/account")).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 401);
    let removal = r.headers().get_all("set-cookie").iter().any(|c| {
        let c = c.to_str().unwrap();
        c.starts_with("vizier_session=") && c.contains("Max-Age=0")
    });
    assert!(removal, "{:?}", r.headers());
    let left: i64 = db
        .query_row("SELECT COUNT(*) FROM sessions", [], |r| r.get(0))
        .unwrap();
    assert_eq!(left, 0);
}

#[tokio::test]
async fn imports_and_messages_count_against_their_address() {
    let addr = start(vizier_server::Limits::default()).await;
    let import = json!({"t": "import", "id": 1, "pgn": "1. e4 e5 2. Nf3 *"}).to_string();
    let (mut imported, mut limited) = (0, 0);
    for _ in 0..4 {
        // A fresh guest each time: the address's budget holds across them.
        let guest = Browser::without_visit(addr, [127, 0, 0, 19]);
        let mut ws = guest.try_socket("/api/analysis/socket").await.unwrap();
        for _ in 0..10 {
            ws.send(Message::Text(import.clone().into())).await.unwrap();
            let r = next_json(&mut ws).await;
            match (r["t"].as_str(), r["code"].as_str()) {
                (Some("imported"), _) => imported += 1,
                (_, Some("rate-limited")) => limited += 1,
                _ => panic!("{r}"),
            }
        }
    }
    assert_eq!((imported, limited), (20, 20));
    // Another address imports at once.
    let b = Browser::from_address(addr, [127, 0, 0, 20]).await;
    let mut ws = b.socket("/api/analysis/socket").await;
    ws.send(Message::Text(import.into())).await.unwrap();
    assert_eq!(next_json(&mut ws).await["t"], "imported");
}
