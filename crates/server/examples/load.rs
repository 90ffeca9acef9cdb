//! Load test: N browsers, each playing a same-device game of fast moves over its own
//! WebSocket (one socket a game; the games are created over a few shared HTTP connections),
//! against a `vizier serve` started here. Prints move-acknowledgement latency (send → ack,
//! which includes storing the move) over every move of every game, the server's memory and CPU
//! time. Any failure (a refused move, a socket that breaks) ends the run with status 1. With THINK_MS each
//! player pauses about that long before each move (bullet pace: ~1000); without it every
//! move follows the last acknowledgement at once, which measures the server's capacity.
//!
//! ```sh
//! ulimit -n 16384
//! cargo build --profile fast -p vizier -p vizier-server --examples --bins
//! target/fast/examples/load target/fast/vizier 1000 40 1000   # 1000 games at bullet pace
//! target/fast/examples/load target/fast/vizier 1000 40        # flat out: capacity
//! ```

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Instant;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::sync::Mutex;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::{Message, http::HeaderValue};

fn rss_kb(pid: u32, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or(0)
}

/// The server's CPU time so far (user + system), in seconds.
fn cpu_s(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    (ticks(11) + ticks(12)) / 100.0
}

async fn one_game(
    http: reqwest::Client,
    addr: String,
    plies: usize,
    think_ms: u64,
    seed: u64,
    latencies: Arc<Mutex<Vec<f64>>>,
) -> Result<usize, String> {
    let home = http
        .get(format!("http://{addr}/"))
        .send()
        .await
        .map_err(|e| format!("GET /: {e}"))?;
    let cookie = home.headers()["set-cookie"].to_str().unwrap();
    let cookie = cookie.split(';').next().unwrap().to_string();
    let created: Value = http
        .post(format!("http://{addr}/api/games"))
        .header("cookie", &cookie)
        .json(&json!({"kind": "local", "timeControl": "3600+0"}))
        .send()
        .await
        .map_err(|e| format!("create: {e}"))?
        .json()
        .await
        .map_err(|e| format!("create: {e}"))?;
    let id = created["id"].as_str().ok_or(format!("create: {created}"))?;
    let mut req = format!("ws://{addr}/api/games/{id}/socket")
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("cookie", HeaderValue::from_str(&cookie).unwrap());
    let (mut ws, _) = tokio_tungstenite::connect_async(req)
        .await
        .map_err(|e| format!("socket: {e}"))?;
    let mut rng = seed;
    let mut state = Value::Null;
    let mut made = 0;
    while made < plies {
        // The newest state says which moves are legal.
        while state["t"] != "state" {
            let Some(Ok(Message::Text(t))) = ws.next().await else {
                return Err(format!("the socket ended after {made} moves"));
            };
            state = serde_json::from_str(t.as_str()).unwrap();
        }
        if state["status"] != "playing" {
            break;
        }
        if think_ms > 0 {
            // Think for 50-150% of the pace, so that the games do not move in lockstep.
            let pause = think_ms / 2 + (rng % think_ms.max(1));
            tokio::time::sleep(std::time::Duration::from_millis(pause)).await;
        }
        let dests = state["dests"].as_object().unwrap();
        let moves: Vec<String> = dests
            .iter()
            .flat_map(|(from, to)| {
                to.as_array()
                    .unwrap()
                    .iter()
                    .map(move |t| format!("{from}{}", t.as_str().unwrap()))
            })
            .collect();
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let mut uci = moves[(rng % moves.len() as u64) as usize].clone();
        let from_rank = uci.as_bytes()[1];
        let to_rank = uci.as_bytes()[3];
        let fen = state["fen"].as_str().unwrap();
        let pawn_push =
            (from_rank == b'7' && to_rank == b'8') || (from_rank == b'2' && to_rank == b'1');
        if pawn_push && fen_has_pawn(fen, &uci[0..2]) {
            uci.push('q');
        }
        let sent = Instant::now();
        let msg = json!({"t": "move", "uci": uci, "id": made});
        ws.send(Message::Text(msg.to_string().into()))
            .await
            .map_err(|e| format!("sending a move: {e}"))?;
        state = Value::Null;
        loop {
            let Some(Ok(Message::Text(t))) = ws.next().await else {
                return Err(format!("the socket ended waiting for ack {made}"));
            };
            let m: Value = serde_json::from_str(t.as_str()).unwrap();
            if m["t"] == "state" {
                state = m;
            } else if m["id"] == json!(made) {
                if m["t"] != "ack" {
                    return Err(format!("{uci} refused: {m}"));
                }
                latencies
                    .lock()
                    .await
                    .push(sent.elapsed().as_secs_f64() * 1000.0);
                break;
            }
        }
        made += 1;
    }
    Ok(made)
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

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (bin, games, plies, think_ms) = match &args[1..] {
        [bin, games, plies] => (
            bin.clone(),
            games.parse().unwrap(),
            plies.parse().unwrap(),
            0,
        ),
        [bin, games, plies, think] => (
            bin.clone(),
            games.parse().unwrap(),
            plies.parse().unwrap(),
            think.parse().unwrap(),
        ),
        _ => {
            eprintln!("usage: load VIZIER_BINARY GAMES PLIES [THINK_MS]");
            std::process::exit(2);
        }
    };
    let data = std::env::temp_dir().join(format!("vizier-load-{}", std::process::id()));
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
    let addr = loop {
        let line = lines.next().expect("ready line").unwrap();
        if let Some(rest) = line.split("open http://").nth(1) {
            break rest.split('/').next().unwrap().to_string();
        }
    };
    std::thread::spawn(move || for _ in lines {});
    let idle_kb = rss_kb(pid, "VmRSS:");
    let cpu_before = cpu_s(pid);
    let latencies = Arc::new(Mutex::new(Vec::new()));
    let started = Instant::now();
    let mut tasks = Vec::new();
    // One client for all: games are created over a few pooled connections.
    let http = reqwest::Client::new();
    for g in 0..games {
        let (addr, latencies) = (addr.clone(), latencies.clone());
        tasks.push(tokio::spawn(one_game(
            http.clone(),
            addr,
            plies,
            think_ms,
            0x9E37_79B9 + g as u64 * 7919,
            latencies,
        )));
    }
    let mut moves = 0;
    let mut failures = Vec::new();
    for t in tasks {
        match t.await.unwrap() {
            Ok(n) => moves += n,
            Err(e) => failures.push(e),
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    let cpu = cpu_s(pid) - cpu_before;
    let peak_kb = rss_kb(pid, "VmHWM:");
    let mut l = latencies.lock().await.clone();
    l.sort_by(f64::total_cmp);
    let pct = |p: f64| {
        if l.is_empty() {
            f64::NAN
        } else {
            l[((l.len() as f64 - 1.0) * p) as usize]
        }
    };
    println!(
        "{games} concurrent games, {think_ms} ms pace, {moves} moves in {elapsed:.1} s ({:.0} moves/s)",
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
    server.kill().ok();
    server.wait().ok();
    std::fs::remove_dir_all(&data).ok();
    if !failures.is_empty() {
        eprintln!(
            "{} of {games} games failed; the first: {}",
            failures.len(),
            failures[0]
        );
        std::process::exit(1);
    }
}
