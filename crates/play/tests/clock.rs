//! Time as an input: on a clock the test moves by hand, a flag falls, the leaving countdown
//! runs out and an untaken invite expires — without sleeping.

mod common;

use common::{Seat, mv, temp_dir};
use vizier_arbiter::{Event, Setup, TimeControl};
use vizier_play::hub::NewGame;
use vizier_play::ids::PlayerId;
use vizier_play::policy::Party;
use vizier_play::round::{Answer, GameEvent, GameHandle, Update};
use vizier_play::time::Clock;
use vizier_play::{Action, Hub, Settings};
use vizier_rules::Reason;
use vizier_store::Store;
use vizier_store::record::Kind;

/// A hub over a fresh SQLite directory whose time is `clock`.
async fn hub(name: &str, clock: &Clock) -> (std::sync::Arc<Hub>, std::path::PathBuf) {
    let dir = temp_dir(name);
    let store = Store::sqlite(&dir).await.unwrap();
    let settings = Settings {
        clock: clock.clone(),
        human_pace: false,
        ..Settings::default()
    };
    (Hub::new(store, settings), dir)
}

/// The game's end, from its updates.
async fn ending(updates: &mut tokio::sync::broadcast::Receiver<std::sync::Arc<Update>>) -> Reason {
    loop {
        let update = updates.recv().await.unwrap();
        for event in &update.events {
            if let GameEvent::Ended { outcome, .. } = event {
                return outcome.reason;
            }
        }
    }
}

fn friend(control: TimeControl) -> NewGame {
    let setup = Setup {
        control,
        ..Setup::default()
    };
    NewGame::new(Kind::Friend, setup)
}

/// A friend game between Ann (white) and Bob, both seated.
async fn between_people(
    hub: &std::sync::Arc<Hub>,
    control: TimeControl,
) -> (GameHandle, Seat, Seat) {
    let id = hub
        .create(
            &[Party::new(&PlayerId::known("ann"), None)],
            friend(control),
        )
        .await
        .unwrap();
    let handle = hub.game(&id).await.unwrap();
    let ann = Seat::take(&handle, "ann").await;
    let invite = handle
        .subscribe()
        .await
        .unwrap()
        .round
        .invite
        .clone()
        .unwrap();
    let bob = Seat::take(&handle, "bob").await;
    bob.must(Action::Join { invite }).await;
    (handle, ann, bob)
}

