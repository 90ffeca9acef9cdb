//! The floods of issue #52 run against a `vizier serve` started here with its default limits,
//! one after another, each from its own loopback address, while a legitimate player at
//! 127.0.0.200 keeps creating same-device games and moving in them. For each flood it prints
//! the player's move acknowledgements (p50, p99, max), game creations, the slowest `/healthz`
//! and the server's largest RSS and thread count; it exits with status 1 if any flood breaks a
//! bound: a move's p99 under 100 ms, `/healthz` within 200 ms (always answered), RSS under
//! `RSS_BOUND_MIB`, and the server still running.
//!
//! ```sh
//! cargo build --profile fast -p vizier -p vizier-server --examples --bins
//! ulimit -n 65536
//! target/fast/examples/abuse target/fast/vizier            # every flood, ~15 s each
//! target/fast/examples/abuse target/fast/vizier 5 slow-bodies sockets   # some, 5 s each
//! ```

#[path = "support/proc.rs"]
mod proc;
use proc::status_kb;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio::sync::Mutex;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// The most memory the server may hold during any flood.
const RSS_BOUND_MIB: u64 = 512;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// An HTTP client from loopback address `local`, without cookies.
fn client(local: [u8; 4]) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(std::net::IpAddr::from(local))
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap()
}

/// A WebSocket at `path` from `local`, with `cookie` if any.
async fn socket(addr: SocketAddr, local: [u8; 4], path: &str, cookie: Option<&str>) -> Option<Ws> {
    let mut req = format!("ws://{addr}{path}").into_client_request().ok()?;
    if let Some(c) = cookie {
        req.headers_mut().insert("cookie", c.parse().ok()?);
    }
    let s = tokio::net::TcpSocket::new_v4().ok()?;
    s.bind(SocketAddr::from((local, 0))).ok()?;
    let tcp = tokio::time::timeout(Duration::from_secs(5), s.connect(addr))
        .await
        .ok()?
        .ok()?;
    let plain = tokio_tungstenite::MaybeTlsStream::Plain(tcp);
    let (ws, _) = tokio::time::timeout(
        Duration::from_secs(5),
        tokio_tungstenite::client_async(req, plain),
    )
    .await
    .ok()?
    .ok()?;
    Some(ws)
}

/// The next text message as JSON, within `wait`.
async fn next_json(ws: &mut Ws, wait: Duration) -> Option<Value> {
    tokio::time::timeout(wait, async {
        loop {
            match ws.next().await {
                Some(Ok(Message::Text(t))) => return serde_json::from_str(t.as_str()).ok(),
                Some(Ok(_)) => {}
                _ => return None,
            }
        }
    })
    .await
    .ok()
    .flatten()
}

/// What the legitimate player saw during one flood.
#[derive(Default)]
struct Seen {
    acks_ms: Vec<f64>,
    creates_ms: Vec<f64>,
    failures: Vec<String>,
}

