//! The proof pool: whether positions of live games are dead (Art. 5.2.2) where the per-move
//! check left them open, proved on a thread of its own at the lowest priority, never on the
//! games' tasks. A game sends its newest positions and hears back the first of them that is
//! dead, if the last is; a full queue refuses, and the game is played on until its next move
//! asks again. Questions a command waits for (a flag fall, a resignation) are answered at
//! once on a blocking thread instead ([`answer`]), within the same time.

use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use vizier_arbiter::Command;
use vizier_rules::{Color, DEEP_NODES, MateVerdict, Position};

/// Positions each side's search may visit in one proof: enough for every position of the
/// public test vector.
pub const PROOF_NODES: u64 = DEEP_NODES;

/// A game's request: are these positions dead?
pub struct Job {
    /// The positions after plies `first`, `first + 1`, …, the last the game's newest.
    pub positions: Vec<Position>,
    pub first: usize,
    /// Where the answer goes.
    pub reply: tokio::sync::oneshot::Sender<Found>,
}

/// What a proof found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// The position after this many plies is dead, and every one after it that was sent.
    Dead { after: usize },
    /// The newest position is not proved dead (a side mates, or the search gave up).
    NotDead,
}

/// The pool.
pub struct Prover {
    queue: Option<SyncSender<Job>>,
    time: Duration,
}

impl Prover {
    /// A pool of one thread taking up to `queue` jobs, each proof given `time` at most;
    /// `queue` 0: no pool (every job is refused).
    pub fn new(queue: usize, time: Duration) -> Prover {
        if queue == 0 {
            return Prover { queue: None, time };
        }
        let (sender, jobs) = sync_channel::<Job>(queue);
        let jobs = Arc::new(Mutex::new(jobs));
        let spawned = std::thread::Builder::new()
            .name("proofs".into())
            .spawn(move || work(&jobs, time));
        if let Err(e) = spawned {
            tracing::error!("the proof thread did not start: {e}");
        }
        Prover {
            queue: Some(sender),
            time,
        }
    }

    /// Queues `job`; `false` if the queue is full (the job is dropped, its game played on).
    pub fn submit(&self, job: Job) -> bool {
        let Some(queue) = &self.queue else {
            return false;
        };
        match queue.try_send(job) {
            Ok(()) => true,
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
                metrics::counter!(crate::metrics::PROOFS_REFUSED).increment(1);
                false
            }
        }
    }

    /// How long one proof may take.
    pub fn time(&self) -> Duration {
        self.time
    }
}

fn work(jobs: &Mutex<Receiver<Job>>, time: Duration) {
    lower_priority();
    loop {
        let next = jobs.lock().unwrap_or_else(|e| e.into_inner()).recv();
        let Ok(job) = next else { return };
        let started = Instant::now();
        let found = first_dead(&job.positions, job.first, time);
        metrics::histogram!(crate::metrics::PROOF_SECONDS).record(started.elapsed().as_secs_f64());
        let _ = job.reply.send(found);
    }
}

/// Whether the last of `positions` (after plies `first`, …) is dead, and then the first of
/// them that is: every position after a dead one is dead, so the run of dead ones ends the
/// list.
pub fn first_dead(positions: &[Position], first: usize, time: Duration) -> Found {
    let Some(last) = positions.last() else {
        return Found::NotDead;
    };
    if !is_dead(last, time) {
        return Found::NotDead;
    }
    let mut earliest = positions.len() - 1;
    while earliest > 0 && is_dead(&positions[earliest - 1], time) {
        earliest -= 1;
    }
    Found::Dead {
        after: first + earliest,
    }
}

/// Whether neither side can checkmate, each side's search given `time`.
fn is_dead(pos: &Position, time: Duration) -> bool {
    Color::ALL
        .into_iter()
        .all(|side| can_mate(pos, side, time) == Some(false))
}

/// Whether `side` can checkmate from `pos`; `None` where the search gave up.
pub fn can_mate(pos: &Position, side: Color, time: Duration) -> Option<bool> {
    match pos.mate_verdict_by(side, PROOF_NODES, Instant::now() + time) {
        MateVerdict::Can(_) => Some(true),
        MateVerdict::Cannot => Some(false),
        MateVerdict::Undecided => {
            metrics::counter!(crate::metrics::PROOFS_UNDECIDED).increment(1);
            tracing::warn!(fen = %pos.fen(), ?side, "no proof either way within the time");
            None
        }
    }
}

/// The answer to an arbiter's question ([`vizier_arbiter::CommandError::NeedsProof`]) about
/// `fen`: whether `side` can mate, or (`None`) whether the position is dead, in which case the
/// game ended after `plies` plies (the caller finds an earlier ply if it can).
pub fn answer(side: Option<Color>, fen: &str, plies: usize, time: Duration) -> Option<Command> {
    let pos = Position::from_fen(fen).ok()?;
    let proved = |side| Command::Proved {
        side,
        fen: fen.to_string(),
        can_mate: can_mate(&pos, side, time),
    };
    match side {
        Some(side) => Some(proved(side)),
        None => {
            for side in Color::ALL {
                let can = can_mate(&pos, side, time);
                if can != Some(false) {
                    return Some(Command::Proved {
                        side,
                        fen: fen.to_string(),
                        can_mate: can,
                    });
                }
            }
            Some(Command::DeadPosition { after: plies })
        }
    }
}

/// Live games' tasks come first: this thread gets the CPU only when they leave it idle.
/// `SCHED_IDLE` rather than the lowest nice value: a live thread that wakes preempts it at
/// once, where a nice thread could hold the core for the rest of its slice.
pub fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: both calls change nothing but the scheduling of this thread's own id.
    unsafe {
        let tid = libc::gettid();
        let param = libc::sched_param { sched_priority: 0 };
        if libc::sched_setscheduler(tid, libc::SCHED_IDLE, &param) != 0
            && libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, 19) != 0
        {
            tracing::warn!("a background thread keeps its priority: setpriority failed");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_dead_position_of_a_run_is_found() {
        let time = Duration::from_secs(30);
        let fen = |f| Position::from_fen(f).unwrap();
        // Locked pawns that only the deep decision proves dead, one move apart.
        let dead = [
            fen("1k6/1P5p/BP3p2/1P6/8/6K1/5P1P/8 w - - 0 1"),
            fen("1k6/1P5p/BP3p2/1P6/8/5K2/5P1P/8 b - - 0 1"),
        ];
        let run = [Position::new(), dead[0].clone(), dead[1].clone()];
        assert_eq!(first_dead(&run, 10, time), Found::Dead { after: 11 });
        assert_eq!(first_dead(&run[..1], 10, time), Found::NotDead);
        assert_eq!(first_dead(&dead, 0, time), Found::Dead { after: 0 });
    }

    #[test]
    fn a_full_queue_refuses() {
        let prover = Prover::new(0, Duration::from_secs(1));
        let (reply, _) = tokio::sync::oneshot::channel();
        let job = Job {
            positions: Vec::new(),
            first: 0,
            reply,
        };
        assert!(!prover.submit(job));
    }
}
