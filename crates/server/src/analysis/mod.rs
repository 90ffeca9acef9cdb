//! The engine at the players' side: a small pool of analysis threads, apart from the games'
//! computer players, that analyses positions for the analysis board and whole games for
//! reviews. It never slows live games: its threads run at the lowest CPU priority, the queue
//! is bounded, each player may hold only a few analyses, and every search is capped in nodes
//! and time (`Limits::analysis_*`).

pub mod board;
pub mod review;
pub mod reviews;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};

use vizier_engine::Stopper;
use vizier_engine::analyst::{Analyst, Budget, Line};
use vizier_rules::History;

use crate::limits::Limits;
use vizier_play::policy::Party;

/// Why an analysis was not taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// Every place in the queue is taken: try again in a while.
    Busy,
    /// This player, or their address, already has as many analyses as one may.
    TooMany,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Busy => write!(f, "the analysis queue is full: try again in a moment"),
            Refused::TooMany => write!(
                f,
                "you (or your address) already have analyses running or waiting"
            ),
        }
    }
}

/// A task's cancellation: set before it starts, it never runs; set while it runs, its search
/// stops at once.
#[derive(Default)]
pub struct Cancel {
    cancelled: AtomicBool,
    running: Mutex<Option<Stopper>>,
}

impl Cancel {
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
        if let Some(stopper) = &*self.running.lock().unwrap_or_else(|e| e.into_inner()) {
            stopper.stop();
        }
    }

    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }
}

/// Analyses `game` within `budget` as [`Analyst::analyse`] does, and stops when `cancel` is
/// set, even if it was set in the instant the search began (which clears a stop already
/// given): each completed depth looks again.
pub fn analyse(
    analyst: &Analyst,
    cancel: &Cancel,
    game: &History,
    budget: Budget,
    update: &mut dyn FnMut(&[Line]),
) -> Vec<Line> {
    let stopper = analyst.stopper();
    analyst.analyse(game, budget, &mut |lines| {
        if cancel.is_cancelled() {
            stopper.stop();
        } else {
            update(lines);
        }
    })
}

type Work = Box<dyn FnOnce(&Analyst, &Cancel) + Send>;

struct Task {
    work: Work,
    cancel: Arc<Cancel>,
    /// Gives the owner's place back when the task is done (or dropped unrun).
    _held: Held,
}

struct Held {
    /// The player's key, and the address's.
    keys: Vec<String>,
    counts: Arc<Mutex<HashMap<String, usize>>>,
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        for key in &self.keys {
            if let Some(n) = counts.get_mut(key) {
                *n -= 1;
                if *n == 0 {
                    counts.remove(key);
                }
            }
        }
    }
}

/// The analysis pool.
pub struct Pool {
    queue: SyncSender<Task>,
    counts: Arc<Mutex<HashMap<String, usize>>>,
    limits: Limits,
}

/// The table of each analysis thread, in MiB.
const HASH_MB: usize = 16;

impl Pool {
    /// A pool of `limits.analysis_threads` threads (none: every analysis is refused as busy).
    pub fn new(limits: Limits) -> Pool {
        let (queue, tasks) = sync_channel::<Task>(limits.analysis_queue);
        let tasks = Arc::new(Mutex::new(tasks));
        for i in 0..limits.analysis_threads {
            let tasks = Arc::clone(&tasks);
            let spawned = std::thread::Builder::new()
                .name(format!("analysis-{i}"))
                .spawn(move || work(&tasks));
            if let Err(e) = spawned {
                tracing::error!("analysis thread {i} did not start: {e}");
            }
        }
        Pool {
            queue,
            counts: Arc::default(),
            limits,
        }
    }

    /// The limits it keeps.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Queues `work` for `owner` (a player, and their address where known); it runs on an
    /// analysis thread with that thread's analyst. The returned handle cancels it.
    pub fn submit(
        &self,
        owner: &Party,
        work: impl FnOnce(&Analyst, &Cancel) + Send + 'static,
    ) -> Result<Arc<Cancel>, Refused> {
        if self.limits.analysis_threads == 0 {
            return Err(Refused::Busy);
        }
        let mut keys = vec![(owner.player.to_string(), self.limits.analyses_per_player)];
        if let Some(a) = &owner.address {
            keys.push((format!("@{a}"), self.limits.analyses_per_address));
        }
        {
            let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
            if keys
                .iter()
                .any(|(k, most)| counts.get(k).is_some_and(|n| n >= most))
            {
                return Err(Refused::TooMany);
            }
            for (k, _) in &keys {
                *counts.entry(k.clone()).or_default() += 1;
            }
        }
        let cancel = Arc::new(Cancel::default());
        let task = Task {
            work: Box::new(work),
            cancel: Arc::clone(&cancel),
            _held: Held {
                keys: keys.into_iter().map(|(k, _)| k).collect(),
                counts: Arc::clone(&self.counts),
            },
        };
        match self.queue.try_send(task) {
            Ok(()) => Ok(cancel),
            // The task is dropped with its place.
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => Err(Refused::Busy),
        }
    }
}

