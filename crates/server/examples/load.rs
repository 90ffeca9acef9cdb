//! Load test: N browsers, each playing a same-device game of random moves over its own
//! WebSocket (or, with `--friend`, two browsers a game, one socket each), against a
//! `vizier serve` started here. Every game is set up first; then all play at once. Prints the
//! move-acknowledgement latency (send → ack, which includes storing the move) over every move
//! of every game, the server's memory and CPU time, the client's CPU time, and the server's
//! own view from `/metrics`. Any failure (a refused move, a socket that breaks) kills the
//! server and ends the run with status 1. With THINK_MS each player pauses 50-150% of that
//! before each move (~1 move/s a game at 1000); without it every move follows the last
//! acknowledgement at once, which measures the server's capacity.
//!
//! ```sh
//! ulimit -n 24000
//! cargo build --profile fast -p vizier -p vizier-server --examples --bins
//! target/fast/examples/load target/fast/vizier 1000 40 1000   # 1000 games at bullet pace
//! target/fast/examples/load target/fast/vizier 1000 40        # flat out: capacity
//! target/fast/examples/load target/fast/vizier 1000 40 1000 --friend  # two sockets a game
//! target/fast/examples/load target/fast/vizier 1000 40 1000 --spectators=900  # one game watched
//! target/fast/examples/load target/fast/vizier 1000 40 1000 --reviews  # analysis flat out
//! ```
//!
//! With `--reviews`, two more browsers keep the analysis pool busy all the while: each plays
//! a 20-move game, resigns, asks for its review and waits for it, again and again; the run
//! then says how many positions were reviewed a second.

#[path = "support/proc.rs"]
mod proc;
use proc::{cpu_s, status_kb};

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::{Message, http::HeaderValue};

/// What the load client reads of a server message; the rest is skipped unparsed. Nothing
/// here allocates but the FEN and the list of legal moves: at 10,000 games a client that
/// parsed every message into maps of strings took as much CPU as the server.
#[derive(Deserialize)]
struct Incoming {
    t: Kind,
    id: Option<u64>,
    status: Option<Status>,
    fen: Option<String>,
    #[serde(default, deserialize_with = "legal_moves")]
    dests: Vec<[u8; 4]>,
    invite: Option<String>,
}

#[derive(Deserialize, PartialEq, Eq, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Kind {
    State,
    Move,
    Ack,
    Error,
    #[serde(other)]
    Other,
}

#[derive(Deserialize, PartialEq, Eq, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Status {
    Playing,
    #[serde(other)]
    Other,
}

impl Incoming {
    fn playing(&self) -> bool {
        self.status == Some(Status::Playing)
    }
}

/// `{"e2": ["e3", "e4"], …}` as the moves `e2e3`, `e2e4`, …, read without a string or a
/// map allocated.
fn legal_moves<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<[u8; 4]>, D::Error> {
    use serde::de::{DeserializeSeed, Error, MapAccess, SeqAccess, Visitor};
    fn square<E: Error>(s: &str) -> Result<[u8; 2], E> {
        s.as_bytes()
            .try_into()
            .map_err(|_| E::custom("not a square"))
    }
    struct Dests;
    struct Targets<'v>(&'v mut Vec<[u8; 4]>, [u8; 2]);
    impl<'de> Visitor<'de> for Dests {
        type Value = Vec<[u8; 4]>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a map of squares to lists of squares")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut moves = Vec::with_capacity(48);
            while let Some(from) = map.next_key::<&str>()? {
                let from = square(from)?;
                map.next_value_seed(Targets(&mut moves, from))?;
            }
            Ok(moves)
        }
    }
    impl<'de> DeserializeSeed<'de> for Targets<'_> {
        type Value = ();
        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_seq(self)
        }
    }
    impl<'de> Visitor<'de> for Targets<'_> {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a list of squares")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            while let Some(to) = seq.next_element::<&str>()? {
                let [f0, f1] = self.1;
                let [t0, t1] = square(to)?;
                self.0.push([f0, f1, t0, t1]);
            }
            Ok(())
        }
    }
    d.deserialize_map(Dests)
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The next text message, parsed; `what` names the moment for the error.
async fn read(ws: &mut Socket, what: impl Fn() -> String) -> Result<Incoming, String> {
    loop {
        match ws.next().await {
            Some(Ok(Message::Text(t))) => {
                return serde_json::from_str(t.as_str()).map_err(|e| format!("{}: {e}", what()));
            }
            Some(Ok(_)) => continue,
            _ => return Err(format!("the socket ended {}", what())),
        }
    }
}

