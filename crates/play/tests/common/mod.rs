//! What the tests of live play share: a fresh directory for a store, and a player seated at
//! a game who acts through their connection.

#![allow(dead_code)] // each test binary uses some of it

use vizier_play::ids::PlayerId;
use vizier_play::round::{Answer, GameHandle};
use vizier_play::{Act, Action};

/// A fresh directory for a test's database.
pub fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("vizier-{name}-{}", rand::random::<u64>()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A player at a game: their connection, through which they act.
pub struct Seat {
    pub handle: GameHandle,
    pub conn: u64,
}

impl Seat {
    pub async fn take(handle: &GameHandle, player: &str) -> Seat {
        let connected = handle
            .connect(Some(PlayerId::known(player)), None)
            .await
            .unwrap();
        Seat {
            handle: handle.clone(),
            conn: connected.conn,
        }
    }

    /// Asks for `action` and waits for the answer.
    pub async fn act(&self, action: Action) -> Answer {
        let act = Act {
            side: None,
            key: None,
            action,
        };
        let answered = self.handle.act(self.conn, act).await.unwrap();
        answered.await.unwrap().answer
    }

    /// Asks for `action`, which must be done.
    pub async fn must(&self, action: Action) {
        let answer = self.act(action.clone()).await;
        assert!(matches!(answer, Answer::Done), "{action:?}: {answer:?}");
    }
}

/// A move in UCI.
pub fn mv(uci: &str) -> Action {
    Action::Move { uci: uci.into() }
}
