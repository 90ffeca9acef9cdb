//! A search on its own thread, for the text protocols (UCI and CECP): started with a position
//! and its limits, reporting as it goes, and stopped from the thread that reads commands.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use vizier_rules::Position;

use crate::eval::{Classical, Evaluator};
use crate::level;
use crate::nnue::Network;
use crate::search::{self, Limits, Report, SearchResult, Shared};

/// The protocol's output, written to by the reading thread and the search's.
pub(crate) type Out = Arc<Mutex<Box<dyn Write + Send>>>;

/// Writes one line and flushes it: a GUI waits for whole lines.
pub(crate) fn say(out: &Out, line: &str) {
    let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
    let _ = writeln!(o, "{line}");
    let _ = o.flush();
}

/// How the engine plays: its strength and evaluation, and the threads it may use.
#[derive(Clone)]
pub(crate) struct Settings {
    pub threads: usize,
    /// The playing level (`level::MAX`: full strength, with `network`'s evaluation).
    pub level: u8,
    /// Fixes a weakened level's misjudgements for the game.
    pub seed: u64,
    /// `None`: the classical evaluation; `Some(None)`: the embedded network.
    pub network: Option<Option<Arc<Network>>>,
}

/// What to search.
pub(crate) struct Task {
    pub pos: Position,
    /// Repetition keys of the positions before `pos`.
    pub keys: Vec<u64>,
    pub limits: Limits,
    /// (soft, hard) time limits in ms; 0: none.
    pub time: (u64, u64),
    /// Think without regard to the clock until [`Search::ponderhit`] or [`Search::stop`].
    pub ponder: bool,
    /// Answer only once stopped, even when the search is over (`go infinite`, analysis).
    pub infinite: bool,
}

/// A running search.
pub(crate) struct Search {
    handle: JoinHandle<()>,
    shared: Arc<Shared>,
    /// Told to stop: a search that ended by itself while holding its answer waits for this.
    stopped: Arc<AtomicBool>,
    /// (soft, hard) to apply from `ponderhit`.
    ponder_time: Option<(u64, u64)>,
    pub start: Instant,
}

impl Search {
    /// Starts searching `task` on a new thread: `report` hears of each iteration, `finish`
    /// gets the result (also when stopped).
    pub fn start(
        shared: &Arc<Shared>,
        settings: &Settings,
        task: Task,
        mut report: impl FnMut(&Report) + Send + 'static,
        finish: impl FnOnce(&Position, SearchResult) + Send + 'static,
    ) -> Search {
        let start = Instant::now();
        let (soft, hard) = task.time;
        let holding = task.infinite;
        shared.pondering.store(task.ponder, Ordering::Relaxed);
        shared
            .soft_ms
            .store(if holding { 0 } else { soft }, Ordering::Relaxed);
        shared
            .hard_ms
            .store(if holding { 0 } else { hard }, Ordering::Relaxed);
        shared.stop.store(false, Ordering::Relaxed);
        shared.nodes.store(0, Ordering::Relaxed);
        let stopped = Arc::new(AtomicBool::new(false));
        let told_to_stop = Arc::clone(&stopped);
        let settings = settings.clone();
        let thread_shared = Arc::clone(shared);
        let handle = std::thread::spawn(move || {
            let shared = thread_shared;
            let classical = Classical::default();
            let eval: &dyn Evaluator = match &settings.network {
                Some(Some(net)) => &**net,
                Some(None) => Network::embedded(),
                None => &classical,
            };
            let job = search::Job {
                pos: &task.pos,
                game_keys: &task.keys,
                limits: &task.limits,
                threads: settings.threads,
                start,
            };
            let result = if settings.level < level::MAX {
                let style = level::style(settings.level);
                level::search(&shared, &style, &job, settings.seed, &mut report)
            } else {
                search::search(&shared, eval, &job, &mut report)
            };
            // The search sets `shared.stop` itself when it is done: holding waits for the
            // controller's own word.
            while (holding || shared.pondering.load(Ordering::Relaxed))
                && !told_to_stop.load(Ordering::Relaxed)
            {
                std::thread::sleep(Duration::from_millis(1));
            }
            finish(&task.pos, result);
        });
        Search {
            handle,
            shared: Arc::clone(shared),
            stopped,
            ponder_time: task.ponder.then_some((soft, hard)),
            start,
        }
    }

    /// The expected move was played: the clock counts from now on, with `time` as the new
    /// (soft, hard) limits where the clock changed since pondering began.
    pub fn ponderhit(&self, time: Option<(u64, u64)>) {
        let elapsed = self.start.elapsed().as_millis() as u64;
        if let Some((soft, hard)) = time.or(self.ponder_time)
            && hard > 0
        {
            self.shared.soft_ms.store(elapsed + soft, Ordering::Relaxed);
            self.shared.hard_ms.store(elapsed + hard, Ordering::Relaxed);
        }
        self.shared.pondering.store(false, Ordering::Relaxed);
    }

    /// Tells the search to answer now, without waiting for its answer.
    pub fn hurry(&self) {
        self.stopped.store(true, Ordering::Relaxed);
        self.shared.pondering.store(false, Ordering::Relaxed);
        // Until it has counted nodes, the search may still clear the flag as it begins.
        while !self.handle.is_finished() && self.shared.nodes.load(Ordering::Relaxed) == 0 {
            self.shared.stop.store(true, Ordering::Relaxed);
            std::thread::sleep(Duration::from_micros(200));
        }
        self.shared.stop.store(true, Ordering::Relaxed);
    }

    /// Stops the search and waits until it has answered.
    pub fn stop(self) {
        self.stopped.store(true, Ordering::Relaxed);
        // A search that had not begun yet clears the stop flag as it begins: `stop` right
        // after `go` would be lost, and the search run on for ever. The flag is set until the
        // thread is done.
        while !self.handle.is_finished() {
            self.shared.stop.store(true, Ordering::Relaxed);
            self.shared.pondering.store(false, Ordering::Relaxed);
            std::thread::sleep(Duration::from_micros(200));
        }
        let _ = self.handle.join();
    }
}
