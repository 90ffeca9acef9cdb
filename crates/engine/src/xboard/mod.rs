//! The CECP front end (`vizier xboard`, protocol version 2), for xboard, WinBoard and the
//! tournament managers and libraries that speak it. Commands are read on their own thread and
//! searches run on another ([`crate::background`]); only the engine's loop changes the game,
//! one event at a time.

mod control;

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};

use vizier_rules::{BoardOutcome, Color, History, Move, Position, Termination, UciCastling};

use crate::background::{Out, Search, Settings, Task, say};
use crate::level;
use crate::nnue::Network;
use crate::search::{Limits, MATE, MATE_BOUND, Report, Shared};
use control::Control;

/// What the engine's loop hears: a command, or the end of a search.
enum Event {
    Line(String),
    Done {
        id: u64,
        best: Option<Move>,
        ponder: Option<Move>,
    },
    End,
}

/// Why a search runs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Purpose {
    /// The engine's move.
    Move,
    /// The opponent's time, on the move `expected` from them.
    Ponder { expected: Move },
    /// `analyze`: until told otherwise.
    Analysis,
}

struct Thinking {
    search: Search,
    id: u64,
    purpose: Purpose,
    /// The deepest completed iteration, for `.`.
    depth: Arc<AtomicI32>,
}

/// The engine's CECP state.
pub struct Engine {
    out: Out,
    events: (Sender<Event>, Receiver<Event>),
    game: History,
    /// Why the last `setboard` was refused: until a good one, there is no game to play.
    refused: Option<String>,
    chess960: bool,
    /// The side the engine plays; `None` in force mode.
    side: Option<Color>,
    analyzing: bool,
    ponder: bool,
    post: bool,
    control: Control,
    shared: Arc<Shared>,
    threads: usize,
    level: u8,
    use_nnue: bool,
    network: Option<Arc<Network>>,
    overhead_ms: u64,
    seed: u64,
    thinking: Option<Thinking>,
    next_id: u64,
    /// `ping`s that came while the engine was thinking on its move: answered after the move.
    pongs_after_move: Vec<String>,
    /// The reply the engine expects to its last move.
    hint: Option<Move>,
}

impl Engine {
    /// A fresh engine writing to `out`, playing Black as after `new`.
    pub fn new(out: Box<dyn Write + Send>) -> Engine {
        Engine {
            out: Arc::new(Mutex::new(out)),
            events: mpsc::channel(),
            game: History::default(),
            refused: None,
            chess960: false,
            side: Some(Color::Black),
            analyzing: false,
            ponder: false,
            post: false,
            control: Control::default(),
            shared: Arc::new(Shared::new(16)),
            threads: 1,
            level: level::MAX,
            use_nnue: crate::nnue::BY_DEFAULT,
            network: None,
            overhead_ms: 30,
            seed: 0,
            thinking: None,
            next_id: 0,
            pongs_after_move: Vec::new(),
            hint: None,
        }
    }

    /// Reads commands until `quit` or the end of input.
    pub fn run(mut self, input: impl BufRead + Send + 'static) {
        /// Says the input ended however the reading thread ends.
        struct EndOnDrop(Sender<Event>);
        impl Drop for EndOnDrop {
            fn drop(&mut self) {
                let _ = self.0.send(Event::End);
            }
        }
        let lines = EndOnDrop(self.events.0.clone());
        std::thread::spawn(move || {
            for line in input.lines() {
                let Ok(line) = line else { break };
                if lines.0.send(Event::Line(line)).is_err() {
                    return;
                }
            }
        });
        // At the end of input a move being thought about is still made (`echo … go | vizier
        // xboard`); `quit` drops it.
        let mut input_ended = false;
        while let Ok(event) = self.events.1.recv() {
            match event {
                Event::Line(line) => {
                    if !self.command(line.trim()) {
                        break;
                    }
                }
                Event::Done { id, best, ponder } => {
                    self.done(id, best, ponder);
                    if input_ended && !self.thinking_on_move() {
                        break;
                    }
                }
                Event::End => {
                    input_ended = true;
                    if !self.thinking_on_move() {
                        break;
                    }
                }
            }
        }
        self.halt();
    }

