//! `vizier serve` as a process: a `kill -9` mid-game loses no acknowledged move; SIGTERM
//! closes the sockets and exits 0; a second server on the same data directory is refused.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::{Message, http::HeaderValue};

/// Starts the server on a free port; returns it and its address once it is ready.
fn start(data_dir: &std::path::Path) -> (Child, String) {
    start_with(serve_command(data_dir, false))
}

/// `vizier serve` on a free port and `data_dir`; as the unprivileged user `nobody` if
/// `unprivileged` (root ignores file permissions).
fn serve_command(data_dir: &std::path::Path, unprivileged: bool) -> Command {
    let mut command = if unprivileged {
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(env!("CARGO_BIN_EXE_vizier"));
        c
    } else {
        Command::new(env!("CARGO_BIN_EXE_vizier"))
    };
    command
        .args(["serve", "--port", "0", "--instant-computer", "--data-dir"])
        .arg(data_dir)
        .env("NO_COLOR", "1");
    command
}

fn start_with(mut command: Command) -> (Child, String) {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("vizier serve starts");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let addr = loop {
        let line = lines.next().expect("a ready line").unwrap();
        if let Some(rest) = line.split("open http://").nth(1) {
            break rest.split('/').next().unwrap().to_string();
        }
    };
    // Keep reading the log so the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    (child, addr)
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn next_json(ws: &mut Socket) -> Value {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a message")
            .unwrap()
            .unwrap();
        if let Message::Text(t) = m {
            return serde_json::from_str(t.as_str()).unwrap();
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn kill_dash_nine_loses_no_acknowledged_move() {
    let dir = std::env::temp_dir().join(format!("vizier-kill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (mut server, addr) = start(&dir);

    let (id, cookie) = new_game(&addr).await;
    let mut ws = connect(&addr, &id, &cookie).await;
    let moves = ["e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4"];
    let last_state = play(&mut ws, &moves).await;
    // The instant after the last acknowledgement, the server dies without warning.
    server.kill().unwrap();
    server.wait().unwrap();

    let (mut server, addr) = start(&dir);
    let mut ws = connect(&addr, &id, &cookie).await;
    let state = next_json(&mut ws).await;
    assert_eq!(state["t"], "state");
    let sans: Vec<&str> = state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].as_str().unwrap())
        .collect();
    assert_eq!(sans, ["e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4"]);
    assert_eq!(state["status"], "playing");
    // The clock that was stopped shows exactly what it showed before the kill.
    assert_eq!(state["clock"]["running"], "black");
    assert_eq!(state["clock"]["white"], last_state["clock"]["white"]);
    assert_eq!(state["fen"], last_state["fen"]);
    // And the game goes on.
    play(&mut ws, &["g8f6"]).await;
    server.kill().unwrap();
    server.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Plays `moves` on the socket, each acknowledged; returns the last state or move event seen
/// (a move comes back as a `move` event, which carries the clock and position too).
async fn play(ws: &mut Socket, moves: &[&str]) -> Value {
    let mut last_state = Value::Null;
    for (i, mv) in moves.iter().enumerate() {
        let msg = json!({"t": "move", "uci": mv, "id": i});
        ws.send(Message::Text(msg.to_string().into()))
            .await
            .unwrap();
        loop {
            let m = next_json(ws).await;
            if m["t"] == "state" || m["t"] == "move" {
                last_state = m;
            } else if m["id"] == json!(i) {
                assert_eq!(m["t"], "ack", "{mv}: {m}");
                break;
            }
        }
    }
    last_state
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs root and setpriv, to run the server as nobody (scripts/test.sh runs it as root)"]
async fn read_only_files_are_refused_with_a_clear_error_and_lose_nothing() {
    use std::os::unix::fs::PermissionsExt;
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0\n"));
    let setpriv = Command::new("setpriv").arg("--version").output().is_ok();
    assert!(
        root && setpriv,
        "this test needs root and setpriv, to run the server as nobody"
    );
    let dir = std::env::temp_dir().join(format!("vizier-ro-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::chown(&dir, Some(65534), Some(65534)).unwrap();
    let (mut server, addr) = start_with(serve_command(&dir, true));
    let (id, cookie) = new_game(&addr).await;
    let mut ws = connect(&addr, &id, &cookie).await;
    play(&mut ws, &["e2e4", "e7e5", "g1f3", "b8c6"]).await;
    server.kill().unwrap();
    server.wait().unwrap();

    let database: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains("vizier.db"))
        .collect();
    assert!(!database.is_empty());
    let chmod = |mode| {
        for file in &database {
            std::fs::set_permissions(file, std::fs::Permissions::from_mode(mode)).unwrap();
        }
    };
    chmod(0o444);
    let mut refused = serve_command(&dir, true)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let exited = (0..100).find_map(|_| {
        std::thread::sleep(Duration::from_millis(100));
        refused.try_wait().unwrap()
    });
    if exited.is_none() {
        refused.kill().unwrap();
    }
    let said = std::io::read_to_string(refused.stderr.take().unwrap()).unwrap();
    assert!(
        exited.is_some_and(|s| !s.success()),
        "served from read-only files: {exited:?} {said}"
    );
    assert!(said.contains("cannot be written"), "{said}");

    // Writable again: every acknowledged move is there, and the game goes on.
    chmod(0o644);
    let (mut server, addr) = start_with(serve_command(&dir, true));
    let mut ws = connect(&addr, &id, &cookie).await;
    let state = next_json(&mut ws).await;
    let sans: Vec<&str> = state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].as_str().unwrap())
        .collect();
    assert_eq!(sans, ["e4", "e5", "Nf3", "Nc6"]);
    play(&mut ws, &["f1b5"]).await;
    server.kill().unwrap();
    server.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// The game's socket, as the player with `cookie`.
async fn connect(addr: &str, id: &str, cookie: &str) -> Socket {
    let mut req = format!("ws://{addr}/api/games/{id}/socket")
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("cookie", HeaderValue::from_str(cookie).unwrap());
    tokio_tungstenite::connect_async(req).await.unwrap().0
}

/// A new same-device game on the server at `addr`, and its player's cookie.
async fn new_game(addr: &str) -> (String, String) {
    let http = reqwest::Client::new();
    let home = http.get(format!("http://{addr}/")).send().await.unwrap();
    let cookie = home.headers()["set-cookie"].to_str().unwrap();
    let cookie = cookie.split(';').next().unwrap().to_string();
    let created: Value = http
        .post(format!("http://{addr}/api/games"))
        .header("cookie", &cookie)
        .json(&json!({"kind": "local", "timeControl": "600+5"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    (created["id"].as_str().unwrap().to_string(), cookie)
}

#[tokio::test(flavor = "multi_thread")]
async fn sigterm_closes_the_sockets_and_exits_cleanly() {
    let dir = std::env::temp_dir().join(format!("vizier-term-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (mut server, addr) = start(&dir);
    let (id, cookie) = new_game(&addr).await;
    let mut ws = connect(&addr, &id, &cookie).await;
    play(&mut ws, &["e2e4"]).await;

    // A second server on the same data directory is refused, and says why.
    let second = Command::new(env!("CARGO_BIN_EXE_vizier"))
        .args(["serve", "--port", "0", "--data-dir"])
        .arg(&dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(!second.status.success());
    let said = String::from_utf8_lossy(&second.stderr);
    assert!(said.contains("another vizier serve"), "{said}");

    let status = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let close = loop {
        match tokio::time::timeout(Duration::from_secs(10), ws.next()).await {
            Ok(Some(Ok(Message::Close(frame)))) => break frame,
            Ok(Some(Ok(_))) => continue,
            other => panic!("no close frame: {other:?}"),
        }
    };
    let close = close.expect("a close frame with a code");
    assert_eq!(u16::from(close.code), 1001, "going away");
    let exited = (0..100).find_map(|_| {
        std::thread::sleep(Duration::from_millis(100));
        server.try_wait().unwrap()
    });
    assert!(
        exited.is_some_and(|s| s.success()),
        "exit status {exited:?}"
    );

    // The directory is free again, and the move was kept.
    let (mut server, addr) = start(&dir);
    let mut ws = connect(&addr, &id, &cookie).await;
    let state = next_json(&mut ws).await;
    assert_eq!(state["moves"][0]["san"], "e4", "{state}");
    server.kill().unwrap();
    server.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// The first line of a server started with `envs` and nothing on the command line but
/// `serve`; the server is then stopped.
fn first_log_line(envs: &[(&str, &str)]) -> String {
    let dir = std::env::temp_dir().join(format!("vizier-env-{}", rand_suffix()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_vizier"))
        .arg("serve")
        .envs(envs.iter().copied())
        .env("VIZIER_PORT", "0")
        .env("VIZIER_DATA_DIR", &dir)
        .env_remove("NO_COLOR")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let line = lines
        .find(|l| l.as_ref().is_ok_and(|l| l.contains("ready")))
        .expect("a ready line")
        .unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    line
}

fn rand_suffix() -> String {
    use std::time::{SystemTime, UNIX_EPOCH};
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!("{}-{nanos}", std::process::id())
}

#[test]
fn the_log_has_no_colour_codes_off_a_terminal_and_json_on_request() {
    let text = first_log_line(&[]);
    assert!(!text.contains('\u{1b}'), "{text:?}");
    let json = first_log_line(&[("VIZIER_LOG_FORMAT", "json")]);
    let value: Value = serde_json::from_str(&json).expect("one JSON object a line");
    assert_eq!(value["level"], "INFO", "{json}");
    assert!(
        value["fields"]["message"]
            .as_str()
            .unwrap()
            .contains("open http://")
    );
}
