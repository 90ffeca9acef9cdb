//! Routes: the JSON API ([`games`]), the game socket ([`socket`]), the player cookie, and the
//! embedded web client.

mod account;
mod address;
mod analysis;
pub(crate) mod api;
mod archive;
mod body;
mod challenge;
mod conditional;
mod cookies;
mod game_path;
mod game_socket;
pub mod game_view;
mod games;
pub mod lobby;
mod origin;
mod prefs;
mod socket;
mod tournament;
mod users;
mod vacation;

use crate::lobby::local::LocalLobby;
use crate::throttle::{Budget, LocalThrottles, Rate, Throttles};
use std::sync::Arc;

use axum::extract::{FromRef, Request, State};
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use axum_extra::extract::SignedCookieJar;
use axum_extra::extract::cookie::Key;
use tokio::sync::{mpsc, watch};
use tower_http::compression::CompressionLayer;
use tower_http::compression::predicate::{DefaultPredicate, NotForContentType, Predicate};

use crate::protocol::ErrorCode;
use vizier_play::hub::Hub;
use vizier_play::ids::PlayerId;

pub use account::SignedIn;
pub use analysis::board_reply;

/// What the handlers share.
#[derive(Clone)]
pub struct AppState {
    pub hub: Arc<Hub>,
    /// What clients may make the server spend.
    pub limits: Arc<crate::Limits>,
    key: Key,
    shutdown: Shutdown,
    /// Each player's and each address's socket messages, on this node.
    messages: Arc<crate::bucket::Messages>,
    /// The live state nodes share: the lobby's, and the budgets of sign-ups, sign-ins and
    /// new games.
    throttles: Arc<dyn Throttles>,
    passwords: crate::account::Passwords,
    /// The lobby: seeks, pools, who is here.
    pub lobby: Arc<crate::lobby::Lobby>,
    sockets: Arc<socket::Sockets>,
    /// Connections and sockets open from each address.
    per_address: Arc<crate::listen::PerAddress>,
    /// The origin players reach the server at (`https://chess.example`), when it is known.
    public_origin: Option<String>,
    /// Whether a proxy's `X-Forwarded-For` names the client.
    trust_forwarded_for: bool,
    /// The analysis threads, and the reviews made on them.
    analysis: Arc<crate::analysis::Pool>,
    reviews: Arc<crate::analysis::reviews::Reviews>,
    /// The lichess-compatible API's streams and budgets.
    api: Arc<api::ApiState>,
    /// The tournaments.
    pub director: Arc<vizier_compete::Director>,
}

impl AppState {
    /// State over `hub`, signing cookies with `key` (at least 64 bytes), within `limits`.
    pub fn new(hub: Arc<Hub>, key: &[u8], limits: crate::Limits) -> AppState {
        let throttles: Arc<dyn Throttles> =
            Arc::new(LocalThrottles::with_budgets(|budget| match budget {
                Budget::NewGame => Rate::per_hour(limits.games.new_games_per_address_hour, None),
                Budget::SignUp => Rate::per_hour(limits.signups_per_address_hour, None),
                Budget::SignInByAddress => {
                    Rate::per_hour(limits.logins_per_address_hour, Some(20.0))
                }
                Budget::SignInByAccount => {
                    Rate::per_hour(limits.logins_per_account_hour, Some(10.0))
                }
                Budget::LiveExport => {
                    Rate::per_hour(limits.live_exports_per_address_hour, Some(20.0))
                }
                Budget::PasswordCheck => Rate::per_hour(limits.logins_per_account_hour, Some(10.0)),
                Budget::Import => Rate::per_hour(limits.imports_per_address_hour, Some(20.0)),
            }));
        hub.policy
            .share(Arc::new(crate::throttle::NewGames(Arc::clone(&throttles))));
        let lobby = crate::lobby::Lobby::on(
            Arc::clone(&hub),
            Arc::new(LocalLobby::with_clock(hub.settings.clock.clone())),
            limits.seeks_per_address,
        );
        let analysis = Arc::new(crate::analysis::Pool::new(limits));
        let reviews = Arc::new(crate::analysis::reviews::Reviews::new(
            Arc::clone(&analysis),
            hub.store.clone(),
        ));
        AppState {
            hub: Arc::clone(&hub),
            limits: Arc::new(limits),
            key: Key::from(key),
            shutdown: shutdown().1,
            messages: Arc::new(crate::bucket::Messages::new(
                limits.messages_per_second,
                limits.messages_per_address_second,
            )),
            throttles,
            passwords: crate::account::Passwords::default(),
            lobby,
            sockets: Arc::default(),
            per_address: crate::listen::PerAddress::new(limits.connections_per_address),
            public_origin: None,
            trust_forwarded_for: false,
            analysis,
            reviews,
            api: Arc::new(api::ApiState::new(&limits)),
            director: vizier_compete::Director::new(Arc::clone(&hub)),
        }
    }