/// An analysis thread: lowest priority, one analyst, tasks one at a time until the pool goes.
fn work(tasks: &Mutex<Receiver<Task>>) {
    vizier_play::prover::lower_priority();
    // Made with the first task: a server nobody asks for analysis keeps no table for it.
    let mut analyst: Option<Analyst> = None;
    loop {
        let next = tasks.lock().unwrap_or_else(|e| e.into_inner()).recv();
        let Ok(task) = next else { return };
        if task.cancel.is_cancelled() {
            continue;
        }
        let analyst = analyst.get_or_insert_with(|| Analyst::new(HASH_MB));
        *task
            .cancel
            .running
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = Some(analyst.stopper());
        // A cancel between the check and now would have found no search to stop.
        if !task.cancel.is_cancelled() {
            (task.work)(analyst, &task.cancel);
        }
        *task
            .cancel
            .running
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn limits(threads: usize, queue: usize, per_player: usize) -> Limits {
        Limits {
            analysis_threads: threads,
            analysis_queue: queue,
            analyses_per_player: per_player,
            ..Limits::DEFAULT
        }
    }

    #[test]
    fn a_task_runs_and_gives_its_place_back() {
        let pool = Pool::new(limits(1, 4, 1));
        let (tx, rx) = std::sync::mpsc::channel();
        pool.submit(
            &Party::new(&vizier_play::ids::PlayerId::known("p"), None),
            move |analyst, _| {
                let lines = analyst.analyse(
                    &History::default(),
                    Budget {
                        nodes: 2_000,
                        ms: 0,
                        lines: 1,
                    },
                    &mut |_| {},
                );
                tx.send(lines.len()).unwrap();
            },
        )
        .unwrap();
        assert_eq!(rx.recv_timeout(Duration::from_secs(10)), Ok(1));
        // The place comes back once the task is over.
        let started = Instant::now();
        while pool
            .submit(
                &Party::new(&vizier_play::ids::PlayerId::known("p"), None),
                |_, _| {},
            )
            .is_err()
        {
            assert!(
                started.elapsed() < Duration::from_secs(5),
                "the place never came back"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn per_player_and_queue_limits_refuse_and_cancel_stops_a_search() {
        let pool = Pool::new(limits(1, 1, 2));
        let (started_tx, started_rx) = std::sync::mpsc::channel();
        let (done_tx, done_rx) = std::sync::mpsc::channel();
        // A search without end, until cancelled.
        let long = pool
            .submit(
                &Party::new(&vizier_play::ids::PlayerId::known("a"), None),
                move |analyst, cancel| {
                    started_tx.send(()).unwrap();
                    let at = Instant::now();
                    analyse(
                        analyst,
                        cancel,
                        &History::default(),
                        Budget {
                            nodes: u64::MAX,
                            ms: 0,
                            lines: 1,
                        },
                        &mut |_| {},
                    );
                    done_tx.send(at.elapsed()).unwrap();
                },
            )
            .unwrap();
        started_rx.recv_timeout(Duration::from_secs(10)).unwrap();
        // One waits in the queue; "a" may hold no third; the queue has no room for "b".
        let waiting = pool
            .submit(
                &Party::new(&vizier_play::ids::PlayerId::known("a"), None),
                |_, _| {},
            )
            .unwrap();
        assert_eq!(
            pool.submit(
                &Party::new(&vizier_play::ids::PlayerId::known("a"), None),
                |_, _| {}
            )
            .err(),
            Some(Refused::TooMany)
        );
        assert_eq!(
            pool.submit(
                &Party::new(&vizier_play::ids::PlayerId::known("b"), None),
                |_, _| {}
            )
            .err(),
            Some(Refused::Busy)
        );
        waiting.cancel();
        long.cancel();
        let ran = done_rx.recv_timeout(Duration::from_secs(10)).unwrap();
        assert!(ran < Duration::from_secs(10));
    }

    #[test]
    fn no_threads_no_analysis() {
        let pool = Pool::new(limits(0, 4, 4));
        assert_eq!(
            pool.submit(
                &Party::new(&vizier_play::ids::PlayerId::known("p"), None),
                |_, _| {}
            )
            .err(),
            Some(Refused::Busy)
        );
    }

    #[test]
    fn an_address_holds_a_few_analyses_whatever_its_players() {
        let pool = Pool::new(Limits {
            analyses_per_address: 3,
            ..limits(1, 32, 2)
        });
        let from = |player: &str| {
            Party::new(
                &vizier_play::ids::PlayerId::known(player),
                Some("192.0.2.1"),
            )
        };
        let held: Vec<_> = (0..3)
            .map(|i| pool.submit(&from(&format!("guest{i}")), |_, _| {}).unwrap())
            .collect();
        assert_eq!(
            pool.submit(&from("guest9"), |_, _| {}).err(),
            Some(Refused::TooMany)
        );
        assert!(
            pool.submit(
                &Party::new(
                    &vizier_play::ids::PlayerId::known("elsewhere"),
                    Some("192.0.2.2")
                ),
                |_, _| {}
            )
            .is_ok()
        );
        drop(held);
    }
}