/// The legitimate player: a same-device game after another from 127.0.0.200, a move every
/// 150 ms, until `stop`.
async fn player(addr: SocketAddr, seen: Arc<Mutex<Seen>>, stop: Arc<AtomicBool>) {
    const LOCAL: [u8; 4] = [127, 0, 0, 200];
    let http = client(LOCAL);
    let base = format!("http://{addr}");
    let cookie = match http.get(format!("{base}/")).send().await {
        Ok(r) => first_cookie(&r),
        Err(_) => None,
    };
    let Some(cookie) = cookie else {
        seen.lock().await.failures.push("no guest cookie".into());
        return;
    };
    let moves = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5",
    ];
    while !stop.load(Ordering::Relaxed) {
        let started = Instant::now();
        let created = http
            .post(format!("{base}/api/games"))
            .header("cookie", &cookie)
            .json(&json!({"kind": "local", "timeControl": "300+2"}))
            .send()
            .await;
        let id = match created {
            Ok(r) if r.status().as_u16() == 201 => {
                let v: Value = r.json().await.unwrap_or_default();
                v["id"].as_str().unwrap_or_default().to_string()
            }
            Ok(r) => {
                seen.lock()
                    .await
                    .failures
                    .push(format!("create: {}", r.status()));
                tokio::time::sleep(Duration::from_millis(500)).await;
                continue;
            }
            Err(e) => {
                seen.lock().await.failures.push(format!("create: {e}"));
                continue;
            }
        };
        seen.lock()
            .await
            .creates_ms
            .push(started.elapsed().as_secs_f64() * 1e3);
        let Some(mut ws) = socket(
            addr,
            LOCAL,
            &format!("/api/games/{id}/socket"),
            Some(&cookie),
        )
        .await
        else {
            seen.lock()
                .await
                .failures
                .push("game socket refused".into());
            continue;
        };
        let _ = next_json(&mut ws, Duration::from_secs(5)).await;
        for (i, mv) in moves.iter().enumerate() {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(150)).await;
            let sent = Instant::now();
            let msg = json!({"t": "move", "uci": mv, "id": i + 1}).to_string();
            if ws.send(Message::Text(msg.into())).await.is_err() {
                seen.lock().await.failures.push("socket closed".into());
                break;
            }
            let acked = tokio::time::timeout(Duration::from_secs(5), async {
                loop {
                    let v = next_json(&mut ws, Duration::from_secs(5)).await?;
                    if v["id"] == json!(i + 1) {
                        return Some(v);
                    }
                }
            })
            .await;
            match acked {
                Ok(Some(v)) if v["t"] == "ack" => seen
                    .lock()
                    .await
                    .acks_ms
                    .push(sent.elapsed().as_secs_f64() * 1e3),
                other => {
                    seen.lock()
                        .await
                        .failures
                        .push(format!("move {mv}: {other:?}"));
                    break;
                }
            }
        }
        let msg = json!({"t": "resign", "id": 100}).to_string();
        let _ = ws.send(Message::Text(msg.into())).await;
        let _ = ws.close(None).await;
    }
}

/// The first cookie a response sets, as a `Cookie` header gives it back.
fn first_cookie(r: &reqwest::Response) -> Option<String> {
    r.headers()
        .get("set-cookie")
        .and_then(|c| c.to_str().ok())
        .and_then(|c| c.split(';').next())
        .map(str::to_string)
}