    /// The same state, counting a request against the address in its `X-Forwarded-For`
    /// (behind a proxy that sets it) when `trust` is true.
    pub fn trusting_forwarded_for(self, trust: bool) -> AppState {
        AppState {
            trust_forwarded_for: trust,
            ..self
        }
    }

    /// The same state, served to players at `url` (`https://chess.example/`): the socket's
    /// Origin check compares with it, and over https the cookie is `Secure`.
    pub fn with_public_url(self, url: Option<&str>) -> AppState {
        // The origin is the scheme and authority, without the path.
        let public_origin = url.map(|u| match u.parse::<Uri>() {
            Ok(uri) => match (uri.scheme_str(), uri.authority()) {
                (Some(scheme), Some(authority)) => format!("{scheme}://{authority}"),
                _ => u.trim_end_matches('/').to_string(),
            },
            Err(_) => u.trim_end_matches('/').to_string(),
        });
        if let Some(origin) = &public_origin {
            self.hub.set_site(origin);
        }
        AppState {
            public_origin,
            ..self
        }
    }

    /// The count of connections and sockets by address, which the listener shares.
    pub fn per_address(&self) -> Arc<crate::listen::PerAddress> {
        Arc::clone(&self.per_address)
    }

    /// Whether players reach the server over TLS.
    fn secure(&self) -> bool {
        self.public_origin
            .as_deref()
            .is_some_and(|o| o.to_ascii_lowercase().starts_with("https://"))
    }

    /// The same state, its sockets closing when `shutdown` says so.
    pub fn with_shutdown(self, shutdown: Shutdown) -> AppState {
        AppState { shutdown, ..self }
    }
}

/// What the sockets hold while the server runs: they close (with a "going away" frame) when
/// it stops, and the server waits for them ([`Stopping::wait`]).
#[derive(Clone)]
pub struct Shutdown {
    signal: watch::Receiver<bool>,
    _alive: mpsc::Sender<()>,
}

/// The server's side of [`Shutdown`].
pub struct Stopping {
    signal: Arc<watch::Sender<bool>>,
    alive: mpsc::Receiver<()>,
}

/// Tells every socket to close; from anywhere.
#[derive(Clone)]
pub struct StopSignal(Arc<watch::Sender<bool>>);

impl StopSignal {
    pub fn stop(&self) {
        let _ = self.0.send(true);
    }
}

/// A new shutdown signal: the server keeps [`Stopping`], the state [`Shutdown`].
pub fn shutdown() -> (Stopping, Shutdown) {
    let (tx, rx) = watch::channel(false);
    let (alive_tx, alive_rx) = mpsc::channel(1);
    (
        Stopping {
            signal: Arc::new(tx),
            alive: alive_rx,
        },
        Shutdown {
            signal: rx,
            _alive: alive_tx,
        },
    )
}

impl Stopping {
    /// What tells every socket to close.
    pub fn signal(&self) -> StopSignal {
        StopSignal(self.signal.clone())
    }

