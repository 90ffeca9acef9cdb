//! Tournaments over HTTP: accounts create, join and play a round robin through the API to
//! its standings, its TRF and its games' PGN; entries are checked; a guest cannot join.

mod common;

use std::time::Duration;

use common::{Browser, creds, start};
use serde_json::{Value, json};

async fn account(addr: std::net::SocketAddr, name: &str) -> Browser {
    let b = Browser::new(addr).await;
    let (status, _) = b.post("/signup", creds(name, "a good password")).await;
    assert_eq!(status, 201);
    b
}

/// Polls the tournament until `pred` holds.
async fn until(b: &Browser, id: &str, pred: impl Fn(&Value) -> bool) -> Value {
    let mut last = Value::Null;
    for _ in 0..400 {
        let (status, t) = b.get(&format!("/api/tournament/{id}")).await;
        assert_eq!(status, 200);
        if pred(&t) {
            return t;
        }
        last = t;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the tournament never got there: {last:#}");
}

/// A three-round Swiss created by Ann and joined by Ann, Bob, Cyd and Dee (in that order in
/// the list), not started: the accounts and its id.
async fn swiss_of_four(name: &str) -> (Vec<Browser>, String) {
    let addr = start(vizier_server::Limits::default()).await;
    let mut players = Vec::new();
    for n in ["ann", "bob", "cyd", "dee"] {
        players.push(account(addr, n).await);
    }
    let (status, made) = players[0]
        .post(
            "/api/tournament",
            json!({"name": name, "format": "swiss", "nbRounds": 3, "startsIn": 60,
                   "roundBreak": 0}),
        )
        .await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    for p in &players {
        let (status, _) = p
            .post(&format!("/api/tournament/{id}/join"), json!({}))
            .await;
        assert_eq!(status, 200);
    }
    (players, id)
}

/// The pairing number of the player called `name`.
fn number_of(t: &Value, name: &str) -> Value {
    t["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap()["number"]
        .clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_is_played_over_the_api_to_its_standings() {
    let addr = start(vizier_server::Limits::default()).await;
    let names = ["ann", "bob", "cyd", "dee"];
    let mut players = Vec::new();
    for n in names {
        players.push(account(addr, n).await);
    }
    let (status, made) = players[0]
        .post(
            "/api/tournament",
            json!({"name": "Club championship", "format": "roundRobin", "clock.limit": 300,
                   "clock.increment": 3, "startsIn": 60, "description": "Every Thursday",
                   "roundBreak": 0}),
        )
        .await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    assert_eq!(made["status"], "created");
    assert_eq!(made["me"]["creator"], true);
    // Listed as coming.
    let (_, list) = players[1].get("/api/tournament").await;
    assert_eq!(list["created"][0]["id"], id.as_str());
    // A guest cannot join; accounts can, once.
    let guest = Browser::new(addr).await;
    let (status, _) = guest
        .post(&format!("/api/tournament/{id}/join"), json!({}))
        .await;
    assert_eq!(status, 401);
    for p in &players {
        let (status, body) = p
            .post(&format!("/api/tournament/{id}/join"), json!({}))
            .await;
        assert_eq!(status, 200, "{body}");
    }
    let (status, again) = players[1]
        .post(&format!("/api/tournament/{id}/join"), json!({}))
        .await;
    assert_eq!(status, 400, "{again}");
    // Only the creator starts it.
    let (status, _) = players[1]
        .post(&format!("/api/tournament/{id}/start"), json!({}))
        .await;
    assert_eq!(status, 403);
    let (status, _) = players[0]
        .post(&format!("/api/tournament/{id}/start"), json!({}))
        .await;
    assert_eq!(status, 200);
    for round in 1..=3usize {
        let t = until(&players[0], &id, |t| {
            t["rounds"].as_array().unwrap().len() == round
                && t["rounds"][round - 1]["boards"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|b| b["game"].is_string())
        })
        .await;
        for board in t["rounds"][round - 1]["boards"].as_array().unwrap() {
            let (w, b) = (
                board["white"].as_u64().unwrap(),
                board["black"].as_u64().unwrap(),
            );
            let name = |n: u64| {
                t["players"][n as usize - 1]["name"]
                    .as_str()
                    .unwrap()
                    .to_string()
            };
            let who = |n: u64| &players[names.iter().position(|x| *x == name(n)).unwrap()];
            let game = board["game"].as_str().unwrap();
            // Each player sees the game as theirs.
            let (_, mine) = who(w).get(&format!("/api/tournament/{id}")).await;
            assert_eq!(mine["me"]["game"], game);
            // Three moves each: enough for the game to be rated.
            for (white, black) in [("e2e4", "e7e5"), ("g1f3", "b8c6"), ("f1b5", "a7a6")] {
                let (s, r) = who(w)
                    .post(&format!("/api/board/game/{game}/move/{white}"), json!({}))
                    .await;
                assert_eq!(s, 200, "{r}");
                let (s, r) = who(b)
                    .post(&format!("/api/board/game/{game}/move/{black}"), json!({}))
                    .await;
                assert_eq!(s, 200, "{r}");
            }
            // The higher pairing number resigns.
            let loser = who(w.max(b));
            let (s, r) = loser
                .post(&format!("/api/board/game/{game}/resign"), json!({}))
                .await;
            assert_eq!(s, 200, "{r}");
        }
    }
    let done = until(&players[0], &id, |t| t["status"] == "finished").await;
    let rows = done["standings"]["rows"].as_array().unwrap();
    let points: Vec<&str> = rows.iter().map(|r| r["points"].as_str().unwrap()).collect();
    assert_eq!(points, ["3.0", "2.0", "1.0", "0.0"]);
    assert_eq!(rows[0]["number"], 1);
    assert_eq!(done["standings"]["tiebreaks"][0], "DE");
    assert_eq!(done["crosstable"][0].as_array().unwrap().len(), 3);
    // The TRF and the games.
    let trf = players[2].text(&format!("/api/tournament/{id}/trf")).await;
    assert!(trf.contains("012 Club championship"), "{trf}");
    assert!(trf.contains("142 3"), "{trf}");
    let parsed = vizier_pairing::trf::Trf::parse(&trf).unwrap();
    assert_eq!(parsed.players.len(), 4);
    let pgn = players[2]
        .text(&format!("/api/tournament/{id}/games"))
        .await;
    assert_eq!(pgn.matches("[Event \"Club championship\"]").count(), 6);
    assert!(pgn.contains("[Round \"3.2\"]"), "{pgn}");
    // The games were rated: the winner's blitz rating rose.
    let winner = rows[0]["name"].as_str().unwrap();
    let (_, user) = players[3].get(&format!("/api/user/{winner}")).await;
    assert!(
        user["perfs"]["blitz"]["rating"].as_f64().unwrap() > 1500.0,
        "{user}"
    );
    // After the end the creator, as arbiter, corrects round 1's first board to a draw: the
    // standings follow.
    let result = format!("/api/tournament/{id}/result");
    let draw = json!({"round": 1, "board": 1, "result": "1/2-1/2"});
    let (status, _) = players[1].post(&result, draw.clone()).await;
    assert_eq!(status, 403);
    for bad in [
        json!({"round": 1, "board": 1, "result": "2-0"}),
        json!({"round": 9, "board": 1, "result": "1-0"}),
        json!({"round": 1, "board": 3, "result": "1-0"}),
    ] {
        let (status, body) = players[0].post(&result, bad.clone()).await;
        assert_eq!(status, 400, "{bad} {body}");
    }
    let (status, body) = players[0].post(&result, draw).await;
    assert_eq!(status, 200, "{body}");
    let (_, fixed) = players[2].get(&format!("/api/tournament/{id}")).await;
    assert_eq!(fixed["rounds"][0]["boards"][0]["corrected"], true);
    assert_eq!(fixed["rounds"][0]["boards"][0]["result"], "½-½");
    let points: Vec<&str> = (fixed["standings"]["rows"].as_array().unwrap().iter())
        .map(|r| r["points"].as_str().unwrap())
        .collect();
    assert_eq!(points, ["2.5", "2.0", "1.0", "0.5"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn entries_are_checked() {
    let addr = start(vizier_server::Limits::default()).await;
    let ann = account(addr, "ann").await;
    let bob = account(addr, "bob").await;
    let (status, bad) = ann
        .post("/api/tournament", json!({"name": "x", "format": "swiss"}))
        .await;
    assert_eq!(status, 400, "{bad}");
    let (status, bad) = ann
        .post(
            "/api/tournament",
            json!({"name": "No clock", "control": "-"}),
        )
        .await;
    assert_eq!(status, 400, "{bad}");
    let (status, made) = ann
        .post(
            "/api/tournament",
            json!({"name": "Invitational", "invited": "cyd", "nbRounds": 3}),
        )
        .await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap();
    let (status, refused) = bob
        .post(&format!("/api/tournament/{id}/join"), json!({}))
        .await;
    assert_eq!(status, 400);
    assert!(refused["error"].as_str().unwrap().contains("invitation"));
    let (status, made) = ann
        .post(
            "/api/tournament",
            json!({"name": "Experts", "minRating": 1800, "nbRounds": 3}),
        )
        .await;
    assert_eq!(status, 201);
    let id = made["id"].as_str().unwrap();
    let (status, refused) = bob
        .post(&format!("/api/tournament/{id}/join"), json!({}))
        .await;
    assert_eq!(status, 400);
    assert!(
        refused["error"].as_str().unwrap().contains("1500"),
        "{refused}"
    );
    let (status, _) = bob.get("/api/tournament/nosuch").await;
    assert_eq!(status, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_player_may_ask_for_one_half_point_bye() {
    let (players, id) = swiss_of_four("Byes").await;
    let dee = &players[3];
    let (_, seen) = dee.get(&format!("/api/tournament/{id}")).await;
    assert_eq!(seen["me"]["canAskBye"], true);
    let (status, body) = dee
        .post(&format!("/api/tournament/{id}/bye"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    // One a tournament.
    let (status, _) = dee
        .post(&format!("/api/tournament/{id}/bye"), json!({}))
        .await;
    assert_eq!(status, 400);
    let (status, _) = players[0]
        .post(&format!("/api/tournament/{id}/start"), json!({}))
        .await;
    assert_eq!(status, 200);
    let t = until(&players[0], &id, |t| {
        t["rounds"].as_array().unwrap().len() == 1
    })
    .await;
    let round = &t["rounds"][0];
    let dee_number = number_of(&t, "dee");
    let byes = round["byes"].as_array().unwrap();
    assert!(
        byes.iter()
            .any(|b| b["player"] == dee_number && b["kind"] == "half"),
        "{round}"
    );
    // The three others: one game and the pairing-allocated bye.
    assert_eq!(round["boards"].as_array().unwrap().len(), 1);
    assert!(byes.iter().any(|b| b["kind"] == "pairing"));
    let me = &t["players"][dee_number.as_u64().unwrap() as usize - 1];
    assert_eq!(me["points"], 0.5);
    assert_eq!(me["byeNext"], false);
    let (_, seen) = dee.get(&format!("/api/tournament/{id}")).await;
    assert_eq!(seen["me"]["canAskBye"], false);
    let trf = dee.text(&format!("/api/tournament/{id}/trf")).await;
    assert!(trf.contains(" H"), "{trf}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_zero_point_bye_and_the_organisers_details_for_norms() {
    let (players, id) = swiss_of_four("Norms").await;
    // Cyd sits the first round out; then neither bye may be asked on top.
    let cyd = &players[2];
    let (_, seen) = cyd.get(&format!("/api/tournament/{id}")).await;
    assert_eq!(seen["me"]["canSitOut"], true);
    let (status, body) = cyd
        .post(&format!("/api/tournament/{id}/zero-bye"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    let (_, seen) = cyd.get(&format!("/api/tournament/{id}")).await;
    assert_eq!(seen["me"]["zeroByeNext"], true);
    assert_eq!(seen["me"]["canAskBye"], false);
    let (status, _) = cyd
        .post(&format!("/api/tournament/{id}/bye"), json!({}))
        .await;
    assert_eq!(status, 400);
    // The organiser enters titles and federations; nobody else may, and nonsense is refused.
    let details = |n: u32| format!("/api/tournament/{id}/player/{n}");
    let (status, body) = players[0]
        .post(
            &details(1),
            json!({"title": "IM", "federation": "ger", "sex": "w"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, _) = players[0]
        .post(&details(2), json!({"title": "GM", "federation": "CHN"}))
        .await;
    assert_eq!(status, 200);
    let (status, _) = players[1].post(&details(2), json!({"title": "IM"})).await;
    assert_eq!(status, 403);
    for bad in [
        json!({"title": "BOT"}),
        json!({"federation": "GERMANY"}),
        json!({"sex": "x"}),
    ] {
        let (status, body) = players[0].post(&details(3), bad.clone()).await;
        assert_eq!(status, 400, "{bad} {body}");
    }
    let (status, _) = players[0].post(&details(9), json!({"title": "FM"})).await;
    assert_eq!(status, 400);
    let (status, _) = players[0]
        .post(&format!("/api/tournament/{id}/start"), json!({}))
        .await;
    assert_eq!(status, 200);
    let t = until(&players[0], &id, |t| {
        t["rounds"].as_array().unwrap().len() == 1
    })
    .await;
    let cyd_number = number_of(&t, "cyd");
    let round = &t["rounds"][0];
    assert!(
        round["byes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b["player"] == cyd_number && b["kind"] == "absent"),
        "{round}"
    );
    // Three play: one game and the pairing-allocated bye; Cyd has no point.
    assert_eq!(round["boards"].as_array().unwrap().len(), 1);
    assert_eq!(
        t["players"][cyd_number.as_u64().unwrap() as usize - 1]["points"],
        0.0
    );
    // Titles shown, written to the TRF, and the norm report there: an IM (a woman) may
    // still make a GM norm; a GM none.
    assert_eq!(t["players"][0]["title"], "IM");
    assert_eq!(t["players"][0]["federation"], "GER");
    let norms = t["norms"].as_array().expect("norms for a titled Swiss");
    assert_eq!(norms[0]["checks"][0]["title"], "GM");
    assert_eq!(norms[0]["checks"].as_array().unwrap().len(), 1);
    assert!(
        norms[0]["checks"][0]["missing"]
            .as_str()
            .unwrap()
            .contains("9 needed")
    );
    assert_eq!(norms[1]["checks"].as_array().unwrap().len(), 0);
    let trf = players[0].text(&format!("/api/tournament/{id}/trf")).await;
    let ann = trf
        .split(['\r', '\n'])
        .find(|l| l.contains(" ann "))
        .unwrap();
    assert_eq!(&ann[9..13], "wm  ", "{ann}");
    assert_eq!(&ann[53..56], "GER", "{ann}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_correspondence_round_robin_makes_games_of_days_a_move() {
    let addr = start(vizier_server::Limits::default()).await;
    let ann = account(addr, "ann").await;
    let bob = account(addr, "bob").await;
    let (status, made) = ann
        .post(
            "/api/tournament",
            json!({"name": "League", "format": "roundRobin", "control": "1/259200",
                   "startsIn": 60, "rated": true}),
        )
        .await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(made["speed"], "correspondence");
    let id = made["id"].as_str().unwrap().to_string();
    for p in [&ann, &bob] {
        let (status, _) = p
            .post(&format!("/api/tournament/{id}/join"), json!({}))
            .await;
        assert_eq!(status, 200);
    }
    let (status, _) = ann
        .post(&format!("/api/tournament/{id}/start"), json!({}))
        .await;
    assert_eq!(status, 200);
    let t = until(&ann, &id, |t| {
        t["rounds"][0]["boards"][0]["game"].is_string()
    })
    .await;
    let game = t["rounds"][0]["boards"][0]["game"].as_str().unwrap();
    let pgn = ann.text(&format!("/api/games/{game}/pgn")).await;
    assert!(pgn.contains("[TimeControl \"1/259200\"]"), "{pgn}");
    // (Its days count from the start, with no forfeit countdown of seconds: the director's
    // unit test `correspondence_games_count_their_days_from_the_start`.)
}
