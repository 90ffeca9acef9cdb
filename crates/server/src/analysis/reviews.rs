//! Reviews on request: a finished game is queued on the analysis pool, its progress kept here
//! while it runs, and the result stored with the game, so that it is made once.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde::Serialize;
use vizier_rules::{History, UciCastling};

use super::review::{Review, judge_game, review_position};
use super::{Pool, Refused};
use crate::archive;
use vizier_play::policy::Party;
use vizier_store::{Store, StoreError};

/// The longest game reviewed, in moves of both sides.
pub const MAX_PLIES: usize = 600;

/// How far a review has come.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Progress {
    /// Positions analysed so far, of `total`.
    pub done: usize,
    pub total: usize,
}

/// Where a game's review stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    /// None was asked for.
    None,
    /// Queued or being made.
    Running(Progress),
    /// Done: the stored JSON.
    Done(String),
}

/// Why a review could not be started.
#[derive(Debug)]
pub enum ReviewError {
    NoSuchGame,
    NotOver,
    /// An illegal move stood (arbiter mode), or the game is too long.
    NotAnalysable(&'static str),
    Refused(Refused),
    Store(StoreError),
}

impl std::fmt::Display for ReviewError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReviewError::NoSuchGame => write!(f, "no such game"),
            ReviewError::NotOver => write!(f, "the game is still being played"),
            ReviewError::NotAnalysable(why) => write!(f, "{why}"),
            ReviewError::Refused(r) => write!(f, "{r}"),
            ReviewError::Store(e) => write!(f, "{e}"),
        }
    }
}

impl From<StoreError> for ReviewError {
    fn from(e: StoreError) -> ReviewError {
        ReviewError::Store(e)
    }
}

/// Reviews made and being made.
pub struct Reviews {
    pool: Arc<Pool>,
    store: Store,
    running: Arc<Mutex<HashMap<String, Progress>>>,
}

impl Reviews {
    pub fn new(pool: Arc<Pool>, store: Store) -> Reviews {
        Reviews {
            pool,
            store,
            running: Arc::default(),
        }
    }

    /// Where game `id`'s review stands.
    pub async fn status(&self, id: &str) -> Result<Status, StoreError> {
        if let Some(p) = self.progress(id) {
            return Ok(Status::Running(p));
        }
        Ok(match self.store.review(id).await? {
            Some(json) => Status::Done(json),
            None => Status::None,
        })
    }

    fn progress(&self, id: &str) -> Option<Progress> {
        let running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        running.get(id).copied()
    }

    /// Asks for game `id`'s review on behalf of `owner`: made once, then kept.
    pub async fn start(&self, owner: &Party, id: &str) -> Result<Status, ReviewError> {
        let status = self.status(id).await?;
        if status != Status::None {
            return Ok(status);
        }
        let Some(row) = self.store.game(id).await? else {
            return Err(ReviewError::NoSuchGame);
        };
        if row.ended_at.is_none() {
            return Err(ReviewError::NotOver);
        }
        let archived = archive::load(&self.store, row, None)
            .await
            .map_err(|_| ReviewError::NotAnalysable("the game does not replay"))?;
        let game = archived.game;
        if game.plies().iter().any(|p| p.irregular) {
            return Err(ReviewError::NotAnalysable(
                "an illegal move stood in this game",
            ));
        }
        if game.plies().len() > MAX_PLIES {
            return Err(ReviewError::NotAnalysable("the game is too long to review"));
        }
        let start = game.start_position().clone();
        let moves: Vec<_> = game.plies().iter().map(|p| p.mv).collect();
        let castling = UciCastling::for_chess960(game.is_chess960());
        let total = moves.len() + 1;
        {
            let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(p) = running.get(id) {
                return Ok(Status::Running(*p));
            }
            running.insert(id.to_string(), Progress { done: 0, total });
        }
        let nodes = self.pool.limits().review_nodes;
        let running = Arc::clone(&self.running);
        let store = self.store.clone();
        let runtime = tokio::runtime::Handle::current();
        let game_id = id.to_string();
        let submitted = self.pool.submit(owner, move |analyst, cancel| {
            let first = start.turn();
            let mut history = History::new(start);
            let mut positions = Vec::with_capacity(total);
            for i in 0..total {
                if cancel.is_cancelled() {
                    break;
                }
                positions.push(review_position(analyst, &history, nodes, castling));
                if let Some(p) = running
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_mut(&game_id)
                {
                    p.done = i + 1;
                }
                if let Some(&mv) = moves.get(i)
                    && history.push(mv).is_err()
                {
                    break;
                }
            }
            let review = (positions.len() == total).then(|| judge_game(nodes, positions, first));
            runtime.spawn(finish(store, running, game_id, review));
        });
        if let Err(refused) = submitted {
            self.running
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(id);
            return Err(ReviewError::Refused(refused));
        }
        Ok(Status::Running(Progress { done: 0, total }))
    }
}

/// Stores a finished review (none: it was cut short) and forgets its progress.
async fn finish(
    store: Store,
    running: Arc<Mutex<HashMap<String, Progress>>>,
    id: String,
    review: Option<Review>,
) {
    if let Some(review) = review {
        let json = serde_json::to_string(&review).expect("plain data");
        if let Err(e) = store
            .save_review(&id, &json, vizier_play::time::now_ms() as i64)
            .await
        {
            tracing::warn!(game = %id, "review not stored: {e}");
        }
    }
    running
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .remove(&id);
}
