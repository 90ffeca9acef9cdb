//! The WebSocket protocol end to end against a real server on loopback: what players may and
//! may not do, acknowledgements, clocks, the computer, and bad input.

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::handshake::client::Request;
use tokio_tungstenite::tungstenite::{Message, http::HeaderValue};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

async fn start() -> SocketAddr {
    start_on(None).await
}

async fn start_on(database: Option<String>) -> SocketAddr {
    start_with(database, None).await
}

async fn start_with(database: Option<String>, public_url: Option<&str>) -> SocketAddr {
    start_limited(database, public_url, vizier_server::Limits::default()).await
}

async fn start_limited(
    database: Option<String>,
    public_url: Option<&str>,
    limits: vizier_server::Limits,
) -> SocketAddr {
    start_configured(|c| {
        c.database = database;
        c.public_url = public_url.map(str::to_string);
        c.limits = limits;
    })
    .await
}

/// A server on loopback, its configuration changed by `change`.
async fn start_configured(change: impl FnOnce(&mut vizier_server::Config)) -> SocketAddr {
    let dir = std::env::temp_dir().join(format!("vizier-proto-{}", rand::random::<u64>()));
    let mut config = vizier_server::Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        data_dir: dir,
        database: None,
        human_pace: false,
        computer_move_ms: vizier_server::Settings::COMPUTER_MOVE_MS,
        public_url: None,
        trust_forwarded_for: false,
        test_clock: false,
        limits: vizier_server::Limits::default(),
    };
    change(&mut config);
    let (tx, rx) = tokio::sync::oneshot::channel();
    tokio::spawn(async move { vizier_server::serve(config, Some(tx)).await.unwrap() });
    rx.await.unwrap()
}

/// A browser: its own cookie.
struct Player {
    addr: SocketAddr,
    http: reqwest::Client,
    cookie: String,
}

impl Player {
    async fn new(addr: SocketAddr) -> Player {
        let http = reqwest::Client::new();
        let r = http.get(format!("http://{addr}/")).send().await.unwrap();
        let cookie = r
            .headers()
            .get("set-cookie")
            .expect("a player cookie")
            .to_str()
            .unwrap()
            .split(';')
            .next()
            .unwrap()
            .to_string();
        Player { addr, http, cookie }
    }

    async fn create(&self, body: Value) -> String {
        let r = self
            .http
            .post(format!("http://{}/api/games", self.addr))
            .header("cookie", &self.cookie)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 201);
        r.json::<Value>().await.unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string()
    }

    /// `game`'s PGN.
    async fn pgn(&self, game: &str) -> String {
        let url = format!("http://{}/api/games/{game}/pgn", self.addr);
        let r = self.http.get(url).send().await.unwrap();
        r.text().await.unwrap()
    }

    /// `GET /game/export/{game}`, with `accept` if given: the status and the body.
    async fn export(&self, game: &str, accept: Option<&str>) -> (u16, String) {
        let url = format!("http://{}/game/export/{game}", self.addr);
        let mut req = self.http.get(url);
        if let Some(accept) = accept {
            req = req.header("accept", accept);
        }
        let r = req.send().await.unwrap();
        (r.status().as_u16(), r.text().await.unwrap())
    }

    /// The upgrade request for `game`'s socket, with this player's cookie.
    fn socket_request(&self, game: &str) -> Request {
        let mut req = format!("ws://{}/api/games/{game}/socket", self.addr)
            .into_client_request()
            .unwrap();
        req.headers_mut()
            .insert("cookie", HeaderValue::from_str(&self.cookie).unwrap());
        req
    }

    async fn connect(&self, game: &str) -> Socket {
        let req = self.socket_request(game);
        let (ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
        let mut s = Socket {
            ws,
            next: 1,
            last: None,
            base: None,
            event: None,
        };
        let first = s.recv().await;
        assert_eq!(first["t"], "state");
        assert_eq!(first["v"], 1);
        s
    }

    /// A friend game this player creates, playing White with `control`: its id, the
    /// creator's socket and the invite.
    async fn invite(&self, control: &str) -> (String, Socket, String) {
        let id = self
            .create(json!({"kind": "friend", "color": "white", "timeControl": control}))
            .await;
        let mut socket = self.connect(&id).await;
        let invite = socket.state_where(|_| true).await["invite"]
            .as_str()
            .unwrap()
            .to_string();
        (id, socket, invite)
    }
}

struct Socket {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    next: u64,
    /// The latest state received, until a test takes it.
    last: Option<Value>,
    /// The latest state, which a move event extends.
    base: Option<Value>,
    /// The latest move event as it came.
    event: Option<Value>,
}

impl Socket {
    async fn recv(&mut self) -> Value {
        loop {
            let m = tokio::time::timeout(Duration::from_secs(10), self.ws.next())
                .await
                .expect("a message within 10 s")
                .unwrap()
                .unwrap();
            if let Message::Text(t) = m {
                let mut v: Value = serde_json::from_str(t.as_str()).unwrap();
                if v["t"] == "move" {
                    self.event = Some(v.clone());
                    // The client's part of the protocol: a move event extends the state it
                    // follows, which the server never skips.
                    v = apply_move(self.base.as_ref().expect("a state before a move"), &v);
                }
                if v["t"] == "state" {
                    self.last = Some(v.clone());
                    self.base = Some(v.clone());
                }
                return v;
            }
        }
    }

    async fn send_raw(&mut self, text: &str) {
        self.ws.send(Message::Text(text.into())).await.unwrap();
    }

    /// Sends a command and returns its ack or error.
    async fn command(&mut self, mut msg: Value) -> Value {
        let id = self.next;
        self.next += 1;
        msg["id"] = json!(id);
        self.send_raw(&msg.to_string()).await;
        loop {
            let m = self.recv().await;
            if (m["t"] == "ack" || m["t"] == "error") && m["id"] == json!(id) {
                return m;
            }
        }
    }

