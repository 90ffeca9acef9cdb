//! The hub's registry of game tasks: a task with nobody watching ends when idle, and a
//! connection that comes as it ends still gets the game.

mod common;

use std::time::Duration;

use common::temp_dir;
use vizier_arbiter::{Setup, TimeControl};
use vizier_play::hub::NewGame;
use vizier_play::ids::PlayerId;
use vizier_play::policy::Party;
use vizier_play::{Hub, Settings};
use vizier_store::Store;
use vizier_store::record::Kind;

#[tokio::test]
async fn joining_through_the_handle_of_a_task_that_just_ended_loads_the_game_again() {
    let store = Store::sqlite(&temp_dir("join")).await.unwrap();
    let hub = Hub::new(store, Settings::default());
    let me = PlayerId::known("p");
    let setup = Setup {
        control: TimeControl::Unlimited,
        ..Setup::default()
    };
    let id = hub
        .create(&[Party::new(&me, None)], NewGame::new(Kind::Local, setup))
        .await
        .unwrap();
    let stale = hub.game(&id).await.unwrap();
    // A subscription is no audience: with nobody connected the task ends once it answered.
    drop(stale.subscribe().await.unwrap());
    for _ in 0..500 {
        if stale.is_closed() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(stale.is_closed(), "an idle task nobody watches ends");
    assert!(stale.connect(Some(me.clone()), None).await.is_none());
    let (handle, connected) = hub
        .join(&id, stale, Some(me), None)
        .await
        .expect("the game is loaded again");
    assert!(!handle.is_closed());
    assert_eq!(connected.subscription.round.version, 0);
}
