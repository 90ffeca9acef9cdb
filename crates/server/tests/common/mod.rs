//! What the HTTP tests share: a server on loopback, and a browser with its cookie jar and
//! sockets.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::Arc;

use futures_util::StreamExt;
use reqwest::cookie::{CookieStore, Jar};
use reqwest::redirect::Policy;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::{Message, http::HeaderValue};

pub async fn start(limits: vizier_server::Limits) -> SocketAddr {
    start_on(limits, None).await
}

/// The PostgreSQL database `VIZIER_TEST_POSTGRES` names, for the tests that need one (ignored
/// unless asked for: `scripts/test.sh` starts PostgreSQL and runs them). Unset, such a test
/// fails rather than pass without testing anything.
pub fn postgres_url() -> String {
    std::env::var("VIZIER_TEST_POSTGRES")
        .expect("VIZIER_TEST_POSTGRES is not set: this test needs PostgreSQL")
}

/// A schema of its own in the PostgreSQL database `VIZIER_TEST_POSTGRES` names, as a URL
/// for the server.
pub async fn postgres_schema() -> String {
    use sqlx::Connection;
    let url = postgres_url();
    let schema = format!("t{}", rand::random::<u32>());
    let mut conn = sqlx::PgConnection::connect(&url).await.unwrap();
    sqlx::query(&format!("CREATE SCHEMA {schema}"))
        .execute(&mut conn)
        .await
        .unwrap();
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}options=-c%20search_path%3D{schema}")
}

/// A server on loopback, on `database` (a URL) or else a fresh SQLite directory.
pub async fn start_on(limits: vizier_server::Limits, database: Option<String>) -> SocketAddr {
    let dir = std::env::temp_dir().join(format!("vizier-acct-{}", rand::random::<u64>()));
    let config = vizier_server::Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        data_dir: dir,
        database,
        human_pace: false,
        computer_move_ms: vizier_server::Settings::COMPUTER_MOVE_MS,
        public_url: None,
        trust_forwarded_for: false,
        test_clock: false,
        limits,
    };
    let (tx, rx) = tokio::sync::oneshot::channel();
    tokio::spawn(async move { vizier_server::serve(config, Some(tx)).await.unwrap() });
    rx.await.unwrap()
}

/// A browser: its own cookie jar; redirects are not followed, so that tests see them.
pub struct Browser {
    pub addr: SocketAddr,
    pub http: reqwest::Client,
    pub jar: Arc<Jar>,
    /// The loopback address it connects from (127.0.0.1 unless another is asked for).
    pub local: std::net::IpAddr,
}

impl Browser {
    pub async fn new(addr: SocketAddr) -> Browser {
        Browser::from_address(addr, [127, 0, 0, 1]).await
    }

    /// A browser connecting from `local`, a loopback address of its own (127.0.0.0/8), as a
    /// client elsewhere on the internet would.
    pub async fn from_address(addr: SocketAddr, local: [u8; 4]) -> Browser {
        let b = Browser::without_visit(addr, local);
        b.http.get(b.url("/")).send().await.unwrap();
        b
    }