/// A new browser: its cookie.
async fn cookie(http: &reqwest::Client, addr: &str) -> Result<String, String> {
    let home = http
        .get(format!("http://{addr}/"))
        .send()
        .await
        .map_err(|e| format!("GET /: {e}"))?;
    let cookie = home.headers()["set-cookie"].to_str().unwrap();
    Ok(cookie.split(';').next().unwrap().to_string())
}

async fn open(addr: &str, id: &str, cookie: &str) -> Result<(Socket, Incoming), String> {
    let mut req = format!("ws://{addr}/api/games/{id}/socket")
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("cookie", HeaderValue::from_str(cookie).unwrap());
    // A browser-sized read buffer: tungstenite's default (128 KiB, zeroed at each read) would
    // make the client, not the server, the bottleneck.
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(4 * 1024);
    let (mut ws, _) = tokio_tungstenite::connect_async_with_config(req, Some(config), true)
        .await
        .map_err(|e| format!("socket: {e}"))?;
    let first = read(&mut ws, || "before the first state".into()).await?;
    Ok((ws, first))
}

/// Creates a game and opens its sockets: one for a same-device game, one per player for a
/// friend game (the friend joined). Each socket comes with the last message it read.
async fn set_up(
    http: reqwest::Client,
    addr: String,
    friend: bool,
) -> Result<(String, Vec<(Socket, Incoming)>), String> {
    let creator = cookie(&http, &addr).await?;
    let kind = if friend { "friend" } else { "local" };
    let created: Value = http
        .post(format!("http://{addr}/api/games"))
        .header("cookie", &creator)
        .json(&json!({"kind": kind, "timeControl": "3600+0", "color": "white"}))
        .send()
        .await
        .map_err(|e| format!("create: {e}"))?
        .json()
        .await
        .map_err(|e| format!("create: {e}"))?;
    let id = created["id"].as_str().ok_or(format!("create: {created}"))?;
    let (mut ws, first) = open(&addr, id, &creator).await?;
    if !friend {
        return Ok((id.to_string(), vec![(ws, first)]));
    }
    let invite = first.invite.ok_or("no invite for the creator")?;
    let friend = cookie(&http, &addr).await?;
    let (mut joiner, _) = open(&addr, id, &friend).await?;
    let join = json!({"t": "join", "invite": invite, "id": 0});
    joiner
        .send(Message::Text(join.to_string().into()))
        .await
        .map_err(|e| format!("join: {e}"))?;
    // Both wait for the state of the started game.
    let mut seats = Vec::new();
    for socket in [&mut ws, &mut joiner] {
        loop {
            let m = read(socket, || "waiting for the game to start".into()).await?;
            if m.t == Kind::Error {
                return Err("join refused".into());
            }
            if m.t == Kind::State && m.playing() {
                seats.push(m);
                break;
            }
        }
    }
    let black = seats.pop().expect("two states");
    let white = seats.pop().expect("two states");
    Ok((id.to_string(), vec![(ws, white), (joiner, black)]))
}