    /// Tells every socket to close, then waits until every [`Shutdown`] is gone (the sockets
    /// have closed), `limit` at most.
    pub async fn wait(mut self, limit: std::time::Duration) -> bool {
        let _ = self.signal.send(true);
        tokio::time::timeout(limit, self.alive.recv()).await.is_ok()
    }
}

impl Shutdown {
    /// Whether the server is stopping.
    pub fn is_stopping(&self) -> bool {
        *self.signal.borrow()
    }

    /// Resolves once the server is stopping.
    pub async fn stopping(&mut self) {
        if self.signal.wait_for(|&stop| stop).await.is_err() {
            // No server to stop it (a test's state): it never stops.
            std::future::pending::<()>().await;
        }
    }
}

impl FromRef<AppState> for Key {
    fn from_ref(state: &AppState) -> Key {
        state.key.clone()
    }
}

/// The player's id from their signed cookie.
#[derive(Clone, Debug)]
pub struct Player(pub PlayerId);

/// The app.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/api/levels", get(levels))
        .route("/signup", get(crate::assets::serve).post(account::sign_up))
        .route("/login", get(crate::assets::serve).post(account::log_in))
        .route("/logout", post(account::log_out))
        .route("/api/account", get(account::me))
        .route("/api/account/password", post(account::change_password))
        .route("/api/account/preferences", post(account::preferences))
        .route("/api/account/close", post(account::close))
        .route("/api/account/sessions", get(account::sessions))
        .route("/api/user/{name}", get(users::user))
        .route("/api/games/user/{name}", get(archive::games_of))
        .route("/api/games/mine", get(archive::mine))
        .route("/game/export/{id}", get(archive::export))
        .route(
            "/api/user/{name}/rating-history",
            get(users::rating_history),
        )
        .route(
            "/api/account/sessions/{id}",
            axum::routing::delete(account::end_session),
        )
        .route(
            "/api/account/vacation",
            get(vacation::show).post(vacation::start),
        )
        .route("/api/account/vacation/end", post(vacation::end))
        .route("/api/games", post(games::create))
        .route("/api/games/{id}/pgn", get(games::pgn))
        .route(
            "/api/games/{id}/conditional",
            get(conditional::show).post(conditional::set),
        )
        .route(
            "/api/games/{id}/review",
            get(analysis::review).post(analysis::start_review),
        )
        .route("/api/analysis/socket", get(analysis::socket))
        .route("/api/games/{id}/socket", get(socket::socket))
        .route("/api/lobby/socket", get(lobby::socket))
        .route("/api/challenge", get(challenge::list))
        .route("/api/challenge/{name}", post(challenge::create))
        .route("/api/challenge/{id}/accept", post(challenge::accept))
        .route("/api/challenge/{id}/decline", post(challenge::decline))
        .route("/api/challenge/{id}/cancel", post(challenge::cancel))
        .route(
            "/api/tournament",
            get(tournament::list).post(tournament::create),
        )
        .route("/api/tournament/{id}", get(tournament::show))
        .route("/api/tournament/{id}/trf", get(tournament::trf))
        .route("/api/tournament/{id}/games", get(tournament::games))
        .route("/api/tournament/{id}/result", post(tournament::correct))
        .route("/api/tournament/{id}/{command}", post(tournament::command))
        .route(
            "/api/tournament/{id}/player/{number}",
            post(tournament::player_details),
        )
        .route("/healthz", get(health))
        .route("/readyz", get(ready))
        .route("/metrics", get(metrics_page))
        .merge(api::routes())
        .merge(test_clock(&state))
        .fallback(crate::assets::serve)
        .layer(middleware::from_fn_with_state(state.clone(), identify))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            from_our_pages,
        ))
        .layer(middleware::map_response(secure_headers))
        // Apps on other sites may call the API with a token, as lichess's may: never with the
        // player's cookies (no credentials), so reading a page's answer gives them nothing.
        .layer(
            tower_http::cors::CorsLayer::new()
                .allow_origin(tower_http::cors::Any)
                .allow_methods([Method::GET, Method::POST, Method::DELETE])
                .allow_headers([header::AUTHORIZATION, header::CONTENT_TYPE]),
        )
        .layer(CompressionLayer::new().compress_when(
            // A stream's lines must reach the client as they are written.
            DefaultPredicate::new().and(NotForContentType::const_new("application/x-ndjson")),
        ))
        .with_state(state)
}