#[tokio::test]
async fn a_flag_falls_when_the_clock_is_moved_past_it() {
    let clock = Clock::manual(1_700_000_000_000);
    let (hub, dir) = hub("clock-flag", &clock).await;
    let (handle, ann, bob) = between_people(&hub, TimeControl::sudden_death(60_000, 0)).await;
    ann.must(mv("e2e4")).await;
    bob.must(mv("e7e5")).await;
    let mut updates = handle.subscribe().await.unwrap().updates;
    // White's clock runs: a minute and a second later by the clock, White has lost on time.
    clock.advance(61_000);
    // Any request wakes the game, which then reads the time.
    assert!(matches!(ann.act(Action::Ping).await, Answer::Pong));
    assert_eq!(ending(&mut updates).await, Reason::TimeForfeit);
    hub.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn the_opponent_may_claim_once_the_leaving_countdown_is_over() {
    let clock = Clock::manual(1_700_000_000_000);
    let (hub, dir) = hub("clock-left", &clock).await;
    // 3+2: a player gone 30 s may be claimed against.
    let (handle, ann, bob) = between_people(&hub, TimeControl::sudden_death(180_000, 2_000)).await;
    ann.must(mv("e2e4")).await;
    bob.must(mv("e7e5")).await;
    handle.disconnect(bob.conn).await;
    // Bob's leaving is noted when the game has read it: a request after it is answered after.
    assert!(matches!(ann.act(Action::Ping).await, Answer::Pong));
    let left = Action::ClaimLeft { draw: false };
    clock.advance(29_000);
    let refused = ann.act(left.clone()).await;
    assert!(matches!(refused, Answer::Refused(_)), "{refused:?}");
    clock.advance(1_000);
    let mut updates = handle.subscribe().await.unwrap().updates;
    ann.must(left).await;
    let update = updates.recv().await.unwrap();
    assert!(
        update.events.iter().any(|e| matches!(e,
            GameEvent::Ended { outcome, .. } if outcome.reason == Reason::Left)),
        "{:?}",
        update.events
    );
    hub.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn an_untaken_invite_expires_when_the_clock_says_so() {
    let clock = Clock::manual(1_700_000_000_000);
    let (hub, dir) = hub("clock-invite", &clock).await;
    let control = TimeControl::sudden_death(300_000, 0);
    let id = hub
        .create(
            &[Party::new(&PlayerId::known("ann"), None)],
            friend(control),
        )
        .await
        .unwrap();
    let expiry = hub.settings.limits.invite_expiry.as_millis() as u64;
    clock.advance(expiry - 1_000);
    assert_eq!(hub.expire_idle().await.unwrap(), 0, "expired early");
    clock.advance(2_000);
    assert_eq!(hub.expire_idle().await.unwrap(), 1);
    let (row, _) = hub.store.load(id.as_str()).await.unwrap().unwrap();
    assert_eq!(row.reason.as_deref(), Some(Reason::Abandoned.code()));
    hub.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// The arbiter's moves carry the clock's time: a move made after the clock moved on is
/// charged for it.
#[tokio::test]
async fn a_move_is_charged_the_time_the_clock_says_it_took() {
    let clock = Clock::manual(1_700_000_000_000);
    let (hub, dir) = hub("clock-charge", &clock).await;
    let (handle, ann, bob) = between_people(&hub, TimeControl::sudden_death(60_000, 0)).await;
    ann.must(mv("e2e4")).await;
    let mut updates = handle.subscribe().await.unwrap().updates;
    clock.advance(7_000);
    bob.must(mv("e7e5")).await;
    let update = updates.recv().await.unwrap();
    let clock_ms = update.events.iter().find_map(|e| match e {
        GameEvent::Arbiter(Event::Moved { clock_ms, .. }) => *clock_ms,
        _ => None,
    });
    assert_eq!(clock_ms, Some(53_000));
    hub.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn a_correspondence_vacation_stops_the_players_clock() {
    const DAY: u64 = 86_400_000;
    let start = 1_700_000_000_000;
    let clock = Clock::manual(start);
    let (hub, dir) = hub("clock-vacation", &clock).await;
    let (handle, ann, bob) =
        between_people(&hub, TimeControl::Correspondence { days_per_move: 3 }).await;
    ann.must(mv("e2e4")).await;
    bob.must(mv("e7e5")).await;
    // White, to move with three days, goes away for five from day 1.
    clock.advance(DAY);
    ann.must(Action::Vacation {
        until: start + 6 * DAY,
    })
    .await;
    let mut updates = handle.subscribe().await.unwrap().updates;
    // Day 7: two days used (one before, one after the vacation): still in time.
    clock.advance(6 * DAY);
    assert!(matches!(ann.act(Action::Ping).await, Answer::Pong));
    let round = handle.subscribe().await.unwrap().round;
    let board = round.board.as_ref().unwrap();
    assert!(board.outcome.is_none());
    assert_eq!(
        board
            .clock
            .remaining(vizier_rules::Color::White, start + 7 * DAY),
        Some(DAY)
    );
    // Day 8: out of time.
    clock.advance(DAY);
    assert!(matches!(ann.act(Action::Ping).await, Answer::Pong));
    assert_eq!(ending(&mut updates).await, Reason::TimeForfeit);
    // Vacations are for correspondence only.
    let (_, blitz, _) = between_people(&hub, TimeControl::sudden_death(60_000, 0)).await;
    let refused = blitz
        .act(Action::Vacation {
            until: start + 20 * DAY,
        })
        .await;
    assert!(matches!(refused, Answer::Refused(_)), "{refused:?}");
    hub.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn a_draw_is_claimed_by_repetition_days_after_the_moves() {
    const DAY: u64 = 86_400_000;
    let clock = Clock::manual(1_700_000_000_000);
    let (hub, dir) = hub("clock-claim-days", &clock).await;
    let (handle, ann, bob) =
        between_people(&hub, TimeControl::Correspondence { days_per_move: 3 }).await;
    // The start position comes back twice, a move every day or two.
    for (i, uci) in [
        "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
    ]
    .into_iter()
    .enumerate()
    {
        clock.advance(if i % 2 == 0 { DAY } else { 2 * DAY });
        let side = if i % 2 == 0 { &ann } else { &bob };
        side.must(mv(uci)).await;
    }
    let mut updates = handle.subscribe().await.unwrap().updates;
    // Two days later White, to move, claims the third occurrence (Art. 9.2).
    clock.advance(2 * DAY);
    ann.must(Action::ClaimDraw {
        claim: vizier_arbiter::Claim::Threefold,
        declared: None,
    })
    .await;
    assert_eq!(ending(&mut updates).await, Reason::ThreefoldRepetition);
    hub.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}