    /// A browser that has not been to the site yet: no cookie.
    pub fn without_visit(addr: SocketAddr, local: [u8; 4]) -> Browser {
        let jar = Arc::new(Jar::default());
        let local = std::net::IpAddr::from(local);
        let http = reqwest::Client::builder()
            .cookie_provider(jar.clone())
            .redirect(Policy::none())
            .local_address(local)
            .build()
            .unwrap();
        Browser {
            addr,
            http,
            jar,
            local,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        let r = self
            .http
            .post(self.url(path))
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    pub async fn get(&self, path: &str) -> (u16, Value) {
        let r = self.http.get(self.url(path)).send().await.unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    /// The body of `GET path` as text (PGN, NDJSON).
    pub async fn text(&self, path: &str) -> String {
        let r = self.http.get(self.url(path)).send().await.unwrap();
        r.text().await.unwrap()
    }

    pub fn cookies(&self) -> String {
        self.jar
            .cookies(&self.url("/").parse().unwrap())
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default()
    }

    /// The sides this browser holds in `game`, from its socket's first state.
    pub async fn sides(&self, game: &str) -> Value {
        let mut ws = self.socket(&format!("/api/games/{game}/socket")).await;
        loop {
            let v = next_json(&mut ws).await;
            if v["t"] == "state" {
                return v["you"].clone();
            }
        }
    }

    /// A WebSocket at `path`, with this browser's cookie.
    pub async fn socket(&self, path: &str) -> Ws {
        let mut req = format!("ws://{}{path}", self.addr)
            .into_client_request()
            .unwrap();
        req.headers_mut()
            .insert("cookie", HeaderValue::from_str(&self.cookies()).unwrap());
        self.try_socket_with(req).await.unwrap()
    }

    /// A WebSocket at `path`, or the HTTP status it was refused with.
    pub async fn try_socket(&self, path: &str) -> Result<Ws, u16> {
        let mut req = format!("ws://{}{path}", self.addr)
            .into_client_request()
            .unwrap();
        if !self.cookies().is_empty() {
            req.headers_mut()
                .insert("cookie", HeaderValue::from_str(&self.cookies()).unwrap());
        }
        self.try_socket_with(req).await
    }

    async fn try_socket_with(
        &self,
        req: tokio_tungstenite::tungstenite::handshake::client::Request,
    ) -> Result<Ws, u16> {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(SocketAddr::new(self.local, 0)).unwrap();
        let tcp = socket.connect(self.addr).await.map_err(|_| 0u16)?;
        match tokio_tungstenite::client_async(req, tokio_tungstenite::MaybeTlsStream::Plain(tcp))
            .await
        {
            Ok((ws, _)) => Ok(ws),
            Err(tokio_tungstenite::tungstenite::Error::Http(r)) => Err(r.status().as_u16()),
            Err(_) => Err(0),
        }
    }
}

/// A client's WebSocket.
pub type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The next text message on `ws` as JSON (other frames are skipped); within 10 s.
pub async fn next_json(ws: &mut Ws) -> Value {
    loop {
        let m = tokio::time::timeout(std::time::Duration::from_secs(10), ws.next())
            .await
            .expect("a message within 10 s")
            .unwrap()
            .unwrap();
        if let Message::Text(t) = m {
            return serde_json::from_str(t.as_str()).unwrap();
        }
    }
}

/// A game's socket, as a player uses it.
pub struct Seat {
    pub ws: Ws,
    pub next: u64,
    pub state: Value,
}

impl Seat {
    pub async fn open(b: &Browser, game: &str) -> Seat {
        let ws = b.socket(&format!("/api/games/{game}/socket")).await;
        let mut seat = Seat {
            ws,
            next: 1,
            state: Value::Null,
        };
        seat.recv().await;
        seat
    }

    pub async fn recv(&mut self) -> Value {
        let v = next_json(&mut self.ws).await;
        if v["t"] == "state" {
            self.state = v.clone();
        }
        v
    }

    /// Sends a command; its ack or error.
    pub async fn send(&mut self, mut msg: Value) -> Value {
        use futures_util::SinkExt;
        let id = self.next;
        self.next += 1;
        msg["id"] = json!(id);
        self.ws
            .send(Message::Text(msg.to_string().into()))
            .await
            .unwrap();
        loop {
            let m = self.recv().await;
            if (m["t"] == "ack" || m["t"] == "error") && m["id"] == json!(id) {
                return m;
            }
        }
    }

    /// The next state that satisfies `pred`.
    pub async fn state_where(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        while !pred(&self.state) {
            self.recv().await;
        }
        self.state.clone()
    }
}

pub fn creds(name: &str, password: &str) -> Value {
    json!({ "username": name, "password": password })
}

/// A lobby socket.
pub struct LobbyClient {
    pub ws: Ws,
    pub next: u64,
    /// Every message received, in order.
    pub seen: Vec<Value>,
}

impl LobbyClient {
    pub async fn open(b: &Browser) -> LobbyClient {
        LobbyClient::open_at(b, "/api/lobby/socket").await
    }

    /// A lobby socket at `path` (with its query).
    pub async fn open_at(b: &Browser, path: &str) -> LobbyClient {
        let ws = b.socket(path).await;
        let mut c = LobbyClient {
            ws,
            next: 1,
            seen: Vec::new(),
        };
        let hello = c.recv().await;
        assert_eq!(hello["t"], "hello", "{hello}");
        c
    }

    pub async fn recv(&mut self) -> Value {
        let v = next_json(&mut self.ws).await;
        self.seen.push(v.clone());
        v
    }

    /// Sends a request; its ack or error.
    pub async fn send(&mut self, mut msg: Value) -> Value {
        use futures_util::SinkExt;
        let id = self.next;
        self.next += 1;
        msg["id"] = json!(id);
        self.ws
            .send(Message::Text(msg.to_string().into()))
            .await
            .unwrap();
        loop {
            let m = self.recv().await;
            if (m["t"] == "ack" || m["t"] == "error") && m["id"] == json!(id) {
                return m;
            }
        }
    }

    /// The first message (seen already or next) with this `t` satisfying `pred`.
    pub async fn wait(&mut self, t: &str, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(v) = self.seen.iter().find(|v| v["t"] == t && pred(v)) {
            return v.clone();
        }
        loop {
            let v = self.recv().await;
            if v["t"] == t && pred(&v) {
                return v;
            }
        }
    }
}
