//! A game's events as a subscriber outside the actor hears them: every one, in order, across
//! a restart; and a subscriber that never reads neither slows the game nor holds more than
//! its queue.

mod common;

use common::{Seat, mv, temp_dir};
use std::time::{Duration, Instant};

use vizier_arbiter::{Event, Setup, TimeControl};
use vizier_play::hub::NewGame;
use vizier_play::ids::{GameId, PlayerId};
use vizier_play::policy::Party;
use vizier_play::round::{GameEvent, SiteEvent, UPDATES_KEPT, Update};
use vizier_play::{Action, Hub, Settings};
use vizier_store::record::Kind;
use vizier_store::{Store, UserRow};

async fn user(store: &Store, id: &str) {
    let row = UserRow {
        id: id.into(),
        name: id.into(),
        password: "$argon2id$none".into(),
        created_at: 0,
        closed_at: None,
        lang: None,
        sound: None,
        board: None,
        title: None,
    };
    store.create_user(&row).await.unwrap();
}

/// What the recorder keeps of an event: the arbiter's and the game's own, without the
/// players' comings and goings.
fn kept(event: &GameEvent) -> Option<String> {
    Some(match event {
        GameEvent::Presence { .. } => return None,
        GameEvent::Arbiter(Event::Moved {
            by, uci, clock_ms, ..
        }) => {
            assert!(
                clock_ms.is_some(),
                "a move in a game with a clock has the mover's clock"
            );
            format!("{by:?} {uci}")
        }
        GameEvent::Arbiter(Event::DrawOffered { by }) => format!("{by:?} offers a draw"),
        GameEvent::Arbiter(Event::DrawDeclined { by }) => format!("{by:?} declines"),
        GameEvent::Arbiter(Event::TakebackRequested { by }) => format!("{by:?} asks a takeback"),
        GameEvent::Arbiter(Event::TakenBack { plies }) => format!("{plies} taken back"),
        GameEvent::Started => "started".into(),
        GameEvent::Ended {
            outcome, ratings, ..
        } => format!(
            "ended {} {} rated: {}",
            outcome.result.pgn(),
            outcome.reason.code(),
            ratings.iter().all(Option::is_some)
        ),
        other => format!("{other:?}"),
    })
}

/// Records every update of the game until it ends: each version once, in order.
fn record(
    mut updates: tokio::sync::broadcast::Receiver<std::sync::Arc<Update>>,
) -> tokio::task::JoinHandle<Vec<String>> {
    tokio::spawn(async move {
        let mut seen = Vec::new();
        let mut version = 0;
        while let Ok(update) = updates.recv().await {
            assert!(update.version >= version, "versions went back");
            version = update.version;
            seen.extend(update.events.iter().filter_map(kept));
            if update
                .events
                .iter()
                .any(|e| matches!(e, GameEvent::Ended { .. }))
            {
                break;
            }
        }
        seen
    })
}

fn friend_game(rated: bool, takebacks: bool) -> NewGame {
    let mut setup = Setup {
        control: TimeControl::sudden_death(600_000, 5_000),
        ..Setup::default()
    };
    setup.options.takebacks = takebacks;
    NewGame {
        rated,
        ..NewGame::new(Kind::Friend, setup)
    }
}

/// Creates a friend game of Alice's that Bob joins; the recorder subscribes before he does.
async fn begin(
    hub: &std::sync::Arc<Hub>,
    new: NewGame,
) -> (GameId, Seat, Seat, tokio::task::JoinHandle<Vec<String>>) {
    let id = hub
        .create(&[Party::new(&PlayerId::known("alice"), None)], new)
        .await
        .unwrap();
    let handle = hub.game(&id).await.unwrap();
    let alice = Seat::take(&handle, "alice").await;
    let subscription = handle.subscribe().await.unwrap();
    let invite = subscription
        .round
        .invite
        .clone()
        .expect("a friend game waits with an invite");
    let recorder = record(subscription.updates);
    let bob = Seat::take(&handle, "bob").await;
    bob.must(Action::Join { invite }).await;
    (id, alice, bob, recorder)
}