/// Samples `/healthz` (from 127.0.0.201) and the server's memory and threads until `stop`.
async fn watch(addr: SocketAddr, pid: u32, stop: Arc<AtomicBool>) -> (f64, u64, u64, usize) {
    let http = client([127, 0, 0, 201]);
    let (mut slowest, mut rss, mut threads, mut unanswered) = (0f64, 0u64, 0u64, 0usize);
    while !stop.load(Ordering::Relaxed) {
        let started = Instant::now();
        let r = http
            .get(format!("http://{addr}/healthz"))
            .timeout(Duration::from_secs(2))
            .send()
            .await;
        match r {
            Ok(r) if r.status().is_success() => {
                slowest = slowest.max(started.elapsed().as_secs_f64() * 1e3)
            }
            _ => unanswered += 1,
        }
        rss = rss.max(status_kb(pid, "VmRSS:"));
        threads = threads.max(status_kb(pid, "Threads:"));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    (slowest, rss / 1024, threads, unanswered)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// A flood: runs until `until`, from loopback addresses of its own.
async fn flood(name: &str, addr: SocketAddr, until: Instant) -> String {
    let base = format!("http://{addr}");
    match name {
        // Deeply nested variations on the analysis socket, again and again.
        "nested-pgn" => {
            let mut sent = 0;
            let pgn = format!("1. e4 {}{} *", "(1. d4 ".repeat(3_000), ")".repeat(3_000));
            let msg = json!({"t": "import", "id": 1, "pgn": pgn}).to_string();
            while Instant::now() < until {
                let Some(mut ws) = socket(addr, [127, 0, 1, 1], "/api/analysis/socket", None).await
                else {
                    continue;
                };
                for _ in 0..20 {
                    if ws.send(Message::Text(msg.clone().into())).await.is_err() {
                        break;
                    }
                    let _ = next_json(&mut ws, Duration::from_secs(2)).await;
                    sent += 1;
                }
            }
            format!("{sent} imports of 3,000 nested variations")
        }
        // 1,100 connections promising 100,000-byte bodies, a byte every 3 s.
        "slow-bodies" => {
            let mut held = Vec::new();
            for i in 0..1_100u32 {
                let local = [127, 0, 2, (i % 4) as u8 + 1];
                let s = tokio::net::TcpSocket::new_v4().unwrap();
                if s.bind(SocketAddr::from((local, 0))).is_err() {
                    continue;
                }
                let Ok(Ok(mut tcp)) =
                    tokio::time::timeout(Duration::from_millis(200), s.connect(addr)).await
                else {
                    continue;
                };
                let head = "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
                            Content-Length: 100000\r\n\r\n{";
                if tcp.write_all(head.as_bytes()).await.is_ok() {
                    held.push(tcp);
                }
            }
            let opened = held.len();
            while Instant::now() < until {
                tokio::time::sleep(Duration::from_secs(3)).await;
                let mut alive = Vec::new();
                for mut tcp in held {
                    if tcp.write_all(b" ").await.is_ok() {
                        alive.push(tcp);
                    }
                }
                held = alive;
            }
            format!(
                "1,100 trickling connections tried, {opened} written to, {} alive at the end",
                held.len()
            )
        }
        // Cookieless level-10 computer games, each with its socket.
        "engine" => {
            let (mut made, mut refused, mut sockets) = (0, 0, Vec::new());
            for i in 0..60u8 {
                let local = [127, 0, 3, 1 + i % 2];
                let http = client(local);
                let r = http
                    .post(format!("{base}/api/games"))
                    .json(&json!({"kind": "computer", "level": 10, "timeControl": "600+0", "color": "black"}))
                    .send()
                    .await;
                match r {
                    Ok(r) if r.status().as_u16() == 201 => {
                        let cookie = first_cookie(&r);
                        let v: Value = r.json().await.unwrap_or_default();
                        let id = v["id"].as_str().unwrap_or_default().to_string();
                        made += 1;
                        let path = format!("/api/games/{id}/socket");
                        if let Some(ws) = socket(addr, local, &path, cookie.as_deref()).await {
                            sockets.push(ws);
                        }
                    }
                    _ => refused += 1,
                }
            }
            while Instant::now() < until {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            format!(
                "60 computer games asked: {made} made, {refused} refused, {} sockets",
                sockets.len()
            )
        }
        // Cookieless sockets that seek, on private sockets and in the lobby.
        "lobby" => {
            let (mut acked, mut refused, mut sockets) = (0, 0, Vec::new());
            for i in 0..667u32 {
                let private = i % 2 == 0;
                let path = if private {
                    "/api/lobby/socket?only=private"
                } else {
                    "/api/lobby/socket"
                };
                let Some(mut ws) = socket(addr, [127, 0, 4, 1], path, None).await else {
                    refused += 1;
                    continue;
                };
                let _ = next_json(&mut ws, Duration::from_secs(2)).await;
                for (n, msg) in [
                    json!({"t": "seek", "timeControl": "180+2", "id": 1}),
                    json!({"t": "pool", "timeControl": "1+0", "id": 2}),
                ]
                .into_iter()
                .enumerate()
                {
                    let _ = ws.send(Message::Text(msg.to_string().into())).await;
                    let answer = loop {
                        match next_json(&mut ws, Duration::from_secs(2)).await {
                            Some(v) if v["id"] == json!(n + 1) => break Some(v),
                            Some(_) => {}
                            None => break None,
                        }
                    };
                    match answer {
                        Some(v) if v["t"] == "ack" => acked += 1,
                        _ => refused += 1,
                    }
                }
                sockets.push(ws);
                if Instant::now() >= until {
                    break;
                }
            }
            while Instant::now() < until {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            format!("667 lobby sockets: {acked} seeks and pool places taken, {refused} refused")
        }
        // New games by every path from one address: forms, pools (pairs of guests).
        "new-games" => {
            let (mut made, mut refused) = (0, 0);
            while Instant::now() < until {
                let http = client([127, 0, 5, 1]);
                let r = http
                    .post(format!("{base}/api/games"))
                    .json(&json!({"kind": "local", "timeControl": "60+0"}))
                    .send()
                    .await;
                match r {
                    Ok(r) if r.status().as_u16() == 201 => made += 1,
                    _ => refused += 1,
                }
                let (a, b) = (
                    socket(addr, [127, 0, 5, 1], "/api/lobby/socket", None).await,
                    socket(addr, [127, 0, 5, 1], "/api/lobby/socket", None).await,
                );
                if let (Some(mut a), Some(mut b)) = (a, b) {
                    let pool = json!({"t": "pool", "timeControl": "1+0"}).to_string();
                    let _ = a.send(Message::Text(pool.clone().into())).await;
                    let _ = b.send(Message::Text(pool.into())).await;
                    let paired = tokio::time::timeout(Duration::from_millis(300), async {
                        loop {
                            match next_json(&mut a, Duration::from_millis(300)).await {
                                Some(v) if v["t"] == "paired" => return true,
                                Some(_) => {}
                                None => return false,
                            }
                        }
                    })
                    .await;
                    if paired == Ok(true) {
                        made += 1;
                    } else {
                        refused += 1;
                    }
                }
            }
            format!("{made} new games made, {refused} refused")
        }
        // Wrong passwords at one account from one address, then the owner from another.
        "lock-out" => {
            let owner = client([127, 0, 6, 1]);
            let _ = owner.get(format!("{base}/")).send().await;
            let name = format!("victim{}", std::process::id() % 10_000);
            let _ = owner
                .post(format!("{base}/signup"))
                .json(&json!({"username": name, "password": "the right one"}))
                .send()
                .await;
            let attacker = client([127, 0, 6, 2]);
            let mut tries = 0;
            while Instant::now() < until {
                let _ = attacker
                    .post(format!("{base}/login"))
                    .json(&json!({"username": name, "password": format!("guess {tries}")}))
                    .send()
                    .await;
                tries += 1;
            }
            let elsewhere = client([127, 0, 6, 3]);
            let r = elsewhere
                .post(format!("{base}/login"))
                .json(&json!({"username": name, "password": "the right one"}))
                .send()
                .await
                .map(|r| r.status().as_u16())
                .unwrap_or(0);
            format!("{tries} wrong passwords; the owner from elsewhere got {r}")
        }
        // Cookieless sockets from one address, as many as it lets open.
        "sockets" => {
            let mut open = Vec::new();
            let mut refused = 0;
            for _ in 0..5_000 {
                match socket(addr, [127, 0, 7, 1], "/api/lobby/socket?only=private", None).await {
                    Some(ws) => open.push(ws),
                    None => refused += 1,
                }
                if Instant::now() >= until {
                    break;
                }
            }
            while Instant::now() < until {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            format!(
                "5,000 sockets tried: {} open, {refused} refused",
                open.len()
            )
        }
        // Sign-ins in parallel (memory), and made-up names (throttle tables).
        "sign-ins" => {
            let mut tasks = Vec::new();
            for i in 0..800u32 {
                let base = base.clone();
                tasks.push(tokio::spawn(async move {
                    let http = client([127, 0, 8, (i % 200) as u8 + 1]);
                    http.post(format!("{base}/login"))
                        .json(
                            &json!({"username": format!("name{i}"), "password": "whatever it is"}),
                        )
                        .send()
                        .await
                        .map(|r| r.status().as_u16())
                        .unwrap_or(0)
                }));
            }
            let mut statuses = std::collections::BTreeMap::new();
            for t in tasks {
                *statuses.entry(t.await.unwrap_or(0)).or_insert(0) += 1;
            }
            let names = client([127, 0, 8, 250]);
            let mut made_up = 0;
            while Instant::now() < until {
                let _ = names
                    .post(format!("{base}/login"))
                    .json(&json!({"username": format!("n{made_up}"), "password": "x"}))
                    .send()
                    .await;
                made_up += 1;
            }
            format!("800 parallel sign-ins {statuses:?}; {made_up} made-up names")
        }
        // Cookieless analysis sockets, each asking for an analysis.
        "analysis" => {
            let (mut taken, mut refused, mut sockets) = (0, 0, Vec::new());
            for i in 0..40 {
                let Some(mut ws) = socket(addr, [127, 0, 9, 1], "/api/analysis/socket", None).await
                else {
                    refused += 1;
                    continue;
                };
                let msg = json!({"t": "analyse", "id": i}).to_string();
                let _ = ws.send(Message::Text(msg.into())).await;
                match next_json(&mut ws, Duration::from_millis(500)).await {
                    Some(v) if v["t"] == "error" => refused += 1,
                    _ => taken += 1,
                }
                sockets.push(ws);
            }
            while Instant::now() < until {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            format!("40 analyses asked: {taken} taken, {refused} refused")
        }
        other => format!("no flood called {other}"),
    }
}

const FLOODS: [&str; 9] = [
    "nested-pgn",
    "slow-bodies",
    "engine",
    "lobby",
    "new-games",
    "lock-out",
    "sockets",
    "sign-ins",
    "analysis",
];

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(bin) = args.first().cloned() else {
        eprintln!("usage: abuse VIZIER [SECONDS] [FLOOD…]");
        std::process::exit(2);
    };
    let seconds: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(15);
    let chosen: Vec<String> = if args.len() > 2 {
        args[2..].to_vec()
    } else {
        FLOODS.iter().map(|s| s.to_string()).collect()
    };
    let data = std::env::temp_dir().join(format!("vizier-abuse-{}", std::process::id()));
    let mut server = Command::new(&bin)
        .args(["serve", "--port", "0", "--data-dir"])
        .arg(&data)
        .env("NO_COLOR", "1")
        .env("RUST_LOG", "warn,vizier_server=info")
        .stdout(Stdio::piped())
        .spawn()
        .expect("vizier serve starts");
    let pid = server.id();
    let mut lines = BufReader::new(server.stdout.take().unwrap()).lines();
    let addr: SocketAddr = loop {
        let line = lines.next().expect("ready line").unwrap();
        if let Some(rest) = line.split("open http://").nth(1) {
            break rest.split('/').next().unwrap().parse().unwrap();
        }
    };
    std::thread::spawn(move || for _ in lines {});
    println!(
        "server {addr}, pid {pid}, idle RSS {} MiB; {seconds} s a flood",
        status_kb(pid, "VmRSS:") / 1024
    );
    println!(
        "{:<12} {:>6} {:>7} {:>7} {:>7} {:>8} {:>9} {:>6} {:>7}  what the flood did",
        "flood", "moves", "p50 ms", "p99 ms", "max ms", "creates", "health ms", "MiB", "threads"
    );
    let mut broken = Vec::new();
    for name in &chosen {
        let seen = Arc::new(Mutex::new(Seen::default()));
        let stop = Arc::new(AtomicBool::new(false));
        let until = Instant::now() + Duration::from_secs(seconds);
        let playing = tokio::spawn(player(addr, seen.clone(), stop.clone()));
        let watching = tokio::spawn(watch(addr, pid, stop.clone()));
        let what = flood(name, addr, until).await;
        stop.store(true, Ordering::Relaxed);
        let _ = playing.await;
        let (health_ms, rss_mib, threads, unanswered) = watching.await.unwrap();
        let seen = seen.lock().await;
        let mut acks = seen.acks_ms.clone();
        acks.sort_by(f64::total_cmp);
        let p99 = percentile(&acks, 0.99);
        println!(
            "{:<12} {:>6} {:>7.1} {:>7.1} {:>7.1} {:>8} {:>9.1} {:>6} {:>7}  {what}",
            name,
            acks.len(),
            percentile(&acks, 0.5),
            p99,
            acks.last().copied().unwrap_or(f64::NAN),
            seen.creates_ms.len(),
            health_ms,
            rss_mib,
            threads
        );
        let alive = matches!(server.try_wait(), Ok(None));
        if !alive {
            broken.push(format!("{name}: the server died"));
            break;
        }
        if acks.is_empty() || p99 >= 100.0 {
            broken.push(format!(
                "{name}: move p99 {p99:.1} ms over {} moves",
                acks.len()
            ));
        }
        if health_ms >= 200.0 || unanswered > 0 {
            broken.push(format!(
                "{name}: /healthz {health_ms:.1} ms, {unanswered} unanswered"
            ));
        }
        if rss_mib >= RSS_BOUND_MIB {
            broken.push(format!("{name}: RSS {rss_mib} MiB"));
        }
        if !seen.failures.is_empty() {
            broken.push(format!(
                "{name}: the player saw {:?}",
                &seen.failures[..seen.failures.len().min(3)]
            ));
        }
        // Let the flood's connections close before the next.
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
    let _ = server.kill();
    let _ = std::fs::remove_dir_all(&data);
    if broken.is_empty() {
        println!("every bound held");
    } else {
        for b in &broken {
            println!("BROKEN {b}");
        }
        std::process::exit(1);
    }
}