/// `POST /api/test/clock {"advanceMs": N}`, only on a server whose time tests may move on.
fn test_clock(state: &AppState) -> Router<AppState> {
    if !state.hub.settings.clock.is_movable() {
        return Router::new();
    }
    Router::new().route(
        "/api/test/clock",
        post(
            |State(state): State<AppState>, Json(body): Json<serde_json::Value>| async move {
                let ms = body["advanceMs"].as_u64().unwrap_or(0);
                state.hub.settings.clock.advance(ms);
                Json(serde_json::json!({"now": state.hub.now()}))
            },
        ),
    )
}

/// What a page of this server may load and do: its own scripts, styles and sockets only
/// (chessground's pieces are `data:` images in its style sheet), never framed by another.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
    img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; \
    form-action 'self'; frame-ancestors 'none'";

/// The headers every response carries. No referrer: a page's address may hold an invite.
async fn secure_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    for (name, value) in [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "no-referrer"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

/// Gives every browser an anonymous player id in a signed, HttpOnly, SameSite cookie, and
/// finds the signed-in account of one with a session: its player is then the account's.
///
/// A guest id that became an account's (at sign-up) acts only through that account's
/// sessions: a request bringing it without one is given a fresh guest id, so that a copy of
/// the cookie from before sign-up is worth nothing.
async fn identify(
    State(state): State<AppState>,
    jar: SignedCookieJar,
    sessions: axum_extra::extract::CookieJar,
    mut request: Request,
    next: Next,
) -> Response {
    if let Some(bearer) = api::auth::bearer(request.headers()) {
        return with_token(state, bearer.map(str::to_string), request, next).await;
    }
    let known = jar
        .get(state.player_cookie())
        .map(|c| c.value().to_string())
        .filter(|v| v.len() == 32 && v.bytes().all(|b| b.is_ascii_hexdigit()))
        .map(PlayerId::known);
    let resolved = account::resolve(&state, &sessions).await;
    let known = match (known, &resolved) {
        (Some(id), None) => match state.hub.store.is_user(id.as_str()).await {
            Ok(false) => Some(id),
            Ok(true) => None,
            Err(e) => {
                tracing::warn!("telling a guest from an account: {e}");
                return refusal(
                    StatusCode::SERVICE_UNAVAILABLE,
                    ErrorCode::Storage,
                    "the database did not answer",
                );
            }
        },
        (known, _) => known,
    };
    let (id, new_guest) = match known {
        Some(id) => (id, false),
        None => (PlayerId::random(), true),
    };
    let (account, renew) = match resolved {
        Some((account, renew)) => (Some(account), renew),
        None => (None, false),
    };
    // A session cookie that names no live session (ended, expired, its account closed) goes.
    let stale = account.is_none() && sessions.get(state.session_cookie()).is_some();
    let player = account
        .as_ref()
        .map_or_else(|| id.clone(), |a| a.id.clone());
    request.extensions_mut().insert(Player(player));
    request.extensions_mut().insert(SignedIn(account));
    let response = next.run(request).await;
    // A handler that set a cookie itself (signing up, in or out does) has the last word.
    let sets = |name: &str| {
        response
            .headers()
            .get_all(header::SET_COOKIE)
            .iter()
            .any(|c| c.as_bytes().starts_with(format!("{name}=").as_bytes()))
    };
    let guest =
        (new_guest && !sets(state.player_cookie())).then(|| jar.add(state.guest_cookie(&id)));
    let session = if sets(state.session_cookie()) {
        None
    } else if renew {
        // The token is the one the browser sent: only its life is renewed.
        let token = sessions
            .get(state.session_cookie())
            .map(|c| c.value().to_string());
        token.map(|t| sessions.clone().add(state.session_token_cookie(t)))
    } else if stale {
        Some(sessions.clone().remove(state.session_removal()))
    } else {
        None
    };
    match (guest, session) {
        (None, None) => response,
        (Some(g), None) => (g, response).into_response(),
        (None, Some(s)) => (s, response).into_response(),
        (Some(g), Some(s)) => (g, s, response).into_response(),
    }
}

/// A request with `Authorization: Bearer …`: it acts for the token's account, within the
/// token's scopes and budget, and is given no cookie. An unknown token is refused at once; so
/// is every token from an address that sent too many unknown ones.
async fn with_token(
    state: AppState,
    token: Result<String, ()>,
    mut request: Request,
    next: Next,
) -> Response {
    let peer = (request.extensions())
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        .map(|c| c.0);
    let from =
        address::client(peer, request.headers(), state.trust_forwarded_for).map(|a| a.to_string());
    if !state.api.has_address_budget(from.as_deref()) {
        return api::too_many();
    }
    let account = match token {
        Ok(token) => match api::auth::account_of(&state, &token).await {
            Ok(found) => found,
            Err(refused) => return refused,
        },
        Err(()) => None,
    };
    let Some(account) = account else {
        state.api.take_address(from.as_deref(), 1);
        return api::auth::no_such_token();
    };
    if !state.api.take_token(&account.session) {
        return api::too_many();
    }
    request.extensions_mut().insert(Player(account.id.clone()));
    request.extensions_mut().insert(SignedIn(Some(account)));
    next.run(request).await
}

/// Refuses a request that changes anything (any method but GET, HEAD and OPTIONS) from a
/// page of another site, which would act with the player's cookies: before anything else
/// is done for it.
async fn from_our_pages(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let reads = matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    // A request with a token acts by the token, never by cookies: a page elsewhere cannot
    // forge it without the token.
    let by_token = request.headers().contains_key(header::AUTHORIZATION);
    if !reads
        && !by_token
        && !origin::from_our_pages(request.headers(), state.public_origin.as_deref())
    {
        return account::foreign();
    }
    next.run(request).await
}

/// Alive and able to store moves: the database answers and the last write went through.
async fn health(State(state): State<AppState>) -> Response {
    match state.hub.store.health().await {
        Ok(()) => "ok".into_response(),
        Err(e) => (StatusCode::SERVICE_UNAVAILABLE, format!("database: {e}")).into_response(),
    }
}

/// Whether a load balancer should send players here: healthy and not stopping.
async fn ready(State(state): State<AppState>) -> Response {
    if state.shutdown.is_stopping() {
        return (StatusCode::SERVICE_UNAVAILABLE, "stopping").into_response();
    }
    health(State(state)).await
}

/// The measurements in Prometheus's text format.
async fn metrics_page() -> Response {
    let text = crate::metrics::handle()
        .map(|h| h.render())
        .unwrap_or_default();
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], text).into_response()
}

async fn levels() -> Json<Vec<crate::levels::LevelInfo>> {
    Json(crate::levels::all())
}

pub(super) fn bad_request(message: impl Into<String>) -> Response {
    refusal(StatusCode::BAD_REQUEST, ErrorCode::BadRequest, message)
}

/// A refused request: its code for the client to translate, and English for people.
pub(super) fn refusal(status: StatusCode, code: ErrorCode, message: impl Into<String>) -> Response {
    let body = serde_json::json!({ "code": code, "error": message.into() });
    (status, Json(body)).into_response()
}

pub(super) fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "no such game").into_response()
}
