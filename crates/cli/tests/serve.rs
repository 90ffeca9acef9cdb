//! `vizier serve` as a process: a `kill -9` mid-game loses no acknowledged move.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::{Message, http::HeaderValue};

/// Starts the server on a free port; returns it and its address once it is ready.
fn start(data_dir: &std::path::Path) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_vizier"))
        .args(["serve", "--port", "0", "--instant-computer", "--data-dir"])
        .arg(data_dir)
        .env("NO_COLOR", "1")
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

async fn next_json(
    ws: &mut tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
) -> Value {
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
    let id = created["id"].as_str().unwrap().to_string();

    let connect = |addr: String| {
        let (id, cookie) = (id.clone(), cookie.clone());
        async move {
            let mut req = format!("ws://{addr}/api/games/{id}/socket")
                .into_client_request()
                .unwrap();
            req.headers_mut()
                .insert("cookie", HeaderValue::from_str(&cookie).unwrap());
            tokio_tungstenite::connect_async(req).await.unwrap().0
        }
    };
    let mut ws = connect(addr.clone()).await;
    let moves = ["e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4"];
    let mut last_state = Value::Null;
    for (i, mv) in moves.iter().enumerate() {
        let msg = json!({"t": "move", "uci": mv, "id": i});
        ws.send(Message::Text(msg.to_string().into()))
            .await
            .unwrap();
        loop {
            let m = next_json(&mut ws).await;
            if m["t"] == "state" {
                last_state = m;
            } else if m["id"] == json!(i) {
                assert_eq!(m["t"], "ack", "{mv}: {m}");
                break;
            }
        }
    }
    // The instant after the last acknowledgement, the server dies without warning.
    server.kill().unwrap();
    server.wait().unwrap();

    let (mut server, addr) = start(&dir);
    let mut ws = connect(addr).await;
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
    let msg = json!({"t": "move", "uci": "g8f6", "id": 99});
    ws.send(Message::Text(msg.to_string().into()))
        .await
        .unwrap();
    loop {
        let m = next_json(&mut ws).await;
        if m["id"] == json!(99) {
            assert_eq!(m["t"], "ack", "{m}");
            break;
        }
    }
    server.kill().unwrap();
    server.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
