//! Accounts end to end against a real server on loopback: signing up (JSON and forms),
//! logging in and out, sessions, passwords, closing, throttling, and a guest's games
//! following them into their new account.

mod common;

use common::{Browser, Seat, creds, start};
use serde_json::{Value, json};

#[tokio::test]
async fn sign_up_log_in_sessions_and_closing() {
    let addr = start(vizier_server::Limits::default()).await;
    let ann = Browser::new(addr).await;
    assert_eq!(ann.get("/api/account").await.0, 401);

    // A guest's game follows them into their account.
    let (status, created) = ann
        .post(
            "/api/games",
            json!({"kind": "local", "timeControl": "300+2"}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let game = created["id"].as_str().unwrap().to_string();
    assert_eq!(ann.sides(&game).await, json!(["white", "black"]));

    let (status, me) = ann.post("/signup", creds("Ann_K", "chess is fun")).await;
    assert_eq!(status, 201, "{me}");
    assert_eq!(
        (me["id"].as_str(), me["username"].as_str()),
        (Some("ann_k"), Some("Ann_K"))
    );
    let (status, me) = ann.get("/api/account").await;
    assert_eq!((status, me["username"].as_str()), (200, Some("Ann_K")));
    assert_eq!(ann.sides(&game).await, json!(["white", "black"]));

    // Names are unique ignoring case; bad names and passwords are refused with their code.
    let bob = Browser::new(addr).await;
    let (status, e) = bob.post("/signup", creds("ann_k", "another one")).await;
    assert_eq!((status, e["code"].as_str()), (409, Some("username-taken")));
    let (status, e) = bob.post("/signup", creds("a", "another one")).await;
    assert_eq!((status, e["code"].as_str()), (400, Some("bad-username")));
    let (status, e) = bob.post("/signup", creds("bob", "abc")).await;
    assert_eq!((status, e["code"].as_str()), (400, Some("bad-password")));

    // An unknown name and a wrong password get the same answer.
    let (s1, wrong) = bob.post("/login", creds("Ann_K", "chess is dull")).await;
    let (s2, unknown) = bob.post("/login", creds("nobody", "chess is dull")).await;
    assert_eq!((s1, s2), (401, 401));
    assert_eq!(wrong, unknown);
    assert_eq!(wrong["code"], "wrong-credentials");

    // Ann signs in on a second browser, case-insensitively; both sessions are listed.
    let phone = Browser::new(addr).await;
    let (status, _) = phone.post("/login", creds("ANN_k", "chess is fun")).await;
    assert_eq!(status, 200);
    assert_eq!(phone.sides(&game).await, json!(["white", "black"]));
    let (_, list) = ann.get("/api/account/sessions").await;
    let list = list.as_array().unwrap().clone();
    assert_eq!(list.len(), 2, "{list:?}");
    let other = list.iter().find(|s| s["current"] == false).unwrap();
    let r = ann
        .http
        .delete(ann.url(&format!(
            "/api/account/sessions/{}",
            other["id"].as_str().unwrap()
        )))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 204);
    assert_eq!(
        phone.get("/api/account").await.0,
        401,
        "the phone is signed out"
    );
    assert_eq!(phone.sides(&game).await, json!([]), "and holds no seat");

    // Preferences follow the account.
    let (status, _) = ann
        .post(
            "/api/account/preferences",
            json!({"lang": "zh", "sound": false}),
        )
        .await;
    assert_eq!(status, 200);
    let (_, me) = ann.get("/api/account").await;
    assert_eq!(me["prefs"], json!({"lang": "zh", "sound": false}));
    // The board's preferences too, each a closed set of values.
    let board = json!({"autoFlip": false, "notation": "zh", "confirmMove": true, "autoQueen": false,
        "boardTheme": "contrast", "pieceSet": "figurine", "bigCoords": true, "voice": "de",
        "blindfold": "pieces", "humanPace": true});
    let (status, _) = ann
        .post("/api/account/preferences", json!({ "board": board }))
        .await;
    assert_eq!(status, 200);
    let (_, me) = ann.get("/api/account").await;
    assert_eq!(
        me["prefs"],
        json!({"lang": "zh", "sound": false, "board": board})
    );
    for bad in [json!({"voice": "fr"}), json!({"blindfold": true})] {
        let mut wrong = board.clone();
        wrong
            .as_object_mut()
            .unwrap()
            .extend(bad.as_object().unwrap().clone());
        let (status, _) = ann
            .post("/api/account/preferences", json!({ "board": wrong }))
            .await;
        assert_eq!(status, 400, "{wrong}");
    }
    let (_, me) = ann.get("/api/account").await;
    assert_eq!(
        me["prefs"]["board"], board,
        "a refused change leaves them as they were"
    );

    // A new password needs the current one, and signs the other browsers out.
    let (status, _) = phone.post("/login", creds("Ann_K", "chess is fun")).await;
    assert_eq!(status, 200);
    let (status, e) = ann
        .post(
            "/api/account/password",
            json!({"current": "nope", "new": "better words"}),
        )
        .await;
    assert_eq!(
        (status, e["code"].as_str()),
        (401, Some("wrong-credentials"))
    );
    let (status, _) = ann
        .post(
            "/api/account/password",
            json!({"current": "chess is fun", "new": "better words"}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(phone.get("/api/account").await.0, 401);
    assert_eq!(ann.get("/api/account").await.0, 200);
    assert_eq!(
        phone.post("/login", creds("Ann_K", "chess is fun")).await.0,
        401
    );
    assert_eq!(
        phone.post("/login", creds("Ann_K", "better words")).await.0,
        200
    );

    // Logging out ends the session and leaves the browser a guest with nothing of Ann's.
    let r = ann
        .http
        .post(ann.url("/logout"))
        .header("accept", "application/json")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(ann.get("/api/account").await.0, 401);
    assert_eq!(ann.sides(&game).await, json!([]));

    // Closing needs the password; the name stays taken and can no longer sign in.
    let (status, _) = phone
        .post("/api/account/close", json!({"password": "x"}))
        .await;
    assert_eq!(status, 401);
    let (status, _) = phone
        .post("/api/account/close", json!({"password": "better words"}))
        .await;
    assert_eq!(status, 200);
    assert_eq!(phone.get("/api/account").await.0, 401);
    assert_eq!(
        phone.post("/login", creds("Ann_K", "better words")).await.0,
        401
    );
    assert_eq!(bob.post("/signup", creds("ann_K", "mine now")).await.0, 409);
}

#[tokio::test]
async fn forms_redirect_and_foreign_pages_are_refused() {
    let addr = start(vizier_server::Limits::default()).await;
    let b = Browser::new(addr).await;
    let form = |name: &str, password: &str| {
        vec![
            ("username", name.to_string()),
            ("password", password.to_string()),
        ]
    };
    let r = b
        .http
        .post(b.url("/signup"))
        .form(&form("x", "long enough"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 303);
    assert_eq!(r.headers()["location"], "/signup?error=bad-username");
    let r = b
        .http
        .post(b.url("/signup"))
        .form(&form("Cai", "long enough"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 303);
    assert_eq!(r.headers()["location"], "/");
    assert_eq!(b.get("/api/account").await.1["username"], "Cai");
    let r = b
        .http
        .post(b.url("/login"))
        .form(&form("Cai", "wrong!"))
        .send()
        .await
        .unwrap();
    assert_eq!(
        r.headers()["location"],
        "/login?error=wrong-credentials&username=Cai"
    );
    let r = b.http.post(b.url("/logout")).send().await.unwrap();
    assert_eq!(r.status(), 303);
    assert_eq!(r.headers()["location"], "/");
    assert_eq!(b.get("/api/account").await.0, 401);

    // A page elsewhere cannot sign a browser in or out.
    let r = b
        .http
        .post(b.url("/login"))
        .header("origin", "http://evil.example")
        .form(&form("Cai", "long enough"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
    // The pages themselves are the app's.
    for page in ["/signup", "/login", "/account"] {
        let r = b.http.get(b.url(page)).send().await.unwrap();
        assert_eq!(r.status(), 200, "{page}");
    }
}

#[tokio::test]
async fn log_ins_are_throttled_per_account_and_per_address() {
    let limits = vizier_server::Limits {
        logins_per_account_hour: 3,
        logins_per_address_hour: 6,
        signups_per_address_hour: 2,
        ..vizier_server::Limits::default()
    };
    let addr = start(limits).await;
    let b = Browser::new(addr).await;
    assert_eq!(b.post("/signup", creds("dee", "right one")).await.0, 201);
    assert_eq!(b.post("/signup", creds("eve", "right one")).await.0, 201);
    let (status, e) = b.post("/signup", creds("fay", "right one")).await;
    assert_eq!((status, e["code"].as_str()), (429, Some("too-many-tries")));
    for _ in 0..3 {
        assert_eq!(b.post("/login", creds("dee", "wrong one")).await.0, 401);
    }
    // The account's budget is spent: even the right password waits.
    let (status, e) = b.post("/login", creds("DEE", "right one")).await;
    assert_eq!((status, e["code"].as_str()), (429, Some("too-many-tries")));
    // Another account still has its own, until the address's runs out.
    assert_eq!(b.post("/login", creds("eve", "right one")).await.0, 200);
    assert_eq!(b.post("/login", creds("eve", "wrong one")).await.0, 401);
    assert_eq!(b.post("/login", creds("eve", "right one")).await.0, 429);
}

#[tokio::test]
async fn a_rated_game_between_two_accounts_changes_both_ratings() {
    let addr = start(vizier_server::Limits::default()).await;
    rated_game(addr).await;
}

/// The same on PostgreSQL (where `VIZIER_TEST_POSTGRES` names a database), in a schema of
/// its own.
#[tokio::test]
#[ignore = "needs PostgreSQL: VIZIER_TEST_POSTGRES (scripts/test.sh starts one)"]
async fn a_rated_game_on_postgres() {
    let url = common::postgres_schema().await;
    let addr = common::start_on(vizier_server::Limits::default(), Some(url)).await;
    rated_game(addr).await;
}

#[tokio::test]
async fn a_rated_game_ended_in_its_first_moves_changes_no_rating() {
    let addr = start(vizier_server::Limits::default()).await;
    let (ann, bob) = (Browser::new(addr).await, Browser::new(addr).await);
    assert_eq!(
        ann.post("/signup", creds("ann", "ann's secret")).await.0,
        201
    );
    assert_eq!(
        bob.post("/signup", creds("bob", "bob's secret")).await.0,
        201
    );
    // Two moves each, then a resignation; then a draw agreed after three each, which counts.
    for (moves, rated) in [
        (&["e2e4", "e7e5", "g1f3", "b8c6"][..], false),
        (&["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5"][..], true),
    ] {
        let (status, created) = ann
            .post(
                "/api/games",
                json!({"kind": "friend", "timeControl": "180+2", "rated": true, "color": "white"}),
            )
            .await;
        assert_eq!(status, 201, "{created}");
        let game = created["id"].as_str().unwrap().to_string();
        let mut white = Seat::open(&ann, &game).await;
        let invite = white.state["invite"].as_str().unwrap().to_string();
        let mut black = Seat::open(&bob, &game).await;
        let r = black.send(json!({"t": "join", "invite": invite})).await;
        assert_eq!(r["t"], "ack", "{r}");
        for (i, mv) in moves.iter().enumerate() {
            let seat = if i % 2 == 0 { &mut white } else { &mut black };
            let r = seat.send(json!({"t": "move", "uci": mv})).await;
            assert_eq!(r["t"], "ack", "{mv}: {r}");
        }
        if rated {
            assert_eq!(white.send(json!({"t": "offer-draw"})).await["t"], "ack");
            assert_eq!(black.send(json!({"t": "accept-draw"})).await["t"], "ack");
        } else {
            assert_eq!(white.send(json!({"t": "resign"})).await["t"], "ack");
        }
        let end = white.state_where(|s| s["status"] == "over").await;
        assert_eq!(end["white"]["ratingDiff"].is_i64(), rated, "{end}");
        let (_, user) = bob.get("/api/user/bob").await;
        assert_eq!(user["perfs"]["blitz"]["games"], i64::from(rated), "{user}");
    }
}

async fn rated_game(addr: std::net::SocketAddr) {
    let (ann, bob, guest) = (
        Browser::new(addr).await,
        Browser::new(addr).await,
        Browser::new(addr).await,
    );
    // A guest can neither offer nor take a rated game.
    let (status, e) = guest
        .post(
            "/api/games",
            json!({"kind": "friend", "timeControl": "180+2", "rated": true}),
        )
        .await;
    assert_eq!(
        (status, e["code"].as_str()),
        (401, Some("rated-needs-account"))
    );
    assert_eq!(
        ann.post("/signup", creds("ann", "ann's secret")).await.0,
        201
    );
    assert_eq!(
        bob.post("/signup", creds("bob", "bob's secret")).await.0,
        201
    );
    let (status, e) = ann
        .post(
            "/api/games",
            json!({"kind": "friend", "timeControl": "-", "rated": true}),
        )
        .await;
    assert_eq!(
        (status, e["code"].as_str()),
        (400, Some("bad-request")),
        "{e}"
    );
    let (status, created) = ann
        .post(
            "/api/games",
            json!({"kind": "friend", "timeControl": "180+2", "rated": true, "color": "white"}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let game = created["id"].as_str().unwrap().to_string();
    let mut white = Seat::open(&ann, &game).await;
    let invite = white.state["invite"].as_str().unwrap().to_string();
    assert_eq!(white.state["rated"], true);
    let mut intruder = Seat::open(&guest, &game).await;
    let r = intruder.send(json!({"t": "join", "invite": invite})).await;
    assert_eq!(r["code"], "rated-needs-account", "{r}");
    let mut black = Seat::open(&bob, &game).await;
    let r = black.send(json!({"t": "join", "invite": invite})).await;
    assert_eq!(r["t"], "ack", "{r}");
    let s = white.state_where(|s| s["status"] == "playing").await;
    assert_eq!(s["white"]["name"], "ann");
    assert_eq!(s["black"]["name"], "bob");
    assert_eq!(
        (
            s["white"]["rating"].as_i64(),
            s["white"]["provisional"].as_bool()
        ),
        (Some(1500), Some(true))
    );
    // The fool's mate, a move late (the quickest mates change no rating: each side must have
    // made three moves), Black mating.
    for (i, mv) in ["f2f3", "e7e5", "g2g4", "d7d6", "h2h3", "d8h4"]
        .into_iter()
        .enumerate()
    {
        let seat = if i % 2 == 0 { &mut white } else { &mut black };
        let r = seat.send(json!({"t": "move", "uci": mv})).await;
        assert_eq!(r["t"], "ack", "{mv}: {r}");
    }
    let end = white.state_where(|s| s["status"] == "over").await;
    assert_eq!(end["result"]["reason"], "checkmate");
    let (ann_diff, bob_diff) = (
        end["white"]["ratingDiff"].as_i64().unwrap(),
        end["black"]["ratingDiff"].as_i64().unwrap(),
    );
    assert!(ann_diff < 0 && bob_diff > 0, "{end}");

    // The ratings as the paper's formulas and the FIDE and level tables give them.
    let start = vizier_rating::Perf::NEW;
    let (a, b) = vizier_rating::Perf::after_game(&start, &start, vizier_rating::Score::Loss, 0);
    let (_, ann_user) = guest.get("/api/user/ANN").await;
    let (_, bob_user) = guest.get("/api/user/bob").await;
    let blitz = |u: &Value| u["perfs"]["blitz"].clone();
    assert_eq!(blitz(&ann_user)["games"], 1);
    assert_eq!(blitz(&ann_user)["rating"], a.glicko.rating.round() as i64);
    assert_eq!(blitz(&bob_user)["rating"], b.glicko.rating.round() as i64);
    assert_eq!(blitz(&ann_user)["rd"], a.glicko.deviation.round() as i64);
    assert_eq!(
        (
            blitz(&ann_user)["elo"].as_i64(),
            blitz(&bob_user)["elo"].as_i64()
        ),
        (Some(1480), Some(1520))
    );
    assert_eq!(
        (
            blitz(&ann_user)["points"].as_i64(),
            blitz(&bob_user)["points"].as_i64()
        ),
        (Some(0), Some(10))
    );
    assert_eq!(ann_diff, a.glicko.rating.round() as i64 - 1500);
    assert_eq!(blitz(&ann_user)["prov"], true);
    assert_eq!(
        bob_user["count"],
        json!({"all": 1, "rated": 1, "win": 1, "draw": 0, "loss": 0})
    );
    assert_eq!(blitz(&ann_user)["prog"], ann_diff);
    assert_eq!(ann_user["perfs"]["bullet"]["games"], 0);
    let (_, me) = bob.get("/api/account").await;
    assert_eq!(
        me["perfs"]["blitz"]["rating"],
        b.glicko.rating.round() as i64
    );
    let (status, history) = guest.get("/api/user/bob/rating-history").await;
    assert_eq!(status, 200);
    let blitz_points = history
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "Blitz")
        .unwrap()["points"]
        .clone();
    assert_eq!(blitz_points.as_array().unwrap().len(), 1);
    assert_eq!(blitz_points[0][3], b.glicko.rating.round() as i64);
    assert_eq!(guest.get("/api/user/nobody").await.0, 404);

    // The archive: both players' lists, PGN with its tags, NDJSON, filters.
    let pgn = guest.text("/api/games/user/ann").await;
    for tag in [
        "[White \"ann\"]",
        "[Black \"bob\"]",
        "[WhiteElo \"1500\"]",
        "[BlackElo \"1500\"]",
        "[Result \"0-1\"]",
        "[TimeControl \"180+2\"]",
        "[Termination \"normal\"]",
        "[Event \"Rated blitz game\"]",
        "[ECO \"A00\"]",
        "[Opening \"Barnes Opening\"]",
    ] {
        assert!(pgn.contains(tag), "{tag} in {pgn}");
    }
    assert!(pgn.contains("2. g4 {[%clk"), "{pgn}");
    let ndjson = |query: &str| {
        let http = guest.http.clone();
        let url = guest.url(&format!("/api/games/user/ann{query}"));
        async move {
            let text = http
                .get(url)
                .header("accept", "application/x-ndjson")
                .send()
                .await
                .unwrap()
                .text()
                .await
                .unwrap();
            text.lines()
                .map(|l| serde_json::from_str::<Value>(l).unwrap())
                .collect::<Vec<_>>()
        }
    };
    let all = ndjson("").await;
    assert_eq!(all.len(), 1);
    assert_eq!(all[0]["id"], game);
    assert_eq!(all[0]["players"]["black"]["user"]["name"], "bob");
    assert_eq!(all[0]["players"]["white"]["ratingDiff"], ann_diff);
    assert_eq!(all[0]["winner"], "black");
    assert_eq!(all[0]["speed"], "blitz");
    assert_eq!(all[0]["moves"], "f3 e5 g4 d6 h3 Qh4#");
    for (query, n) in [
        ("?rated=true", 1),
        ("?rated=false", 0),
        ("?color=white", 1),
        ("?color=black", 0),
        ("?result=loss", 1),
        ("?result=win", 0),
        ("?vs=BOB", 1),
        ("?vs=nobody", 0),
        ("?perfType=blitz", 1),
        ("?perfType=bullet", 0),
        ("?max=0", 0),
    ] {
        assert_eq!(ndjson(query).await.len(), n, "{query}");
    }
    assert_eq!(guest.get("/api/games/user/ann?color=red").await.0, 400);
    let export = guest.text(&format!("/game/export/{game}")).await;
    assert!(export.contains("[WhiteRatingDiff"), "{export}");
    let (status, json) = guest.get(&format!("/game/export/{game}")).await;
    assert_eq!((status, json.is_null()), (200, true), "PGN is not JSON");
    let r = guest
        .http
        .get(guest.url(&format!("/game/export/{game}")))
        .header("accept", "application/json")
        .send()
        .await
        .unwrap();
    let json: Value = r.json().await.unwrap();
    assert_eq!(json["opening"]["eco"], "A00");
}
