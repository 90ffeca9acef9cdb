//! Load test: N browsers, each playing a same-device game of fast moves over its own
//! WebSocket, against a `vizier serve` started here. Prints move-acknowledgement latency
//! (send → ack, which includes storing the move) and the server's memory. With THINK_MS each
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

async fn one_game(
    addr: String,
    plies: usize,
    think_ms: u64,
    seed: u64,
    latencies: Arc<Mutex<Vec<f64>>>,
) -> usize {
    let http = reqwest::Client::new();
    let home = http
        .get(format!("http://{addr}/"))
        .send()
        .await
        .expect("GET /");
    let cookie = home.headers()["set-cookie"].to_str().unwrap();
    let cookie = cookie.split(';').next().unwrap().to_string();
    let created: Value = http
        .post(format!("http://{addr}/api/games"))
        .header("cookie", &cookie)
        .json(&json!({"kind": "local", "timeControl": "3600+0"}))
        .send()
        .await
        .expect("create")
        .json()
        .await
        .expect("created");
    let id = created["id"].as_str().unwrap();
    let mut req = format!("ws://{addr}/api/games/{id}/socket")
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("cookie", HeaderValue::from_str(&cookie).unwrap());
    let (mut ws, _) = tokio_tungstenite::connect_async(req).await.expect("socket");
    let mut rng = seed;
    let mut state = Value::Null;
    let mut mine = Vec::with_capacity(plies);
    let mut made = 0;
    while made < plies {
        // The newest state says which moves are legal.
        while state["t"] != "state" {
            let Some(Ok(Message::Text(t))) = ws.next().await else {
                return made;
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
            .unwrap();
        state = Value::Null;
        loop {
            let Some(Ok(Message::Text(t))) = ws.next().await else {
                return made;
            };
            let m: Value = serde_json::from_str(t.as_str()).unwrap();
            if m["t"] == "state" {
                state = m;
            } else if m["id"] == json!(made) {
                assert_eq!(m["t"], "ack", "{uci}: {m}");
                mine.push(sent.elapsed().as_secs_f64() * 1000.0);
                break;
            }
        }
        made += 1;
    }
    latencies.lock().await.extend(mine);
    made
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
    let latencies = Arc::new(Mutex::new(Vec::new()));
    let started = Instant::now();
    let mut tasks = Vec::new();
    for g in 0..games {
        let (addr, latencies) = (addr.clone(), latencies.clone());
        tasks.push(tokio::spawn(one_game(
            addr,
            plies,
            think_ms,
            0x9E37_79B9 + g as u64 * 7919,
            latencies,
        )));
    }
    let mut moves = 0;
    for t in tasks {
        moves += t.await.unwrap();
    }
    let elapsed = started.elapsed().as_secs_f64();
    let peak_kb = rss_kb(pid, "VmHWM:");
    let mut l = latencies.lock().await.clone();
    l.sort_by(f64::total_cmp);
    let pct = |p: f64| l[((l.len() as f64 - 1.0) * p) as usize];
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
        "server memory: {:.1} MiB idle, {:.1} MiB peak",
        idle_kb as f64 / 1024.0,
        peak_kb as f64 / 1024.0
    );
    server.kill().ok();
    server.wait().ok();
    std::fs::remove_dir_all(&data).ok();
}