    fn thinking_on_move(&self) -> bool {
        matches!(&self.thinking, Some(t) if t.purpose == Purpose::Move)
    }

    fn say(&self, line: &str) {
        say(&self.out, line);
    }

    /// Handles one command; false for `quit`.
    fn command(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return true;
        };
        let args: Vec<&str> = words.collect();
        match command {
            "quit" => return false,
            "protover" => self.features(),
            "new" => {
                self.halt();
                self.game = History::default();
                self.refused = None;
                self.chess960 = false;
                self.side = Some(Color::Black);
                self.control.depth = None;
                (self.control.own_ms, self.control.opponent_ms) = (None, None);
                self.hint = None;
                self.shared.clear();
                self.seed = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64);
                self.resume_analysis();
            }
            "variant" => match args.as_slice() {
                ["normal"] => self.chess960 = false,
                ["fischerandom"] => self.chess960 = true,
                _ => self.error("unsupported variant", line),
            },
            "force" => {
                self.halt();
                self.side = None;
            }
            "go" => {
                self.halt();
                self.analyzing = false;
                self.side = Some(self.game.position().turn());
                self.think();
            }
            "playother" => {
                self.halt();
                self.side = Some(!self.game.position().turn());
            }
            "usermove" => match args.as_slice() {
                [text] => self.user_move(text),
                _ => self.error("bad arguments", line),
            },
            "?" => {
                if let Some(t) = &self.thinking
                    && t.purpose == Purpose::Move
                {
                    t.search.hurry();
                }
            }
            "ping" => {
                let pong = format!("pong {}", args.join(" "));
                if self.thinking_on_move() {
                    self.pongs_after_move.push(pong);
                } else {
                    self.say(&pong);
                }
            }
            "result" => {
                self.halt();
                self.side = None;
            }
            "setboard" => {
                let fen = line["setboard".len()..].trim();
                self.halt();
                match Position::from_fen(fen) {
                    Ok(pos) => {
                        self.game = History::new(pos);
                        self.refused = None;
                    }
                    Err(e) => {
                        self.say(&format!("tellusererror Illegal position: {e}"));
                        self.refused = Some(format!("{fen}: {e}"));
                    }
                }
                self.hint = None;
                self.resume_analysis();
            }
            "undo" | "remove" => {
                self.halt();
                let plies = if command == "undo" { 1 } else { 2 };
                if self.game.moves().len() < plies {
                    self.error("nothing to take back", line);
                } else {
                    for _ in 0..plies {
                        self.game.pop();
                    }
                }
                self.hint = None;
                self.resume_analysis();
            }
            "hint" => {
                if let Some(m) = self.hint.filter(|&m| self.game.position().is_legal(m)) {
                    self.say(&format!(
                        "Hint: {}",
                        self.move_text(self.game.position(), m)
                    ));
                }
            }
            "hard" => self.ponder = true,
            "easy" => {
                self.ponder = false;
                if matches!(&self.thinking, Some(t) if matches!(t.purpose, Purpose::Ponder { .. }))
                {
                    self.halt();
                }
            }
            "post" => self.post = true,
            "nopost" => self.post = false,
            "analyze" => {
                self.halt();
                self.analyzing = true;
                self.side = None;
                self.resume_analysis();
            }
            "exit" => {
                if self.analyzing {
                    self.halt();
                    self.analyzing = false;
                }
            }
            "." => self.status(),
            "level" | "st" | "sd" | "nps" | "time" | "otim" => {
                if self.control.apply(command, &args).is_err() {
                    self.error("bad arguments", line);
                }
            }
            "memory" => match number_in(&args, 1..=65536) {
                Some(mb) => {
                    self.halt();
                    self.shared = Arc::new(Shared::new(mb));
                }
                None => self.error("bad arguments", line),
            },
            "cores" => match number_in(&args, 1..=256) {
                Some(n) => self.threads = n,
                None => self.error("bad arguments", line),
            },
            "option" => self.option(line["option".len()..].trim()),
            // Told, and of no use to the engine.
            "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "draw" | "bk" | "egtpath" | "easyponder" => {}
            _ => {
                // A move without `usermove`, from a GUI that ignored the feature.
                if self.refused.is_none() && self.parse_move(command).is_some() && args.is_empty() {
                    self.user_move(command);
                } else {
                    self.error("unknown command", command);
                }
            }
        }
        true
    }

    fn error(&self, kind: &str, what: &str) {
        self.say(&format!("Error ({kind}): {what}"));
    }

    fn features(&self) {
        self.say("feature done=0");
        self.say(
            "feature ping=1 setboard=1 playother=1 san=0 usermove=1 time=1 draw=0 sigint=0 \
             reuse=1 analyze=1 colors=0 ics=0 name=0 pause=0 nps=1 debug=0 memory=1 smp=1 \
             exclude=0 setscore=0 highlight=0",
        );
        self.say(&format!(
            "feature myname=\"Vizier {}\" variants=\"normal,fischerandom\"",
            env!("CARGO_PKG_VERSION")
        ));
        self.say(&format!(
            "feature option=\"Level -spin {max} {min} {max}\"",
            min = level::MIN,
            max = level::MAX
        ));
        self.say(&format!(
            "feature option=\"UseNNUE -check {}\"",
            u8::from(crate::nnue::BY_DEFAULT)
        ));
        self.say("feature option=\"EvalFile -file <embedded>\"");
        self.say("feature option=\"MoveOverhead -spin 30 0 5000\"");
        self.say("feature option=\"ClearHash -button\"");
        self.say("feature done=1");
    }

    /// `option NAME=VALUE`, or `option NAME` for a button.
    fn option(&mut self, text: &str) {
        let (name, value) = text.split_once('=').unwrap_or((text, ""));
        let (name, value) = (name.trim(), value.trim());
        let number = value.parse::<u64>().ok();
        let bad = |engine: &Engine| engine.error("bad option value", text);
        match name {
            "Level" => match number.filter(|n| (level::MIN as u64..=level::MAX as u64).contains(n))
            {
                Some(n) => self.level = n as u8,
                None => bad(self),
            },
            "UseNNUE" => match value {
                "1" | "true" => self.use_nnue = true,
                "0" | "false" => self.use_nnue = false,
                _ => bad(self),
            },
            "EvalFile" => {
                if value.is_empty() || value == "<embedded>" {
                    self.network = None;
                } else {
                    match Network::read(value) {
                        Ok(net) => self.network = Some(Arc::new(net)),
                        Err(e) => self.say(&format!("tellusererror EvalFile {value}: {e}")),
                    }
                }
            }
            "MoveOverhead" => match number.filter(|&n| n <= 5000) {
                Some(n) => self.overhead_ms = n,
                None => bad(self),
            },
            "ClearHash" => {
                self.halt();
                self.shared.clear();
            }
            _ => self.error("unknown option", name),
        }
    }

    fn parse_move(&self, text: &str) -> Option<Move> {
        self.game.position().parse_move(text).ok()
    }

    /// The opponent's move (or, in force mode, either side's).
    fn user_move(&mut self, text: &str) {
        if self.refused.is_some() {
            return self.say(&format!("Illegal move (no position): {text}"));
        }
        let Some(m) = self.parse_move(text) else {
            return self.say(&format!("Illegal move: {text}"));
        };
        let hit = matches!(&self.thinking,
            Some(t) if t.purpose == Purpose::Ponder { expected: m });
        self.game
            .push(m)
            .expect("a move parsed in this position is legal");
        self.hint = None;
        let engine_to_move = self.side == Some(self.game.position().turn());
        if hit && engine_to_move {
            // The expected move: the search goes on, now against the clock.
            let (_, time) = self.move_limits(self.game.position());
            if let Some(t) = &mut self.thinking {
                t.search.ponderhit(Some(time));
                t.purpose = Purpose::Move;
            }
            return;
        }
        self.halt();
        if self.analyzing {
            self.resume_analysis();
        } else if engine_to_move {
            self.think();
        }
    }

    /// Starts thinking on the engine's move, or says how the game ended.
    fn think(&mut self) {
        if let Some(why) = &self.refused {
            return self.error("illegal position", why);
        }
        if let Some(outcome) = self.game.outcome() {
            return self.say(&result_text(&outcome));
        }
        let (limits, time) = self.move_limits(self.game.position());
        let game = self.game.clone();
        self.start(Purpose::Move, &game, limits, time, false);
    }

    /// The limits and (soft, hard) time of the engine's move in `pos`, from the time control.
    /// The moves it has made are counted from the move number, not from the moves it was
    /// told: hosts that send `setboard` before every move (as `vizier match` does) leave the
    /// engine no history.
    fn move_limits(&self, pos: &Position) -> (Limits, (u64, u64)) {
        let moves_made = pos.fullmoves().saturating_sub(1);
        let budget = self.control.budget(moves_made, self.overhead_ms);
        let limits = Limits {
            depth: budget.depth,
            nodes: budget.nodes,
            multipv: 1,
            ..Limits::default()
        };
        (limits, budget.time)
    }

    /// In analyze mode, (re)starts the analysis of the game's position.
    fn resume_analysis(&mut self) {
        if !self.analyzing || self.refused.is_some() || self.game.outcome().is_some() {
            return;
        }
        let limits = Limits {
            multipv: 1,
            ..Limits::default()
        };
        let game = self.game.clone();
        self.start(Purpose::Analysis, &game, limits, (0, 0), true);
    }

    fn start(
        &mut self,
        purpose: Purpose,
        game: &History,
        limits: Limits,
        time: (u64, u64),
        infinite: bool,
    ) {
        self.next_id += 1;
        let id = self.next_id;
        let depth = Arc::new(AtomicI32::new(0));
        let report = {
            let (out, pos, depth) = (
                self.out.clone(),
                game.position().clone(),
                Arc::clone(&depth),
            );
            let post = self.post || purpose == Purpose::Analysis;
            move |r: &Report| {
                depth.store(r.depth, Ordering::Relaxed);
                if post {
                    say(&out, &post_text(&pos, r));
                }
            }
        };
        let events = self.events.0.clone();
        let finish = move |_: &Position, result: crate::search::SearchResult| {
            let _ = events.send(Event::Done {
                id,
                best: result.best,
                ponder: result.ponder,
            });
        };
        let task = Task {
            pos: game.position().clone(),
            keys: game.earlier_keys().to_vec(),
            limits,
            time,
            ponder: matches!(purpose, Purpose::Ponder { .. }),
            infinite,
        };
        let settings = Settings {
            threads: self.threads,
            level: self.level,
            seed: self.seed,
            network: self.use_nnue.then(|| self.network.clone()),
        };
        let search = Search::start(&self.shared, &settings, task, report, finish);
        self.thinking = Some(Thinking {
            search,
            id,
            purpose,
            depth,
        });
    }

    /// A search has answered.
    fn done(&mut self, id: u64, best: Option<Move>, ponder: Option<Move>) {
        if self.thinking.as_ref().is_none_or(|t| t.id != id) {
            return; // Stopped and forgotten.
        }
        let Some(thinking) = self.thinking.take() else {
            return;
        };
        thinking.search.stop();
        if thinking.purpose != Purpose::Move {
            return;
        }
        let Some(best) = best.filter(|&m| self.game.position().is_legal(m)) else {
            self.answer_pongs();
            return;
        };
        let text = self.move_text(self.game.position(), best);
        self.game.push(best).expect("checked legal");
        self.say(&format!("move {text}"));
        self.answer_pongs();
        self.hint = ponder.filter(|&m| self.game.position().is_legal(m));
        if let Some(outcome) = self.game.outcome() {
            return self.say(&result_text(&outcome));
        }
        if let Some(expected) = self.hint
            && self.ponder
        {
            let mut game = self.game.clone();
            game.push(expected).expect("checked legal");
            if game.outcome().is_some() {
                return;
            }
            let (limits, time) = self.move_limits(game.position());
            self.start(Purpose::Ponder { expected }, &game, limits, time, false);
        }
    }

    fn answer_pongs(&mut self) {
        for pong in std::mem::take(&mut self.pongs_after_move) {
            self.say(&pong);
        }
    }

    /// Stops any search and forgets its answer.
    fn halt(&mut self) {
        if let Some(t) = self.thinking.take() {
            t.search.stop();
        }
        self.answer_pongs();
    }

    /// `.` in analyze mode: how far the analysis has come.
    fn status(&self) {
        if let Some(t) = self.thinking.as_ref().filter(|_| self.analyzing) {
            let centis = t.search.start.elapsed().as_millis() / 10;
            let nodes = self.shared.nodes.load(Ordering::Relaxed);
            let moves = self.game.position().legal_moves().len();
            self.say(&format!(
                "stat01: {centis} {nodes} {} 0 {moves}",
                t.depth.load(Ordering::Relaxed)
            ));
        }
    }

    /// A move as CECP writes it: coordinates, and castling in Chess960 as `O-O` or `O-O-O`.
    fn move_text(&self, pos: &Position, m: Move) -> String {
        if self.chess960 && m.is_castle() {
            return if m.to().file() > m.from().file() {
                "O-O".into()
            } else {
                "O-O-O".into()
            };
        }
        pos.uci(m, UciCastling::KingStep)
    }
}

