//! Which games come back at start-up: those with a clock at once, those without when opened.

use vizier_arbiter::{Setup, TimeControl};
use vizier_play::hub::NewGame;
use vizier_server::{Hub, Settings, Store};
use vizier_store::record::Kind;

fn local(control: TimeControl) -> NewGame {
    let setup = Setup {
        control,
        ..Setup::default()
    };
    NewGame::new(Kind::Local, setup)
}

#[tokio::test]
async fn clocked_games_are_restored_at_once_and_unclocked_ones_when_opened() {
    let dir = std::env::temp_dir().join(format!("vizier-restore-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = Store::sqlite(&dir).await.unwrap();
    let hub = Hub::new(store.clone(), Settings::default());
    let clocked = hub
        .create(
            &[vizier_play::policy::Party::new(
                &vizier_play::ids::PlayerId::known("p"),
                None,
            )],
            local(TimeControl::sudden_death(300_000, 0)),
        )
        .await
        .unwrap();
    let mut unclocked = Vec::new();
    for _ in 0..5 {
        unclocked.push(
            hub.create(
                &[vizier_play::policy::Party::new(
                    &vizier_play::ids::PlayerId::known("p"),
                    None,
                )],
                local(TimeControl::Unlimited),
            )
            .await
            .unwrap(),
        );
    }
    drop(hub);

    let hub = Hub::new(store, Settings::default());
    assert_eq!(hub.restore().await.unwrap(), 1);
    assert_eq!(hub.live_count(), 1);
    hub.game(&clocked).await.unwrap();
    assert_eq!(hub.live_count(), 1, "the clocked game was already live");
    let handle = hub.game(&unclocked[0]).await.unwrap();
    // Its export is asked for (the task answers), then nobody watches: with no clock and no
    // computer to move, it needs no task.
    assert!(handle.export().await.is_some());
    for _ in 0..100 {
        if handle.is_closed() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert!(
        handle.is_closed(),
        "an unwatched game without a clock kept its task"
    );
    assert_eq!(hub.live_count(), 1);
    // Opened again, it comes back.
    let again = hub.game(&unclocked[0]).await.unwrap();
    assert!(!again.is_closed());
    let _ = std::fs::remove_dir_all(&dir);
}