/// Plays `plies` moves on one socket, each when it is this socket's turn, and records how
/// long each took to be acknowledged, with when it was sent (seconds since `epoch`).
async fn play(
    mut ws: Socket,
    mut last: Incoming,
    plies: usize,
    think_ms: u64,
    seed: u64,
    epoch: Instant,
) -> Result<Vec<(f64, f64)>, String> {
    let mut latencies = Vec::with_capacity(plies);
    let mut rng = seed;
    let mut made = 0;
    while made < plies {
        // The newest state or move event says whether it is our turn and what is legal.
        while last.playing() && last.dests.is_empty() {
            let m = read(&mut ws, || format!("after {made} moves")).await?;
            if m.t == Kind::State || m.t == Kind::Move {
                last = m;
            }
        }
        if !last.playing() {
            break;
        }
        if think_ms > 0 {
            // Think for 50-150% of the pace, so that the games do not move in lockstep.
            let pause = think_ms / 2 + (rng % think_ms.max(1));
            tokio::time::sleep(std::time::Duration::from_millis(pause)).await;
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let [from_file, from_rank, to_file, to_rank] =
            last.dests[(rng % last.dests.len() as u64) as usize];
        let pawn_push =
            (from_rank == b'7' && to_rank == b'8') || (from_rank == b'2' && to_rank == b'1');
        let from = [from_file, from_rank];
        let from = std::str::from_utf8(&from).map_err(|_| "a square not in ASCII")?;
        let promotion = pawn_push && fen_has_pawn(last.fen.as_deref().unwrap_or(""), from);
        let uci = format!(
            "{from}{}{}{}",
            to_file as char,
            to_rank as char,
            if promotion { "q" } else { "" }
        );
        let sent = Instant::now();
        let msg = format!(r#"{{"t":"move","uci":"{uci}","id":{made}}}"#);
        ws.send(Message::Text(msg.into()))
            .await
            .map_err(|e| format!("sending a move: {e}"))?;
        let mut acked = false;
        let mut updated = false;
        // Wait for both the ack and the move's event (either may come first).
        while !(acked && updated) {
            let m = read(&mut ws, || format!("waiting for ack {made}")).await?;
            match m.t {
                Kind::State | Kind::Move => {
                    last = m;
                    updated = true;
                }
                Kind::Ack | Kind::Error if m.id == Some(made as u64) => {
                    if m.t == Kind::Error {
                        return Err(format!("{uci} refused"));
                    }
                    let at = sent.duration_since(epoch).as_secs_f64();
                    latencies.push((at, sent.elapsed().as_secs_f64() * 1000.0));
                    acked = true;
                }
                _ => {}
            }
        }
        made += 1;
    }
    Ok(latencies)
}

/// The upper bound of the bucket that holds the 99th percentile of a Prometheus histogram.
fn histogram_p99_ms(text: &str, name: &str) -> String {
    let prefix = format!("{name}_bucket{{le=\"");
    let buckets: Vec<(String, f64)> = text
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix(&prefix)?;
            let (le, count) = rest.split_once("\"} ")?;
            Some((le.to_string(), count.trim().parse().ok()?))
        })
        .collect();
    let total = buckets.last().map_or(0.0, |b| b.1);
    buckets
        .iter()
        .find(|(_, count)| *count >= 0.99 * total)
        .map_or("?".into(), |(le, _)| match le.parse::<f64>() {
            Ok(s) => format!("{}", s * 1000.0),
            Err(_) => le.clone(),
        })
}

fn fen_has_pawn(fen: &str, square: &str) -> bool {
    let file = (square.as_bytes()[0] - b'a') as usize;
    let rank = (square.as_bytes()[1] - b'1') as usize;
    let row = fen.split('/').nth(7 - rank).unwrap_or("");
    let mut col = 0;
    for c in row.chars() {
        if let Some(d) = c.to_digit(10) {
            col += d as usize;
        } else {
            if col == file {
                return c == 'P' || c == 'p';
            }
            col += 1;
        }
        if col > file {
            break;
        }
    }
    false
}

/// A 20-move Ruy Lopez, resigned after, for the reviews.
const REVIEWED: [&str; 20] = [
    "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6",
    "c3", "O-O", "h3", "Nb8", "d4", "Nbd7",
];