#[tokio::test]
async fn a_subscriber_hears_every_event_of_a_game_in_order() {
    let dir = temp_dir("events");
    let store = Store::sqlite(&dir).await.unwrap();
    let hub = Hub::new(store.clone(), Settings::default());
    let mut site = hub.watch_site();
    let (id, alice, bob, recorder) = begin(&hub, friend_game(false, true)).await;
    alice.must(mv("e2e4")).await;
    bob.must(mv("e7e5")).await;
    alice.must(Action::OfferDraw).await;
    bob.must(Action::DeclineDraw).await;
    alice.must(mv("g1f3")).await;
    alice.must(Action::Takeback).await;
    bob.must(Action::AcceptTakeback).await;
    alice.must(mv("f1c4")).await;
    bob.must(Action::Resign).await;
    let seen = recorder.await.unwrap();
    assert_eq!(
        seen,
        [
            "started",
            "White e2e4",
            "Black e7e5",
            "White offers a draw",
            "Black declines",
            "White g1f3",
            "White asks a takeback",
            "1 taken back",
            "White f1c4",
            "ended 1-0 resignation rated: false",
        ]
    );
    // The site heard the game begin and end.
    let started = site.recv().await.unwrap();
    assert!(matches!(started, SiteEvent::Started { game, .. } if game == id));
    let ended = site.recv().await.unwrap();
    assert!(matches!(ended, SiteEvent::Ended { game, .. } if game == id));
    store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// A rated game played half on one server and half on the next: the subscriber of the
/// restored game hears the rest, the end with both players' ratings.
#[test]
fn a_restored_game_publishes_like_a_new_one() {
    let dir = temp_dir("events-restart");
    let runtime = || {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap()
    };
    let first = runtime();
    let (id, before) = first.block_on(async {
        let store = Store::sqlite(&dir).await.unwrap();
        user(&store, "alice").await;
        user(&store, "bob").await;
        let hub = Hub::new(store.clone(), Settings::default());
        let (id, alice, bob, recorder) = begin(&hub, friend_game(true, false)).await;
        alice.must(mv("e2e4")).await;
        bob.must(mv("e7e5")).await;
        alice.must(Action::OfferDraw).await;
        bob.must(Action::DeclineDraw).await;
        alice.must(mv("g1f3")).await;
        recorder.abort();
        store.close().await;
        (id, recorder)
    });
    // The server stops: every task of the first goes with its runtime.
    drop(first);
    drop(before);
    let second = runtime();
    second.block_on(async {
        let store = Store::sqlite(&dir).await.unwrap();
        let hub = Hub::new(store.clone(), Settings::default());
        assert_eq!(hub.restore().await.unwrap(), 1);
        let handle = hub.game(&id).await.unwrap();
        let subscription = handle.subscribe().await.unwrap();
        let moves = subscription
            .round
            .moves
            .as_ref()
            .expect("a subscription begins whole");
        let ucis: Vec<String> = moves.iter().map(|m| m.ply.uci.to_string()).collect();
        assert_eq!(ucis, ["e2e4", "e7e5", "g1f3"]);
        let recorder = record(subscription.updates);
        let alice = Seat::take(&handle, "alice").await;
        let bob = Seat::take(&handle, "bob").await;
        for (side, uci) in [
            (&bob, "b8c6"),
            (&alice, "f1b5"),
            (&bob, "a7a6"),
            (&alice, "b5a4"),
        ] {
            side.must(mv(uci)).await;
        }
        bob.must(Action::Resign).await;
        let seen = recorder.await.unwrap();
        assert_eq!(
            seen,
            [
                "Black b8c6",
                "White f1b5",
                "Black a7a6",
                "White b5a4",
                "ended 1-0 resignation rated: true",
            ]
        );
        store.close().await;
    });
    let _ = std::fs::remove_dir_all(dir);
}

/// `plies` moves from the start that repeat no position and end nothing.
fn quiet_line(plies: usize) -> Vec<String> {
    let mut pos = vizier_rules::Position::new();
    let mut seen = std::collections::HashSet::from([pos.hash()]);
    let mut line = Vec::new();
    while line.len() < plies {
        let next = pos.legal_moves().iter().find_map(|&m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            let fresh = !seen.contains(&after.hash()) && after.outcome().is_none();
            fresh.then_some((m, after))
        });
        let (m, after) = next.expect("a quiet move");
        line.push(pos.uci(m, vizier_rules::UciCastling::KingStep));
        seen.insert(after.hash());
        pos = after;
    }
    line
}

/// A subscriber that never reads: the game's acknowledgements come as fast, the game keeps
/// at most its queue of updates for it, and when it reads again it is told it lagged and
/// takes the game afresh.
#[tokio::test]
async fn a_stalled_subscriber_neither_slows_the_game_nor_holds_more_than_its_queue() {
    let dir = temp_dir("events-stalled");
    let store = Store::sqlite(&dir).await.unwrap();
    let hub = Hub::new(store.clone(), Settings::default());
    let (_, alice, bob, recorder) = begin(&hub, friend_game(false, false)).await;
    recorder.abort();
    let held = alice.handle.subscribe().await.unwrap();
    let mut stalled = held.updates;
    // Every snapshot shares the round's table: those alive besides the round's own and this
    // one are the updates the game keeps.
    let table = held.round.table.clone();
    drop(held.round);
    let kept = || std::sync::Arc::strong_count(&table) - 2;
    let mut slowest = Duration::ZERO;
    let moves = 3 * UPDATES_KEPT;
    for (i, uci) in quiet_line(moves).iter().enumerate() {
        let side = if i % 2 == 0 { &alice } else { &bob };
        let sent = Instant::now();
        side.must(mv(uci)).await;
        slowest = slowest.max(sent.elapsed());
        assert!(
            kept() <= UPDATES_KEPT,
            "the queue grew past its bound: {}",
            kept()
        );
    }
    assert_eq!(kept(), UPDATES_KEPT);
    assert!(
        slowest < Duration::from_millis(500),
        "an ack took {slowest:?}"
    );
    match stalled.recv().await {
        Err(tokio::sync::broadcast::error::RecvError::Lagged(missed)) => {
            assert_eq!(missed as usize, moves - UPDATES_KEPT)
        }
        other => panic!("a stalled subscriber was not told it lagged: {other:?}"),
    }
    let afresh = alice.handle.subscribe().await.unwrap();
    assert_eq!(afresh.round.moves.as_ref().map(|m| m.len()), Some(moves));
    store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}