    /// The next message that is not a state.
    async fn recv_not_state(&mut self) -> Value {
        loop {
            let m = self.recv().await;
            if m["t"] != "state" {
                return m;
            }
        }
    }

    /// The latest state if it satisfies `pred`, or else the next one that does.
    async fn state_where(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(last) = self.last.take().filter(|s| pred(s)) {
            return last;
        }
        loop {
            let m = self.recv().await;
            if m["t"] == "state" && pred(&m) {
                return m;
            }
        }
    }
}

/// The state after move event `e`, from the state before it.
fn apply_move(before: &Value, e: &Value) -> Value {
    assert_eq!(e["game"], before["game"]);
    assert_eq!(
        e["version"].as_u64().unwrap(),
        before["version"].as_u64().unwrap() + 1,
        "a move event follows the state before it"
    );
    let mut after = before.clone();
    after["moves"]
        .as_array_mut()
        .unwrap()
        .push(e["move"].clone());
    for key in ["drawOffer", "takeback", "clock", "result"] {
        after.as_object_mut().unwrap().remove(key);
    }
    for (key, value) in e.as_object().unwrap() {
        if !matches!(key.as_str(), "t" | "move") {
            after[key] = value.clone();
        }
    }
    after
}

fn sans(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn same_device_game_moves_acks_and_refusals() {
    let addr = start().await;
    let p = Player::new(addr).await;
    let id = p
        .create(json!({"kind": "local", "timeControl": "300+2"}))
        .await;
    let mut s = p.connect(&id).await;
    // Both sides are this player's; dests are sent for the side to move.
    let r = s.command(json!({"t": "move", "uci": "e2e5"})).await;
    assert_eq!(r["t"], "error");
    assert_eq!(r["code"], "illegal-move");
    let r = s.command(json!({"t": "move", "uci": "e2e4"})).await;
    assert_eq!(r["t"], "ack", "{r}");
    let r = s.command(json!({"t": "move", "san": "e5"})).await;
    assert_eq!(r["t"], "ack", "{r}");
    // Asking to move White's pieces for Black is refused by the arbiter.
    let r = s
        .command(json!({"t": "move", "uci": "g8f6", "side": "white"}))
        .await;
    assert_eq!(r["t"], "error");
    s.last = None;
    s.send_raw(r#"{"t":"resync"}"#).await;
    let st2 = s.state_where(|_| true).await;
    assert_eq!(sans(&st2), ["e4", "e5"], "{st2}");
    assert_eq!(st2["you"], json!(["white", "black"]));
    assert_eq!(st2["turn"], "white");
    assert!(st2["dests"]["g1"].as_array().unwrap().len() == 3);
    assert_eq!(st2["clock"]["running"], "white");
    assert!(st2["clock"]["black"].as_u64().unwrap() > 300_000);
}

#[tokio::test]
async fn a_players_own_finished_games_are_listed_for_the_home_page() {
    let addr = start().await;
    let p = Player::new(addr).await;
    let id = p.create(json!({"kind": "local", "timeControl": "-"})).await;
    let mut s = p.connect(&id).await;
    for mv in ["f3", "e5", "g4", "Qh4#"] {
        let r = s.command(json!({"t": "move", "san": mv})).await;
        assert_eq!(r["t"], "ack", "{r}");
    }
    let unfinished = p.create(json!({"kind": "local", "timeControl": "-"})).await;
    let mine = |who: &Player, query: &str| {
        let url = format!("http://{addr}/api/games/mine{query}");
        let req = who.http.get(url).header("cookie", who.cookie.clone());
        async move {
            let r = req.send().await.unwrap();
            (r.status().as_u16(), r.text().await.unwrap())
        }
    };
    let (status, body) = mine(&p, "").await;
    assert_eq!(status, 200);
    let games: Vec<Value> = body
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 1, "finished games only: {body}");
    assert_eq!(games[0]["id"], id);
    assert_eq!(games[0]["status"], "checkmate");
    assert_eq!(games[0]["winner"], "black");
    assert_eq!(
        games[0]["you"],
        json!(["white", "black"]),
        "one device: both sides"
    );
    assert!(!body.contains(&unfinished));
    assert_eq!(mine(&p, "?max=0").await.1, "");
    assert_eq!(mine(&p, "?max=x").await.0, 400);
    let stranger = Player::new(addr).await;
    assert_eq!(
        mine(&stranger, "").await,
        (200, String::new()),
        "nobody else's"
    );
}

#[tokio::test]
async fn a_blindfold_peek_is_noted_after_the_last_move_and_kept() {
    let addr = start().await;
    let p = Player::new(addr).await;
    let id = p.create(json!({"kind": "local", "timeControl": "-"})).await;
    let mut s = p.connect(&id).await;
    let r = s.command(json!({"t": "peek", "side": "white"})).await;
    assert_eq!(r["code"], "no-move-yet", "{r}");
    let r = s.command(json!({"t": "move", "uci": "e2e4"})).await;
    assert_eq!(r["t"], "ack", "{r}");
    let r = s.command(json!({"t": "peek", "side": "black"})).await;
    assert_eq!(r["t"], "ack", "{r}");
    let st = s.state_where(|st| !st["moves"][0]["peeks"].is_null()).await;
    assert_eq!(st["moves"][0]["peeks"], json!(["black"]));
    // A spectator cannot.
    let watcher = Player::new(addr).await;
    let mut w = watcher.connect(&id).await;
    let r = w.command(json!({"t": "peek", "side": "white"})).await;
    assert_eq!(r["t"], "error", "{r}");
    let pgn = p.pgn(&id).await;
    assert!(pgn.contains("1. e4 {Black peeked at the board} *"), "{pgn}");
}

#[tokio::test]
async fn a_move_is_sent_as_an_event_with_moves_only_for_the_side_to_move() {
    let addr = start().await;
    let alice = Player::new(addr).await;
    let bob = Player::new(addr).await;
    let (id, mut a, invite) = alice.invite("180+2").await;
    let mut b = bob.connect(&id).await;
    assert_eq!(
        b.command(json!({"t": "join", "invite": invite})).await["t"],
        "ack"
    );
    let mut spectators = Vec::new();
    for _ in 0..3 {
        spectators.push(Player::new(addr).await.connect(&id).await);
    }
    let started = a.state_where(|s| s["status"] == "playing").await;
    let version = started["version"].as_u64().unwrap();

    assert_eq!(
        a.command(json!({"t": "move", "uci": "e2e4"})).await["t"],
        "ack"
    );
    let seen = b
        .state_where(|s| s["moves"].as_array().unwrap().len() == 1)
        .await;
    let event = b.event.clone().expect("the move came as an event");
    assert_eq!(event["version"], version + 1);
    assert_eq!(event["move"]["san"], "e4");
    assert_eq!(event["turn"], "black");
    assert!(
        event.get("moves").is_none(),
        "an event carries one move: {event}"
    );
    assert!(
        event["dests"]["e7"].as_array().unwrap().len() == 2,
        "{event}"
    );
    assert_eq!(seen["you"], json!(["black"]));
    let mover = a
        .state_where(|s| s["moves"].as_array().unwrap().len() == 1)
        .await;
    assert_eq!(mover["dests"], json!({}), "the mover has no moves to make");
    for s in &mut spectators {
        let st = s
            .state_where(|s| s["moves"].as_array().unwrap().len() == 1)
            .await;
        assert_eq!(st["dests"], json!({}));
        assert_eq!(st["you"], json!([]));
        assert_eq!(s.event.as_ref().unwrap()["version"], version + 1);
    }
    // A change that is not one move is a whole state again.
    assert_eq!(b.command(json!({"t": "abort"})).await["t"], "ack");
    let aborted = a.state_where(|s| s["status"] == "over").await;
    assert_eq!(aborted["version"], version + 2);
    assert_eq!(a.event.as_ref().unwrap()["version"], version + 1);
}

#[tokio::test]
async fn only_its_creator_withdraws_a_waiting_invite() {
    let addr = start().await;
    let alice = Player::new(addr).await;
    let eve = Player::new(addr).await;
    let (id, mut a, invite) = alice.invite("180+2").await;
    let mut e = eve.connect(&id).await;
    let r = e.command(json!({"t": "abort"})).await;
    assert_eq!(r["code"], "spectator", "{r}");
    let r = a.command(json!({"t": "abort"})).await;
    assert_eq!(r["t"], "ack", "{r}");
    let over = e.state_where(|s| s["status"] == "over").await;
    assert_eq!(over["result"]["reason"], "aborted", "{over}");
    let r = e.command(json!({"t": "join", "invite": invite})).await;
    assert_eq!(r["code"], "bad-invite", "{r}");
    let r = a.command(json!({"t": "abort"})).await;
    assert_eq!(r["code"], "game-over", "{r}");
}

#[tokio::test]
async fn friend_game_by_invite_and_forged_moves() {
    let addr = start().await;
    let alice = Player::new(addr).await;
    let bob = Player::new(addr).await;
    let eve = Player::new(addr).await;
    let id = alice
        .create(json!({"kind": "friend", "color": "white", "timeControl": "180+2"}))
        .await;
    let mut a = alice.connect(&id).await;
    let waiting = a.state_where(|_| true).await;
    assert_eq!(waiting["status"], "waiting");
    let invite = waiting["invite"].as_str().unwrap().to_string();

    // Alice cannot take the seat herself; Eve without the token cannot either.
    let r = a.command(json!({"t": "join", "invite": invite})).await;
    assert_eq!(r["code"], "own-invite");
    let mut e = eve.connect(&id).await;
    let r = e.command(json!({"t": "join", "invite": "wrong"})).await;
    assert_eq!(r["code"], "bad-invite");
    // A spectator never sees the invite.
    assert!(e.state_where(|_| true).await.get("invite").is_none());

    let mut b = bob.connect(&id).await;
    let r = b.command(json!({"t": "join", "invite": invite})).await;
    assert_eq!(r["t"], "ack", "{r}");
    // The invite is spent.
    let r = e.command(json!({"t": "join", "invite": invite})).await;
    assert_eq!(r["code"], "bad-invite");

    // Out of turn: Bob (Black) moves first.
    let r = b.command(json!({"t": "move", "uci": "e7e5"})).await;
    assert_eq!(r["code"], "not-your-turn");
    // Forged: Eve claims to be White.
    let r = e
        .command(json!({"t": "move", "uci": "e2e4", "side": "white"}))
        .await;
    assert_eq!(r["code"], "spectator");
    let r = e.command(json!({"t": "resign"})).await;
    assert_eq!(r["code"], "spectator");
    // Bob cannot act for White either.
    let r = b.command(json!({"t": "resign", "side": "white"})).await;
    assert_eq!(r["code"], "not-your-side");

    // Fool's mate, played by the two of them.
    for (white, mv) in [
        (true, "f2f3"),
        (false, "e7e5"),
        (true, "g2g4"),
        (false, "d8h4"),
    ] {
        let sock = if white { &mut a } else { &mut b };
        let r = sock.command(json!({"t": "move", "uci": mv})).await;
        assert_eq!(r["t"], "ack", "{mv}: {r}");
    }
    for sock in [&mut a, &mut b, &mut e] {
        let over = sock.state_where(|s| s["status"] == "over").await;
        assert_eq!(over["result"]["score"], "0–1");
        assert_eq!(over["result"]["reason"], "checkmate");
        assert_eq!(over["result"]["article"], "5.1.1");
    }
    let r = a.command(json!({"t": "move", "uci": "a2a3"})).await;
    assert_eq!(r["code"], "game-over");
    // The PGN has the moves and clocks.
    let pgn = reqwest::get(format!("http://{addr}/api/games/{id}/pgn"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(pgn.contains("2. g4") && pgn.contains("Qh4#"), "{pgn}");
    assert!(pgn.contains("[%clk"), "{pgn}");
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
}

#[tokio::test]
async fn arbiter_mode_on_one_device_penalises_illegal_moves() {
    let addr = start().await;
    let p = Player::new(addr).await;
    // Arbiter mode is for games on one device only.
    let r = p
        .http
        .post(format!("http://{addr}/api/games"))
        .header("cookie", &p.cookie)
        .json(&json!({"kind": "friend", "arbiter": "supervised"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 400);
    let id = p
        .create(json!({"kind": "local", "timeControl": "300+2", "arbiter": "supervised"}))
        .await;
    let mut s = p.connect(&id).await;
    assert_eq!(s.state_where(|_| true).await["arbiter"], "supervised");
    // A pawn three squares forward: taken back, and Black gets a minute.
    let r = s.command(json!({"t": "move", "uci": "e2e5"})).await;
    assert_eq!(r["t"], "ack", "{r}");
    let st = s.state_where(|s| s["infractions"]["illegal"][0] == 1).await;
    assert_eq!(st["moves"].as_array().unwrap().len(), 0);
    assert_eq!(st["turn"], "white");
    assert!(st["clock"]["black"].as_u64().unwrap() >= 360_000, "{st}");
    // The second loses.
    for mv in ["e2e4", "e7e5", "e1e3"] {
        let r = s.command(json!({"t": "move", "uci": mv})).await;
        assert_eq!(r["t"], "ack", "{r}");
    }
    let over = s.state_where(|s| s["status"] == "over").await;
    assert_eq!(over["result"]["reason"], "illegal-moves");
    assert_eq!(over["result"]["winner"], "black");
    assert_eq!(
        over["moves"].as_array().unwrap().len(),
        2,
        "no move for the illegal one"
    );

    // Without an arbiter the illegal move stands until claimed.
    let id = p
        .create(json!({"kind": "local", "timeControl": "300+2", "arbiter": "unsupervised"}))
        .await;
    let mut s = p.connect(&id).await;
    s.command(json!({"t": "move", "uci": "f1c4"})).await;
    let st = s
        .state_where(|s| s["infractions"]["claimable"] == "white")
        .await;
    assert_eq!(st["moves"][0]["san"], "f1-c4");
    let r = s.command(json!({"t": "claim-illegal"})).await;
    assert_eq!(r["t"], "ack", "{r}");
    let st = s.state_where(|s| s["infractions"]["illegal"][0] == 1).await;
    assert_eq!(st["moves"].as_array().unwrap().len(), 0);
}

#[tokio::test]
async fn a_friend_game_adjourns_with_a_sealed_move_and_resumes() {
    let addr = start().await;
    let alice = Player::new(addr).await;
    let bob = Player::new(addr).await;
    let (id, mut a, invite) = alice.invite("5400+30").await;
    let mut b = bob.connect(&id).await;
    b.command(json!({"t": "join", "invite": invite})).await;
    a.command(json!({"t": "move", "uci": "e2e4"})).await;
    b.command(json!({"t": "move", "uci": "e7e5"})).await;
    // Bob asks, Alice agrees: Alice, who has the move, seals.
    let r = b.command(json!({"t": "adjourn"})).await;
    assert_eq!(r["t"], "ack", "{r}");
    a.state_where(|s| s["adjournment"]["phase"] == "asked")
        .await;
    a.command(json!({"t": "adjourn"})).await;
    a.state_where(|s| s["adjournment"]["phase"] == "sealing")
        .await;
    let r = b.command(json!({"t": "seal", "uci": "g1f3"})).await;
    assert_eq!(r["code"], "not-your-turn", "Bob cannot seal for Alice");
    let r = a.command(json!({"t": "move", "uci": "g1f3"})).await;
    assert_eq!(r["code"], "adjourned");
    let r = a.command(json!({"t": "seal", "uci": "g1f3"})).await;
    assert_eq!(r["t"], "ack", "{r}");
    let st = b
        .state_where(|s| s["adjournment"]["phase"] == "sealed")
        .await;
    assert_eq!(st["clock"]["running"], Value::Null);
    assert!(
        !st.to_string().contains("g1f3"),
        "the sealed move is hidden"
    );
    // Both ask to resume: the sealed move is made.
    a.command(json!({"t": "resume"})).await;
    b.state_where(|s| s["adjournment"]["resumeAsked"] == "white")
        .await;
    b.command(json!({"t": "resume"})).await;
    let st = b
        .state_where(|s| s["moves"].as_array().unwrap().len() == 3)
        .await;
    assert_eq!(st["moves"][2]["san"], "Nf3");
    assert!(st.get("adjournment").is_none());
    // The scoresheet in a player's notation (Appendix C.3).
    let pgn = |notation: &str| {
        let url = format!("http://{addr}/api/games/{id}/pgn?notation={notation}");
        async move { reqwest::get(url).await.unwrap() }
    };
    let de = pgn("de").await.text().await.unwrap();
    assert!(de.contains("2. Sf3"), "{de}");
    let zh = pgn("zh").await.text().await.unwrap();
    assert!(zh.contains("2. 马f3"), "{zh}");
    assert_eq!(pgn("klingon").await.status(), 400);
    // Blitz games are not adjourned.
    let id = alice
        .create(json!({"kind": "local", "timeControl": "180+2"}))
        .await;
    let mut s = alice.connect(&id).await;
    let r = s.command(json!({"t": "adjourn"})).await;
    assert_eq!(r["code"], "no-adjournment");
}

#[tokio::test]
async fn malformed_messages_get_errors_and_the_game_goes_on() {
    let addr = start().await;
    let p = Player::new(addr).await;
    let id = p.create(json!({"kind": "local"})).await;
    let mut s = p.connect(&id).await;
    for bad in [
        "",
        "{",
        "[]",
        r#"{"t":"fly"}"#,
        r#"{"t":"move"}"#,
        "\u{0}\u{1}",
    ] {
        s.send_raw(bad).await;
        let m = s.recv_not_state().await;
        assert_eq!(m["t"], "error", "{bad}: {m}");
        assert_eq!(m["code"], "bad-message");
    }
    let r = s.command(json!({"t": "move", "uci": "d2d4"})).await;
    assert_eq!(r["t"], "ack");
    s.send_raw(r#"{"t":"ping","id":77}"#).await;
    let pong = s.recv_not_state().await;
    assert_eq!(
        (&pong["t"], &pong["id"]),
        (&json!("pong"), &json!(77)),
        "{pong}"
    );
}

#[tokio::test]
async fn floods_are_rate_limited() {
    let addr = start().await;
    let p = Player::new(addr).await;
    let id = p.create(json!({"kind": "local"})).await;
    let mut s = p.connect(&id).await;
    for _ in 0..60 {
        s.send_raw(r#"{"t":"ping"}"#).await;
    }
    let mut limited = 0;
    for _ in 0..60 {
        let m = s.recv_not_state().await;
        if m["code"] == "rate-limited" {
            limited += 1;
        }
    }
    assert!(limited >= 20, "only {limited} of 60 pings were limited");
}

#[tokio::test]
async fn a_players_sockets_share_one_rate_limit() {
    let addr = start().await;
    let p = Player::new(addr).await;
    let id = p.create(json!({"kind": "local"})).await;
    let mut sockets = Vec::new();
    for _ in 0..4 {
        sockets.push(p.connect(&id).await);
    }
    for s in &mut sockets {
        for _ in 0..30 {
            s.send_raw(r#"{"t":"ping"}"#).await;
        }
    }
    let mut limited = 0;
    for s in &mut sockets {
        for _ in 0..30 {
            let m = s.recv_not_state().await;
            if m["code"] == "rate-limited" {
                limited += 1;
            }
        }
    }
    // 120 pings against one budget of 30 and 10 a second.
    assert!(
        limited >= 70,
        "only {limited} of 120 pings over four sockets were limited"
    );
}

#[tokio::test]
async fn spectators_coming_and_going_cost_the_players_nothing() {
    let addr = start().await;
    let alice = Player::new(addr).await;
    let id = alice
        .create(json!({"kind": "local", "timeControl": "300+3"}))
        .await;
    let mut a = alice.connect(&id).await;
    let mut watchers = Vec::new();
    for _ in 0..100 {
        watchers.push(Player::new(addr).await.connect(&id).await);
    }
    watchers.truncate(50);
    // Alice's next messages: the state after her move and its ack, no presence echoes.
    a.send_raw(r#"{"t":"move","uci":"e2e4","id":1}"#).await;
    let mut seen = 0;
    loop {
        let m = a.recv().await;
        seen += 1;
        if m["t"] == "ack" {
            break;
        }
    }
    assert!(
        seen <= 3,
        "{seen} messages to the player for 100 spectators"
    );
}

#[tokio::test]
async fn a_player_cannot_pile_up_unfinished_games() {
    let addr = start().await;
    let p = Player::new(addr).await;
    for _ in 0..vizier_server::Limits::DEFAULT.games.open_games_per_player {
        p.create(json!({"kind": "local"})).await;
    }
    let r = p
        .http
        .post(format!("http://{addr}/api/games"))
        .header("cookie", &p.cookie)
        .json(&json!({"kind": "local"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 429);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["code"], "too-many-games", "{body}");
    // Another player is not held back by the first one's games.
    Player::new(addr)
        .await
        .create(json!({"kind": "local"}))
        .await;
}

/// Asks `addr` for a new local game as a new player, the request forwarded for `from`.
async fn create_from(addr: SocketAddr, from: Option<&str>) -> (u16, Value) {
    let p = Player::new(addr).await;
    let mut req = p
        .http
        .post(format!("http://{addr}/api/games"))
        .header("cookie", &p.cookie)
        .json(&json!({"kind": "local"}));
    if let Some(from) = from {
        req = req.header("x-forwarded-for", from);
    }
    let r = req.send().await.unwrap();
    (r.status().as_u16(), r.json().await.unwrap())
}

#[tokio::test]
async fn an_address_may_create_only_so_many_games_whatever_its_cookies() {
    let limits = vizier_server::Limits {
        games: vizier_play::Limits {
            new_games_per_address_hour: 3,
            ..vizier_play::Limits::DEFAULT
        },
        ..vizier_server::Limits::default()
    };
    let addr = start_limited(None, None, limits).await;
    for _ in 0..3 {
        assert_eq!(create_from(addr, None).await.0, 201);
    }
    let (status, body) = create_from(addr, None).await;
    assert_eq!(status, 429);
    assert_eq!(body["code"], "too-many-new-games", "{body}");
    // Without a trusted proxy, a forwarded address is the client's to forge: ignored.
    assert_eq!(create_from(addr, Some("192.0.2.1")).await.0, 429);

    let addr = start_configured(|c| {
        c.limits = limits;
        c.trust_forwarded_for = true;
    })
    .await;
    for _ in 0..3 {
        assert_eq!(create_from(addr, Some("192.0.2.1")).await.0, 201);
    }
    assert_eq!(create_from(addr, Some("192.0.2.1")).await.0, 429);
    // The proxy's entry is the last; what the client put before it does not help.
    assert_eq!(
        create_from(addr, Some("198.51.100.1, 192.0.2.1")).await.0,
        429
    );
    assert_eq!(create_from(addr, Some("192.0.2.2")).await.0, 201);
}

/// A game going on changes with every move, so exports of it are polled: an address may ask
/// for them only so often. A finished game's export is not counted.
#[tokio::test]
async fn an_address_may_export_games_going_on_only_so_often() {
    let limits = vizier_server::Limits {
        live_exports_per_address_hour: 2,
        ..vizier_server::Limits::default()
    };
    let addr = start_limited(None, None, limits).await;
    let alice = Player::new(addr).await;
    let export = async |game: &str| alice.export(game, None).await;
    let live = alice.create(json!({"kind": "local"})).await;
    for _ in 0..2 {
        let (status, pgn) = export(&live).await;
        assert_eq!(status, 200);
        assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
    }
    let (status, body) = export(&live).await;
    assert_eq!(status, 429);
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body["code"], "rate-limited", "{body}");

    let ended = alice.create(json!({"kind": "local"})).await;
    let mut s = alice.connect(&ended).await;
    let ack = s.command(json!({"t": "resign", "side": "white"})).await;
    assert_eq!(ack["t"], "ack", "{ack}");
    for _ in 0..3 {
        let (status, pgn) = export(&ended).await;
        assert_eq!(status, 200);
        assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    }
    assert_eq!(export("no-such-game").await.0, 404);
}

/// A game going on is exported from its task, moves just made included, as the archive
/// gives it once it has ended.
#[tokio::test]
async fn a_game_going_on_exports_as_the_archive_will() {
    let addr = start().await;
    let alice = Player::new(addr).await;
    let game = alice.create(json!({"kind": "local"})).await;
    let mut s = alice.connect(&game).await;
    for uci in ["e2e4", "e7e5", "g1f3"] {
        let ack = s.command(json!({"t": "move", "uci": uci})).await;
        assert_eq!(ack["t"], "ack", "{ack}");
    }
    let export = async |accept: &str| {
        let (status, body) = alice.export(&game, Some(accept)).await;
        assert_eq!(status, 200);
        body
    };
    let movetext = |pgn: &str| {
        let line = pgn.lines().find(|l| l.starts_with("1. "));
        line.unwrap_or_default().to_string()
    };
    let live_pgn = export("application/x-chess-pgn").await;
    assert!(live_pgn.contains("[Result \"*\"]"), "{live_pgn}");
    assert!(live_pgn.contains("1. e4"), "{live_pgn}");
    let live: Value = serde_json::from_str(&export("application/json").await).unwrap();
    assert_eq!(live["moves"], "e4 e5 Nf3", "{live}");
    assert_eq!(live["status"], "started", "{live}");

    let ack = s.command(json!({"t": "resign", "side": "black"})).await;
    assert_eq!(ack["t"], "ack", "{ack}");
    let ended_pgn = export("application/x-chess-pgn").await;
    assert!(ended_pgn.contains("[Result \"1-0\"]"), "{ended_pgn}");
    let live_moves = movetext(&live_pgn);
    assert_eq!(live_moves, "1. e4 e5 2. Nf3 *", "{live_pgn}");
    let ended_moves = movetext(&ended_pgn);
    assert!(ended_moves.starts_with("1. e4 e5 2. Nf3 "), "{ended_pgn}");
    let ended: Value = serde_json::from_str(&export("application/json").await).unwrap();
    assert_eq!(ended["moves"], live["moves"]);
    assert_eq!(ended["opening"], live["opening"], "{live}\n{ended}");
    assert!(live["opening"]["eco"].is_string(), "{live}");
}

#[tokio::test]
async fn untaken_invites_and_untouched_unclocked_games_are_called_off() {
    let limits = vizier_server::Limits {
        games: vizier_play::Limits {
            invite_expiry: Duration::from_secs(1),
            unclocked_expiry: Duration::from_secs(1),
            ..vizier_play::Limits::DEFAULT
        },
        ..vizier_server::Limits::default()
    };
    let addr = start_limited(None, None, limits).await;
    let alice = Player::new(addr).await;
    let invite_game = alice
        .create(json!({"kind": "friend", "timeControl": "180+2"}))
        .await;
    let mut waiting = alice.connect(&invite_game).await;
    let invite = waiting.state_where(|_| true).await["invite"]
        .as_str()
        .unwrap()
        .to_string();
    let untouched = alice.create(json!({"kind": "local"})).await;
    let played = alice.create(json!({"kind": "local"})).await;
    let clocked = alice
        .create(json!({"kind": "local", "timeControl": "600+0"}))
        .await;
    let mut s = alice.connect(&untouched).await;
    assert_eq!(
        s.command(json!({"t": "move", "uci": "e2e4"})).await["t"],
        "ack"
    );
    drop(s);
    // One game is played on, a move every 400 ms: it stays.
    let mut p = alice.connect(&played).await;
    let moves = ["g1f3", "g8f6", "f3g1", "f6g8"];
    for mv in moves.iter().cycle().take(10) {
        assert_eq!(p.command(json!({"t": "move", "uci": mv})).await["t"], "ack");
        tokio::time::sleep(Duration::from_millis(400)).await;
    }
    let over = waiting.state_where(|s| s["status"] == "over").await;
    assert_eq!(over["result"]["reason"], "abandoned", "{over}");
    assert!(over["invite"].is_null(), "{over}");
    let bob = Player::new(addr).await;
    let mut b = bob.connect(&invite_game).await;
    assert_eq!(
        b.command(json!({"t": "join", "invite": invite})).await["code"],
        "bad-invite"
    );
    let mut s = alice.connect(&untouched).await;
    let st = s.state_where(|_| true).await;
    assert_eq!(st["status"], "over", "{st}");
    assert_eq!(st["result"]["reason"], "abandoned");
    assert_eq!(st["result"]["pgn"], "*");
    assert_eq!(sans(&st), ["e4"]);
    for (game, why) in [(&played, "played on"), (&clocked, "its clock decides")] {
        let mut s = alice.connect(game).await;
        let st = s.state_where(|_| true).await;
        assert_eq!(st["status"], "playing", "{why}: {st}");
    }
    let pgn = alice.pgn(&untouched).await;
    assert!(pgn.contains("[Termination \"abandoned\"]"), "{pgn}");
}

#[tokio::test]
async fn a_player_may_open_only_so_many_sockets() {
    let addr = start().await;
    let p = Player::new(addr).await;
    let id = p.create(json!({"kind": "local"})).await;
    let mut open = Vec::new();
    for _ in 0..vizier_server::Limits::DEFAULT.sockets_per_player {
        open.push(p.connect(&id).await);
    }
    assert!(
        tokio_tungstenite::connect_async(p.socket_request(&id))
            .await
            .is_err(),
        "one socket too many"
    );
    // Closing one frees its place.
    let mut first = open.remove(0);
    first.ws.close(None).await.unwrap();
    drop(first);
    tokio::time::sleep(Duration::from_millis(200)).await;
    p.connect(&id).await;
}

#[tokio::test]
async fn binary_floods_are_rate_limited_too() {
    let addr = start().await;
    let p = Player::new(addr).await;
    let id = p.create(json!({"kind": "local"})).await;
    let mut s = p.connect(&id).await;
    for _ in 0..60 {
        s.ws.send(Message::Binary(vec![1, 2, 3].into()))
            .await
            .unwrap();
    }
    let mut limited = 0;
    for _ in 0..60 {
        let m = s.recv_not_state().await;
        if m["code"] == "rate-limited" {
            limited += 1;
        }
    }
    assert!(
        limited >= 20,
        "only {limited} of 60 binary frames were limited"
    );
}

#[tokio::test]
async fn an_oversized_frame_ends_only_its_own_connection() {
    let addr = start().await;
    let p = Player::new(addr).await;
    let id = p.create(json!({"kind": "local"})).await;
    let mut s = p.connect(&id).await;
    let big = format!(r#"{{"t":"move","uci":"{}"}}"#, "e".repeat(100_000));
    let _ = s.ws.send(Message::Text(big.into())).await;
    let ended = loop {
        match tokio::time::timeout(Duration::from_secs(5), s.ws.next()).await {
            Ok(Some(Ok(Message::Close(_)))) | Ok(None) | Ok(Some(Err(_))) => break true,
            Ok(Some(Ok(_))) => continue,
            Err(_) => break false,
        }
    };
    assert!(
        ended,
        "the server kept a connection that sent 100 kB in one frame"
    );
    let mut again = p.connect(&id).await;
    let r = again.command(json!({"t": "move", "uci": "e2e4"})).await;
    assert_eq!(r["t"], "ack", "{r}");
}

#[tokio::test]
async fn pages_carry_security_headers_assets_are_compressed_and_strays_are_404() {
    let addr = start().await;
    let http = reqwest::Client::new();
    let page = http.get(format!("http://{addr}/")).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let h = page.headers().clone();
    let csp = h["content-security-policy"].to_str().unwrap();
    assert!(
        csp.contains("default-src 'self'") && csp.contains("frame-ancestors 'none'"),
        "{csp}"
    );
    assert_eq!(h["x-content-type-options"], "nosniff");
    assert_eq!(h["x-frame-options"], "DENY");
    assert_eq!(h["referrer-policy"], "no-referrer");
    let html = page.text().await.unwrap();
    let script = html
        .split("src=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the page's script");
    let js = http
        .get(format!("http://{addr}{script}"))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(js.status(), 200);
    assert_eq!(js.headers()["content-encoding"], "gzip");
    for (path, status) in [
        ("/g/k3Pq9xWb2m", 200),
        ("/favicon.svg", 200),
        ("/admin", 404),
        ("/favicon.ico", 404),
        ("/wp-login.php", 404),
    ] {
        let r = http
            .get(format!("http://{addr}{path}"))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), status, "{path}");
    }
}

#[tokio::test]
async fn behind_tls_the_cookie_is_secure_and_the_origin_is_the_public_one() {
    let addr = start_with(None, Some("https://chess.example/")).await;
    let r = reqwest::get(format!("http://{addr}/")).await.unwrap();
    let cookie = r.headers()["set-cookie"].to_str().unwrap();
    assert!(cookie.contains("Secure"), "{cookie}");
    let p = Player::new(addr).await;
    let id = p.create(json!({"kind": "local"})).await;
    let origin_ok = |origin: &'static str| {
        let mut req = p.socket_request(&id);
        req.headers_mut()
            .insert("origin", HeaderValue::from_static(origin));
        async move { tokio_tungstenite::connect_async(req).await.is_ok() }
    };
    assert!(origin_ok("https://chess.example").await);
    assert!(!origin_ok("http://chess.example").await);
    assert!(!origin_ok("https://evil.example").await);
}

#[tokio::test]
async fn metrics_count_moves_sockets_and_latencies() {
    let addr = start().await;
    let p = Player::new(addr).await;
    let id = p.create(json!({"kind": "local"})).await;
    let mut s = p.connect(&id).await;
    let r = s.command(json!({"t": "move", "uci": "e2e4"})).await;
    assert_eq!(r["t"], "ack");
    let r = s.command(json!({"t": "move", "uci": "e2e4"})).await;
    assert_eq!(r["code"], "illegal-move");
    let r = reqwest::get(format!("http://{addr}/metrics"))
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let text = r.text().await.unwrap();
    for name in [
        "vizier_games_live",
        "vizier_sockets_open",
        "vizier_moves_total",
        "vizier_ack_seconds_bucket",
        "vizier_store_append_seconds_count",
        "vizier_refused_total{code=\"illegal-move\"}",
    ] {
        assert!(text.contains(name), "{name} missing from:\n{text}");
    }
}

#[tokio::test]
async fn slow_headers_are_cut_off_and_connections_are_capped() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let limits = vizier_server::Limits {
        max_connections: 2,
        header_timeout: Duration::from_millis(500),
        ..vizier_server::Limits::default()
    };
    let addr = start_limited(None, None, limits).await;
    let request = b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    // Two clients that never finish their headers hold both places...
    let mut slow = Vec::new();
    for _ in 0..2 {
        let mut c = TcpStream::connect(addr).await.unwrap();
        c.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").await.unwrap();
        slow.push(c);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    // ...so a third waits; once the slow ones are cut off, it is served.
    let mut third = TcpStream::connect(addr).await.unwrap();
    third.write_all(request).await.unwrap();
    let mut buf = vec![0; 1024];
    let early = tokio::time::timeout(Duration::from_millis(200), third.read(&mut buf)).await;
    assert!(early.is_err(), "served past the connection cap");
    let n = tokio::time::timeout(Duration::from_secs(3), third.read(&mut buf))
        .await
        .expect("served once the slow clients were cut off")
        .unwrap();
    assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200"));
    for mut c in slow {
        let mut rest = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(2), c.read_to_end(&mut rest)).await;
        assert!(
            !String::from_utf8_lossy(&rest).contains(" 200 "),
            "a slow client was served"
        );
    }
}

#[tokio::test]
async fn health_and_readiness_answer() {
    let addr = start().await;
    for path in ["healthz", "readyz"] {
        let r = reqwest::get(format!("http://{addr}/{path}")).await.unwrap();
        assert_eq!(r.status(), 200, "{path}");
        assert_eq!(r.text().await.unwrap(), "ok");
    }
}

#[tokio::test]
async fn levels_carry_their_measured_elo() {
    let addr = start().await;
    let levels: Value = reqwest::get(format!("http://{addr}/api/levels"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let levels = levels.as_array().unwrap();
    assert_eq!(levels.len(), 10);
    let mut last = 0;
    for (i, l) in levels.iter().enumerate() {
        let level = l["level"].as_u64().unwrap() as u8;
        assert_eq!(level as usize, i + 1);
        let elo = vizier_engine::level::elo(level).map(|e| e as u64);
        assert_eq!(l["elo"].as_u64(), elo, "level {level}");
        // Stronger levels are measured stronger.
        if let Some(e) = elo {
            assert!(e > last, "level {level}: {e} after {last}");
            last = e;
        }
    }
    let p = Player::new(addr).await;
    let r = p
        .http
        .post(format!("http://{addr}/api/games"))
        .json(&json!({"kind": "computer", "level": 11, "color": "white", "timeControl": "60+0"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 400);
}

#[tokio::test]
async fn the_computer_answers_and_a_flag_falls() {
    let addr = start().await;
    let p = Player::new(addr).await;
    let id = p
        .create(json!({"kind": "computer", "level": 1, "color": "white", "timeControl": "60+0"}))
        .await;
    let mut s = p.connect(&id).await;
    let r = s.command(json!({"t": "move", "uci": "e2e4"})).await;
    assert_eq!(r["t"], "ack");
    let st = s
        .state_where(|s| s["moves"].as_array().unwrap().len() == 2)
        .await;
    assert_eq!(st["turn"], "white");
    assert_eq!(st["black"]["kind"], "computer");
    // A takeback against the computer is granted at once: both plies go.
    let r = s.command(json!({"t": "takeback"})).await;
    assert_eq!(r["t"], "ack", "{r}");
    let st = s
        .state_where(|s| s["moves"].as_array().unwrap().is_empty())
        .await;
    assert_eq!(st["fen"], st["initialFen"]);
    let r = s.command(json!({"t": "move", "uci": "d2d4"})).await;
    assert_eq!(r["t"], "ack");
    let st = s
        .state_where(|s| s["moves"].as_array().unwrap().len() == 2)
        .await;
    assert_eq!(sans(&st)[0], "d4");
    assert_eq!(
        st["moves"][1]["fen"], st["fen"],
        "the move list follows the game"
    );

    // A same-device game with a 1-second clock: White's flag falls on the server's timer.
    let id = p
        .create(json!({"kind": "local", "timeControl": "1+0"}))
        .await;
    let mut s = p.connect(&id).await;
    let over = s.state_where(|s| s["status"] == "over").await;
    assert_eq!(over["result"]["reason"], "time-forfeit");
    assert_eq!(over["result"]["score"], "0–1");
}

#[tokio::test]
async fn draw_offer_accepted_and_cross_origin_refused() {
    let addr = start().await;
    let p = Player::new(addr).await;
    let id = p.create(json!({"kind": "local"})).await;
    let mut s = p.connect(&id).await;
    for mv in ["e2e4", "e7e5"] {
        assert_eq!(s.command(json!({"t": "move", "uci": mv})).await["t"], "ack");
    }
    let r = s.command(json!({"t": "offer-draw"})).await;
    assert_eq!(r["t"], "ack", "{r}");
    let r = s.command(json!({"t": "accept-draw"})).await;
    assert_eq!(r["t"], "ack", "{r}");
    let over = s.state_where(|s| s["status"] == "over").await;
    assert_eq!(over["result"]["reason"], "agreement");

    let mut req = format!("ws://{addr}/api/games/{id}/socket")
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("origin", HeaderValue::from_static("http://evil.example"));
    assert!(tokio_tungstenite::connect_async(req).await.is_err());
}

/// On PostgreSQL (where `VIZIER_TEST_POSTGRES` names a database; CI starts one): a game
/// played on one server is picked up, moves and all, by a second server on the same database.
#[tokio::test]
#[ignore = "needs PostgreSQL: VIZIER_TEST_POSTGRES (scripts/test.sh starts one)"]
async fn postgres_games_are_shared_by_servers() {
    let url = std::env::var("VIZIER_TEST_POSTGRES")
        .expect("VIZIER_TEST_POSTGRES is not set: this test needs PostgreSQL");
    let first = start_on(Some(url.clone())).await;
    let p = Player::new(first).await;
    let id = p
        .create(json!({"kind": "local", "timeControl": "600+5"}))
        .await;
    let mut s = p.connect(&id).await;
    for mv in ["e2e4", "e7e5", "g1f3"] {
        assert_eq!(s.command(json!({"t": "move", "uci": mv})).await["t"], "ack");
    }
    let second = start_on(Some(url)).await;
    let mut again = Player { addr: second, ..p }.connect(&id).await;
    let st = again.state_where(|_| true).await;
    assert_eq!(sans(&st), ["e4", "e5", "Nf3"]);
    assert_eq!(
        st["you"],
        json!(["white", "black"]),
        "the cookie key is shared too"
    );
}