/// One browser keeping the analysis pool busy: a game played and resigned, its review asked
/// for and awaited, again and again; each review's positions are counted.
async fn review_forever(
    http: reqwest::Client,
    addr: String,
    reviewed: Arc<std::sync::atomic::AtomicU64>,
) {
    let me = cookie(&http, &addr).await.expect("a reviewer's cookie");
    loop {
        let created: Value = http
            .post(format!("http://{addr}/api/games"))
            .header("cookie", &me)
            .json(&json!({"kind": "local", "timeControl": "-"}))
            .send()
            .await
            .expect("create")
            .json()
            .await
            .expect("create");
        let id = created["id"].as_str().expect("an id").to_string();
        let (mut ws, _) = open(&addr, &id, &me).await.expect("a reviewer's socket");
        for (n, mv) in REVIEWED.iter().chain(["resign"].iter()).enumerate() {
            let msg = if *mv == "resign" {
                json!({"t": "resign", "side": "white", "id": n})
            } else {
                json!({"t": "move", "uci": mv, "id": n})
            };
            ws.send(Message::Text(msg.to_string().into()))
                .await
                .expect("a reviewer's move");
            loop {
                let m = read(&mut ws, || "a reviewer's ack".into())
                    .await
                    .expect("an ack");
                if m.id == Some(n as u64) && (m.t == Kind::Ack || m.t == Kind::Error) {
                    break;
                }
            }
        }
        let url = format!("http://{addr}/api/games/{id}/review");
        http.post(&url)
            .header("cookie", &me)
            .send()
            .await
            .expect("a review asked for");
        loop {
            tokio::time::sleep(Duration::from_millis(100)).await;
            let r = http.get(&url).send().await.expect("review status");
            if r.status() == 200 {
                reviewed.fetch_add(
                    REVIEWED.len() as u64 + 1,
                    std::sync::atomic::Ordering::Relaxed,
                );
                break;
            }
        }
    }
}

