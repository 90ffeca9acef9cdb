//! Lobby load: CLIENTS lobby sockets (guests) against a `vizier serve` started here, while a
//! few seekers open SEEKS_PER_MINUTE seeks (each withdrawn a few seconds later) for SECONDS.
//! Every `seek-added` that reaches a client is timed from the seek's creation on the server
//! (`createdAt`, the same machine's clock) to its arrival; prints the latency over every
//! delivery, how many arrived of those expected, and the server's memory and CPU time.
//!
//! ```sh
//! ulimit -n 20000
//! cargo build --profile fast -p vizier -p vizier-server --examples --bins
//! target/fast/examples/lobby_load target/fast/vizier 2000 100 60
//! ```

#[path = "support/proc.rs"]
mod proc;
use proc::{cpu_s, status_kb};

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::sync::Mutex;
use tokio_tungstenite::tungstenite::Message;

fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn lobby(addr: &str) -> Socket {
    let url = format!("ws://{addr}/api/lobby/socket");
    let (ws, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("lobby socket opens");
    ws
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number =
        |i: usize, default: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let bin = args.first().cloned().unwrap_or_else(|| {
        eprintln!("usage: lobby_load VIZIER_BINARY CLIENTS SEEKS_PER_MINUTE SECONDS");
        std::process::exit(2)
    });
    let (clients, per_minute, seconds) = (number(1, 2000), number(2, 100), number(3, 60));
    let data = std::env::temp_dir().join(format!("vizier-lobby-load-{}", std::process::id()));
    let mut server = Command::new(&bin)
        .args(["serve", "--port", "0", "--data-dir"])
        .arg(&data)
        .env("NO_COLOR", "1")
        // Every client is on loopback: one address.
        .env("VIZIER_CONNECTIONS_PER_ADDRESS", "0")
        .env("VIZIER_MESSAGES_PER_ADDRESS_SECOND", "0")
        .env("VIZIER_SEEKS_PER_ADDRESS", "0")
        .env("VIZIER_NEW_GAMES_PER_ADDRESS_HOUR", "0")
        .env("RUST_LOG", "warn,vizier_server=info")
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

    // The audience: every socket a guest of its own.
    let latencies = Arc::new(Mutex::new(Vec::<u64>::with_capacity(
        (clients * per_minute * seconds / 60) as usize,
    )));
    let broken = Arc::new(AtomicU64::new(0));
    let mut audience = Vec::new();
    let gate = Arc::new(tokio::sync::Semaphore::new(64));
    let mut opened = Vec::new();
    for _ in 0..clients {
        let (addr, gate) = (addr.clone(), gate.clone());
        opened.push(tokio::spawn(async move {
            let _permit = gate.acquire().await;
            lobby(&addr).await
        }));
    }
    for o in opened {
        let mut ws = o.await.unwrap();
        let (latencies, broken) = (latencies.clone(), broken.clone());
        audience.push(tokio::spawn(async move {
            let mut mine = Vec::new();
            while let Some(m) = ws.next().await {
                match m {
                    Ok(Message::Text(t)) => {
                        if !t.as_str().contains("\"seek-added\"") {
                            continue;
                        }
                        let now = unix_ms();
                        let v: Value = serde_json::from_str(t.as_str()).unwrap_or_default();
                        if let Some(at) = v["seek"]["createdAt"].as_u64() {
                            mine.push(now.saturating_sub(at));
                        }
                    }
                    Ok(Message::Close(_)) => break,
                    Ok(_) => {}
                    Err(_) => {
                        broken.fetch_add(1, Ordering::Relaxed);
                        break;
                    }
                }
            }
            latencies.lock().await.extend(mine);
        }));
    }
    let rss_connected = status_kb(pid, "VmRSS:");
    println!(
        "{clients} lobby sockets open; server RSS {} MiB (idle {} MiB)",
        rss_connected / 1024,
        idle_kb / 1024
    );

    // The seekers: a few guests taking turns, each withdrawing its seek two seconds later.
    let seekers = 4;
    let mut seeker_sockets = Vec::new();
    for _ in 0..seekers {
        seeker_sockets.push(lobby(&addr).await);
    }
    let cpu_before = cpu_s(pid);
    let every = Duration::from_millis(60_000 / per_minute.max(1));
    let total = per_minute * seconds / 60;
    let mut acks = Vec::new();
    let mut tick = tokio::time::interval(every);
    let mut pending: Vec<(usize, String, tokio::time::Instant)> = Vec::new();
    for i in 0..total as usize {
        tick.tick().await;
        let s = i % seekers;
        let ws = &mut seeker_sockets[s];
        // Withdraw this seeker's seeks older than two seconds.
        let mut keep = Vec::new();
        for (who, id, at) in pending.drain(..) {
            if who == s && at.elapsed() > Duration::from_secs(2) {
                let cancel = json!({"t": "cancel-seek", "seek": id});
                ws.send(Message::Text(cancel.to_string().into()))
                    .await
                    .unwrap();
            } else {
                keep.push((who, id, at));
            }
        }
        pending = keep;
        let sent = tokio::time::Instant::now();
        let seek = json!({"t": "seek", "timeControl": "300+3", "id": i});
        ws.send(Message::Text(seek.to_string().into()))
            .await
            .unwrap();
        // Read until this seek's ack.
        loop {
            let Some(Ok(Message::Text(t))) = ws.next().await else {
                panic!("seeker socket broke");
            };
            let v: Value = serde_json::from_str(t.as_str()).unwrap_or_default();
            if v["t"] == "ack" && v["id"] == json!(i) {
                acks.push(sent.elapsed().as_secs_f64() * 1000.0);
                pending.push((s, v["seek"].as_str().unwrap_or("").to_string(), sent));
                break;
            }
            if v["t"] == "error" && v["id"] == json!(i) {
                panic!("seek refused: {v}");
            }
        }
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let cpu = cpu_s(pid) - cpu_before;
    let rss = status_kb(pid, "VmRSS:");
    let peak = status_kb(pid, "VmHWM:");
    // Sockets that broke while the server ran (killing it breaks them all).
    let broke = broken.load(Ordering::Relaxed);
    let _ = server.kill();
    let _ = server.wait();
    for a in audience {
        let _ = a.await;
    }
    let _ = std::fs::remove_dir_all(&data);
    let mut l = latencies.lock().await.clone();
    l.sort_unstable();
    let q = |p: f64| {
        l.get(((l.len() as f64 * p) as usize).min(l.len().saturating_sub(1)))
            .copied()
            .unwrap_or(0)
    };
    let expected = total * clients;
    acks.sort_by(f64::total_cmp);
    let aq = |p: f64| {
        acks.get(((acks.len() as f64 * p) as usize).min(acks.len().saturating_sub(1)))
            .copied()
            .unwrap_or(0.0)
    };
    println!(
        "{total} seeks in {seconds} s to {clients} clients: {} of {expected} deliveries; \
         seek-added latency p50 {} ms, p99 {} ms, max {} ms; seeker's ack p50 {:.1} ms, p99 {:.1} ms",
        l.len(),
        q(0.5),
        q(0.99),
        l.last().copied().unwrap_or(0),
        aq(0.5),
        aq(0.99),
    );
    println!(
        "server: RSS {} MiB (peak {} MiB), {cpu:.1} s CPU over the run ({:.0}% of a core); {} sockets broke",
        rss / 1024,
        peak / 1024,
        100.0 * cpu / seconds as f64,
        broke
    );
    if l.len() as u64 != expected || broke > 0 {
        std::process::exit(1);
    }
}
