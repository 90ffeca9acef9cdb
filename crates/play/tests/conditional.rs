//! Conditional premoves in correspondence: the opponent's move picks the line that answers
//! it, the answer is played at once, the lines go on or are dropped, and they outlive a
//! restart of the server.

mod common;

use common::{Seat, mv, temp_dir};
use vizier_arbiter::{Setup, TimeControl};
use vizier_play::hub::NewGame;
use vizier_play::ids::{GameId, PlayerId};
use vizier_play::policy::Party;
use vizier_play::round::{Answer, GameHandle};
use vizier_play::{Act, Action, Hub, Settings};
use vizier_store::Store;
use vizier_store::record::Kind;

async fn hub(dir: &std::path::Path) -> std::sync::Arc<Hub> {
    let store = Store::sqlite(dir).await.unwrap();
    let settings = Settings {
        human_pace: false,
        ..Settings::default()
    };
    Hub::new(store, settings)
}

/// A three-day correspondence game between Ann (White) and Bob.
async fn game(hub: &std::sync::Arc<Hub>) -> (GameId, GameHandle, Seat, Seat) {
    let setup = Setup {
        control: TimeControl::Correspondence { days_per_move: 3 },
        ..Setup::default()
    };
    let id = hub
        .create(
            &[Party::new(&PlayerId::known("ann"), None)],
            NewGame::new(Kind::Friend, setup),
        )
        .await
        .unwrap();
    let handle = hub.game(&id).await.unwrap();
    let ann = Seat::take(&handle, "ann").await;
    let invite = (handle.subscribe().await.unwrap().round.invite.clone()).unwrap();
    let bob = Seat::take(&handle, "bob").await;
    bob.must(Action::Join { invite }).await;
    (id, handle, ann, bob)
}

fn conditional(lines: &[&str]) -> Action {
    Action::Conditional {
        lines: lines.iter().map(|s| s.to_string()).collect(),
    }
}

async fn moves(handle: &GameHandle) -> Vec<String> {
    let round = handle.subscribe().await.unwrap().round;
    (round.moves.iter().flat_map(|m| m.iter()))
        .map(|m| m.ply.uci.to_string())
        .collect()
}

#[tokio::test]
async fn the_opponents_move_is_answered_from_the_lines() {
    let dir = temp_dir("conditional-answer");
    let hub = hub(&dir).await;
    let (id, handle, ann, bob) = game(&hub).await;
    // Only while the opponent is to move, and only legal lines.
    let refused = ann.act(conditional(&["e5 Nf3"])).await;
    assert!(matches!(refused, Answer::Refused(_)), "{refused:?}");
    let refused = bob.act(conditional(&["e4 e4"])).await;
    assert!(matches!(refused, Answer::Refused(_)), "{refused:?}");
    bob.must(conditional(&[
        "e4 e5 Nf3 Nc6 Bb5 a6",
        "e4 e5 Bc4 Nf6",
        "d4 d5",
    ]))
    .await;
    ann.must(mv("e2e4")).await;
    assert_eq!(moves(&handle).await, ["e2e4", "e7e5"]);
    ann.must(mv("g1f3")).await;
    assert_eq!(moves(&handle).await, ["e2e4", "e7e5", "g1f3", "b8c6"]);
    // A move the lines did not foresee: Bob is to move, the lines are gone.
    ann.must(mv("f1c4")).await;
    assert_eq!(moves(&handle).await.len(), 5);
    let [_, bobs] = hub.store.conditional(id.as_str()).await.unwrap();
    assert!(bobs.is_empty(), "{bobs:?}");
    hub.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn lines_outlive_a_restart_and_clear_when_emptied() {
    let dir = temp_dir("conditional-restart");
    let first = hub(&dir).await;
    let (id, _handle, _ann, bob) = game(&first).await;
    bob.must(conditional(&["d4 Nf6 c4 e6"])).await;
    // Cleared and left again.
    bob.must(conditional(&[])).await;
    assert_eq!(
        first.store.conditional(id.as_str()).await.unwrap()[1].len(),
        0
    );
    bob.must(conditional(&["d4 Nf6 c4 e6"])).await;
    first.store.close().await;
    drop(first);
    let second = hub(&dir).await;
    let act = |action| Act {
        side: None,
        key: None,
        action,
    };
    let answered = (second.act_as(&id, PlayerId::known("ann"), act(mv("d2d4"))))
        .await
        .unwrap();
    assert!(
        matches!(answered.answer, Answer::Done),
        "{:?}",
        answered.answer
    );
    let handle = second.game(&id).await.unwrap();
    assert_eq!(moves(&handle).await, ["d2d4", "g8f6"]);
    second.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}