#[tokio::main]
async fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let friend = args.iter().any(|a| a == "--friend");
    let reviews = args.iter().any(|a| a == "--reviews");
    let spectators: usize = args
        .iter()
        .find_map(|a| a.strip_prefix("--spectators="))
        .map_or(0, |n| n.parse().expect("--spectators=N"));
    args.retain(|a| a != "--friend" && a != "--reviews" && !a.starts_with("--spectators="));
    let number = |i: usize| -> u64 {
        args.get(i).and_then(|a| a.parse().ok()).unwrap_or_else(|| {
            eprintln!(
                "usage: load VIZIER_BINARY GAMES PLIES [THINK_MS] [--friend] [--spectators=N] [--reviews]"
            );
            std::process::exit(2);
        })
    };
    let (bin, games, plies) = (
        args.first().cloned().unwrap_or_default(),
        number(1),
        number(2),
    );
    let think_ms = if args.len() > 3 { number(3) } else { 0 };
    let (games, plies) = (games as usize, plies as usize);
    let data = std::env::temp_dir().join(format!("vizier-load-{}", std::process::id()));
    let mut server = Command::new(&bin)
        .args(["serve", "--port", "0", "--data-dir"])
        .arg(&data)
        .env("NO_COLOR", "1")
        // Every game comes from this one address.
        .env("VIZIER_NEW_GAMES_PER_ADDRESS_HOUR", "0")
        // Every client is on loopback: one address.
        .env("VIZIER_CONNECTIONS_PER_ADDRESS", "0")
        .env("VIZIER_MESSAGES_PER_ADDRESS_SECOND", "0")
        .env("VIZIER_ANALYSES_PER_ADDRESS", "100")
        .env("RUST_LOG", "warn,vizier_server=info")
        // The client's own runtime setting is not the server's.
        .env_remove("TOKIO_WORKER_THREADS")
        .stdout(Stdio::piped())
        .spawn()
        .expect("vizier serve starts");
    let pid = server.id();
    let mut lines = BufReader::new(server.stdout.take().unwrap()).lines();
    let addr = loop {
        let line = lines.next().expect("ready line").unwrap();
        if let Some(rest) = line.split("open http://").nth(1) {
            break rest.split('/').next().unwrap().to_string();
        }
    };
    std::thread::spawn(move || for _ in lines {});
    let idle_kb = status_kb(pid, "VmRSS:");
    // First every game is created and its sockets opened (64 at a time), then all play at
    // once: the figures are for the games' moves at full concurrency, not for the ramp.
    let setting_up = Instant::now();
    let http = reqwest::Client::new();
    let gate = Arc::new(tokio::sync::Semaphore::new(64));
    let mut tasks = Vec::new();
    for _ in 0..games {
        let (http, addr, gate) = (http.clone(), addr.clone(), gate.clone());
        tasks.push(tokio::spawn(async move {
            let _permit = gate.acquire().await.expect("the gate stays open");
            set_up(http, addr, friend).await
        }));
    }
    let mut sockets = Vec::new();
    let mut ids = Vec::new();
    let mut failures = Vec::new();
    for t in tasks {
        match t.await.unwrap() {
            Ok((id, s)) => {
                ids.push(id);
                sockets.extend(s);
            }
            Err(e) => failures.push(e),
        }
    }
    // The spectator storm: every one of them watches the first game (40 a browser, under the
    // server's cap of sockets per player) and reads all it is sent.
    let watched = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let mut browser = String::new();
    for i in 0..spectators {
        if i % 40 == 0 {
            browser = cookie(&http, &addr).await.expect("a spectator's cookie");
        }
        let (mut ws, _) = open(&addr, &ids[0], &browser)
            .await
            .expect("a spectator's socket");
        let watched = watched.clone();
        tokio::spawn(async move {
            while let Some(Ok(_)) = ws.next().await {
                watched.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
        });
    }
    if !failures.is_empty() {
        server.kill().ok();
        eprintln!(
            "{} games could not be set up; the first: {}",
            failures.len(),
            failures[0]
        );
        std::process::exit(1);
    }
    println!(
        "{games} games set up ({} sockets, {spectators} spectators on one) in {:.1} s",
        sockets.len(),
        setting_up.elapsed().as_secs_f64()
    );
    let cpu_before = cpu_s(pid);
    let client_before = cpu_s("self");
    let started = Instant::now();
    let wal = data.join("vizier.db-wal");
    let wal_peak = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let sampler = {
        let wal_peak = wal_peak.clone();
        tokio::spawn(async move {
            loop {
                let size = std::fs::metadata(&wal).map_or(0, |m| m.len());
                wal_peak.fetch_max(size, std::sync::atomic::Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        })
    };
    let reviewed = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let reviewers: Vec<_> = (0..if reviews { 2 } else { 0 })
        .map(|_| tokio::spawn(review_forever(http.clone(), addr.clone(), reviewed.clone())))
        .collect();
    let per_socket = if friend { plies / 2 } else { plies };
    let mut playing = tokio::task::JoinSet::new();
    for (i, (ws, first)) in sockets.into_iter().enumerate() {
        playing.spawn(play(
            ws,
            first,
            per_socket,
            think_ms,
            0x9E37_79B9 + i as u64 * 7919,
            started,
        ));
    }
    let mut l = Vec::new();
    while let Some(done) = playing.join_next().await {
        match done.expect("a player task does not panic") {
            Ok(latencies) => l.extend(latencies),
            Err(e) => {
                // The first failure ends the run: no latency of a broken game goes missing.
                server.kill().ok();
                eprintln!("a game failed: {e}");
                std::process::exit(1);
            }
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    sampler.abort();
    for r in reviewers {
        r.abort();
    }
    if reviews {
        let n = reviewed.load(std::sync::atomic::Ordering::Relaxed);
        println!(
            "reviews alongside: {n} positions reviewed in {elapsed:.1} s ({:.1} positions/s)",
            n as f64 / elapsed
        );
    }
    if spectators > 0 {
        println!(
            "the {spectators} spectators received {} messages",
            watched.load(std::sync::atomic::Ordering::Relaxed)
        );
    }
    let cpu = cpu_s(pid) - cpu_before;
    let client_cpu = cpu_s("self") - client_before;
    let metrics = reqwest::get(format!("http://{addr}/metrics"))
        .await
        .and_then(|r| r.error_for_status())
        .expect("/metrics answers");
    let metrics = metrics.text().await.expect("/metrics answers");
    let peak_kb = status_kb(pid, "VmHWM:");
    let slow = slow_seconds(&l, SLOW_MS);
    let mut l: Vec<f64> = l.into_iter().map(|(_, ms)| ms).collect();
    let moves = l.len();
    l.sort_by(f64::total_cmp);
    let pct = |p: f64| {
        if l.is_empty() {
            f64::NAN
        } else {
            l[((l.len() as f64 - 1.0) * p) as usize]
        }
    };
    println!(
        "{games} concurrent {} games, {think_ms} ms pace, {moves} moves in {elapsed:.1} s ({:.0} moves/s)",
        if friend { "friend" } else { "same-device" },
        moves as f64 / elapsed
    );
    println!(
        "move ack latency ms: p50 {:.2}  p90 {:.2}  p99 {:.2}  max {:.2}",
        pct(0.5),
        pct(0.9),
        pct(0.99),
        pct(1.0)
    );
    println!(
        "server memory: {:.1} MiB idle, {:.1} MiB peak; CPU {cpu:.1} s ({:.0}% of one core)",
        idle_kb as f64 / 1024.0,
        peak_kb as f64 / 1024.0,
        100.0 * cpu / elapsed
    );
    println!(
        "in the server (bucket bounds): ack p99 <= {} ms, store p99 <= {} ms; client CPU {:.0}% of one core",
        histogram_p99_ms(&metrics, "vizier_ack_seconds"),
        histogram_p99_ms(&metrics, "vizier_store_append_seconds"),
        100.0 * client_cpu / elapsed
    );
    println!(
        "SQLite: WAL at most {:.1} MiB; the writer's checkpoint p99 <= {} ms",
        wal_peak.load(std::sync::atomic::Ordering::Relaxed) as f64 / (1024.0 * 1024.0),
        histogram_p99_ms(&metrics, "vizier_store_checkpoint_seconds"),
    );
    println!("{slow}");
    server.kill().ok();
    server.wait().ok();
    std::fs::remove_dir_all(&data).ok();
}

/// Acks slower than this are counted by the second of the run their move was sent in.
const SLOW_MS: f64 = 10.0;

/// How many acks took over `slow_ms`, and the seconds of the run with the most of them: slow
/// acks bunched at a period point at periodic work (the journal's fold, a checkpoint), spread
/// evenly at the machine.
fn slow_seconds(latencies: &[(f64, f64)], slow_ms: f64) -> String {
    let mut by_second = std::collections::BTreeMap::<u64, usize>::new();
    for &(at, ms) in latencies {
        if ms > slow_ms {
            *by_second.entry(at as u64).or_default() += 1;
        }
    }
    let total: usize = by_second.values().sum();
    let mut busiest: Vec<(u64, usize)> = by_second.iter().map(|(&s, &n)| (s, n)).collect();
    busiest.sort_by_key(|&(s, n)| (std::cmp::Reverse(n), s));
    let shown: Vec<String> = busiest
        .iter()
        .take(10)
        .map(|(s, n)| format!("{s} s: {n}"))
        .collect();
    format!(
        "acks over {slow_ms} ms: {total}, in {} seconds of the run; the most in {}",
        by_second.len(),
        shown.join(", ")
    )
}