/// The one argument, a number within `range`.
fn number_in(args: &[&str], range: std::ops::RangeInclusive<usize>) -> Option<usize> {
    match args {
        [n] => n.parse().ok().filter(|n| range.contains(n)),
        _ => None,
    }
}

/// A thinking line: depth, score (mate in n as 100000 + n), time in centiseconds, nodes and
/// the line in SAN.
fn post_text(pos: &Position, r: &Report) -> String {
    let score = if r.score >= MATE_BOUND {
        100_000 + (MATE - r.score + 1) / 2
    } else if r.score <= -MATE_BOUND {
        -100_000 - (MATE + r.score) / 2
    } else {
        r.score
    };
    let mut p = pos.clone();
    let mut line = Vec::new();
    for &m in &r.pv {
        if !p.is_legal(m) {
            break;
        }
        line.push(p.san(m));
        p.play_unchecked(m);
    }
    format!(
        "{} {score} {} {} {}",
        r.depth,
        r.time_ms / 10,
        r.nodes,
        line.join(" ")
    )
}

/// The result line for a game the rules have ended: `1-0 {White mates}`.
fn result_text(outcome: &BoardOutcome) -> String {
    let why = match (outcome.termination, outcome.winner) {
        (Termination::Checkmate, Some(Color::White)) => "White mates",
        (Termination::Checkmate, _) => "Black mates",
        (Termination::Stalemate, _) => "Stalemate",
        (Termination::DeadPosition, _) => "Dead position",
        (Termination::FivefoldRepetition, _) => "Fivefold repetition",
        (Termination::SeventyFiveMoves, _) => "75-move rule",
    };
    format!("{} {{{why}}}", outcome.result())
}

#[cfg(test)]
mod tests;
