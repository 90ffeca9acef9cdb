//! The UCI front end: reads commands, answers `isready` at any time, searches on a separate
//! thread, and never crashes on unknown or malformed input (it is ignored).

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

use vizier_rules::{Move, Position, UciCastling};

use crate::background::{Out, Search, Settings, Task, say};
use crate::level;
use crate::nnue::Network;
use crate::search::{Limits, MATE, MATE_BOUND, Report, SearchResult, Shared};
use crate::timeman;

struct Options {
    hash_mb: usize,
    threads: usize,
    multipv: usize,
    chess960: bool,
    show_wdl: bool,
    overhead_ms: u64,
    /// The playing level (`level::MAX`: full strength).
    level: u8,
    limit_strength: bool,
    elo: i32,
    /// Evaluate with the neural network instead of the classical terms.
    use_nnue: bool,
    /// The network loaded with `EvalFile` (`None`: the embedded one).
    network: Option<Arc<Network>>,
}

impl Options {
    /// The level to play at: `UCI_Elo`'s when strength is limited, else `Level`.
    fn effective_level(&self) -> u8 {
        if self.limit_strength {
            level::for_elo(self.elo).unwrap_or(self.level)
        } else {
            self.level
        }
    }
}

/// `UCI_Elo`'s range: the measured levels' (a fixed fallback while none is measured).
fn elo_range() -> (i32, i32) {
    let elos = level::MEASURED.iter().map(|m| m.1);
    match (elos.clone().min(), elos.max()) {
        (Some(lo), Some(hi)) => (lo, hi),
        _ => (600, 3000),
    }
}

/// The engine's UCI state.
pub struct Engine {
    out: Out,
    options: Options,
    shared: Arc<Shared>,
    position: Position,
    /// Repetition keys of the positions before `position`.
    keys: Vec<u64>,
    /// Why the last `position` command was refused (a bad FEN, an illegal move): until the
    /// next good one, `go` searches nothing rather than the old game.
    bad_position: Option<String>,
    running: Option<Search>,
    /// Drawn at `ucinewgame`: fixes a weakened level's misjudgements for the game.
    game_seed: u64,
}

/// The expected score per mille (win, draw, loss) for a centipawn score: a simple logistic
/// model, to be fitted on our own games.
pub fn wdl(score: i32) -> (u32, u32, u32) {
    if score >= MATE_BOUND {
        return (1000, 0, 0);
    }
    if score <= -MATE_BOUND {
        return (0, 0, 1000);
    }
    let w = 1000.0 / (1.0 + ((150.0 - score as f64) / 60.0).exp());
    let l = 1000.0 / (1.0 + ((150.0 + score as f64) / 60.0).exp());
    let (w, l) = (w.round() as u32, l.round() as u32);
    (w, 1000 - w - l, l)
}

fn score_text(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", (MATE + score) / 2)
    } else {
        format!("cp {score}")
    }
}

fn pv_text(pos: &Position, pv: &[Move], castling: UciCastling) -> String {
    let mut p = pos.clone();
    let mut words = Vec::new();
    for &m in pv {
        if !p.is_legal(m) {
            break;
        }
        words.push(p.uci(m, castling));
        p.play_unchecked(m);
    }
    words.join(" ")
}

impl Engine {
    /// A fresh engine writing to `out`.
    pub fn new(out: Box<dyn Write + Send>) -> Engine {
        Engine {
            out: Arc::new(Mutex::new(out)),
            options: Options {
                hash_mb: 16,
                threads: 1,
                multipv: 1,
                chess960: false,
                show_wdl: false,
                overhead_ms: 30,
                level: level::MAX,
                limit_strength: false,
                elo: elo_range().1,
                use_nnue: crate::nnue::BY_DEFAULT,
                network: None,
            },
            game_seed: 0,
            shared: Arc::new(Shared::new(16)),
            position: Position::new(),
            bad_position: None,
            keys: Vec::new(),
            running: None,
        }
    }

    /// Reads commands until `quit` or the end of input.
    pub fn run(&mut self, input: impl BufRead) {
        for line in input.lines() {
            let Ok(line) = line else { break };
            if !self.command(line.trim()) {
                break;
            }
        }
        self.stop();
    }

    /// Handles one command; false for `quit`.
    pub fn command(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("uci") => {
                say(
                    &self.out,
                    &format!("id name Vizier {}", env!("CARGO_PKG_VERSION")),
                );
                say(&self.out, "id author the Vizier developers");
                for opt in [
                    "option name Hash type spin default 16 min 1 max 65536",
                    "option name Threads type spin default 1 min 1 max 256",
                    "option name MultiPV type spin default 1 min 1 max 256",
                    "option name Ponder type check default false",
                    "option name UCI_Chess960 type check default false",
                    "option name UCI_ShowWDL type check default false",
                    "option name Move Overhead type spin default 30 min 0 max 5000",
                    "option name Clear Hash type button",
                    &format!(
                        "option name UseNNUE type check default {}",
                        crate::nnue::BY_DEFAULT
                    ),
                    "option name EvalFile type string default <embedded>",
                ] {
                    say(&self.out, opt);
                }
                let (lo, hi) = elo_range();
                say(
                    &self.out,
                    &format!(
                        "option name Level type spin default {max} min {min} max {max}",
                        min = level::MIN,
                        max = level::MAX
                    ),
                );
                say(
                    &self.out,
                    "option name UCI_LimitStrength type check default false",
                );
                say(
                    &self.out,
                    &format!("option name UCI_Elo type spin default {hi} min {lo} max {hi}"),
                );
                say(&self.out, "uciok");
            }
            Some("isready") => say(&self.out, "readyok"),
            Some("ucinewgame") => {
                self.stop();
                self.shared.clear();
                self.game_seed = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64);
            }
            Some("setoption") => self.setoption(line),
            Some("position") => {
                self.stop();
                self.set_position(line);
            }
            Some("go") => {
                self.stop();
                self.go(line);
            }
            Some("stop") => self.stop(),
            Some("ponderhit") => self.ponderhit(),
            Some("bench") => {
                self.stop();
                let depth = words
                    .next()
                    .and_then(|d| d.parse().ok())
                    .unwrap_or(crate::bench::DEFAULT_DEPTH);
                let network = self.options.network.as_deref();
                crate::bench::run(depth, network, &mut |l| say(&self.out, l));
            }
            Some("quit") => return false,
            _ => {} // Unknown input is ignored, as UCI asks.
        }
        true
    }

    fn setoption(&mut self, line: &str) {
        let rest = line.strip_prefix("setoption").unwrap_or("").trim();
        let rest = rest.strip_prefix("name").unwrap_or(rest).trim();
        let (name, value) = match rest.find(" value ") {
            Some(i) => (rest[..i].trim(), rest[i + 7..].trim()),
            None => (rest, ""),
        };
        let num = value.parse::<u64>().ok();
        let flag = value.eq_ignore_ascii_case("true");
        match name.to_ascii_lowercase().as_str() {
            "hash" => {
                if let Some(mb) = num.filter(|&n| (1..=65536).contains(&n)) {
                    self.stop();
                    self.options.hash_mb = mb as usize;
                    self.shared = Arc::new(Shared::new(mb as usize));
                }
            }
            "threads" => {
                if let Some(n) = num.filter(|&n| (1..=256).contains(&n)) {
                    self.options.threads = n as usize;
                }
            }
            "multipv" => {
                if let Some(n) = num.filter(|&n| (1..=256).contains(&n)) {
                    self.options.multipv = n as usize;
                }
            }
            "uci_chess960" => self.options.chess960 = flag,
            "uci_showwdl" => self.options.show_wdl = flag,
            "level" => {
                if let Some(n) =
                    num.filter(|&n| (level::MIN as u64..=level::MAX as u64).contains(&n))
                {
                    self.options.level = n as u8;
                }
            }
            "uci_limitstrength" => self.options.limit_strength = flag,
            "uci_elo" => {
                let (lo, hi) = elo_range();
                if let Some(n) = value.parse::<i32>().ok().filter(|n| (lo..=hi).contains(n)) {
                    self.options.elo = n;
                }
            }
            "move overhead" => {
                if let Some(n) = num.filter(|&n| n <= 5000) {
                    self.options.overhead_ms = n;
                }
            }
            "usennue" => self.options.use_nnue = flag,
            "evalfile" => {
                if value.is_empty() || value == "<embedded>" {
                    self.options.network = None;
                    return;
                }
                match Network::read(value) {
                    Ok(net) => self.options.network = Some(Arc::new(net)),
                    Err(e) => say(&self.out, &format!("info string EvalFile {value}: {e}")),
                }
            }
            "clear hash" => {
                self.stop();
                self.shared.clear();
            }
            _ => {}
        }
    }

    fn set_position(&mut self, line: &str) {
        let rest = line.strip_prefix("position").unwrap_or("").trim();
        let (setup, moves) = match rest.find(" moves") {
            Some(i) => (&rest[..i], rest[i + 6..].trim()),
            None => (rest, ""),
        };
        let refuse = |engine: &mut Engine, why: String| {
            say(&engine.out, &format!("info string {why}"));
            engine.bad_position = Some(why);
        };
        let pos = if let Some(fen) = setup.strip_prefix("fen") {
            match Position::from_fen(fen.trim()) {
                Ok(p) => p,
                Err(e) => return refuse(self, format!("bad FEN \"{}\": {e}", fen.trim())),
            }
        } else if setup.trim() == "startpos" {
            Position::new()
        } else {
            return refuse(self, format!("bad position command \"{line}\""));
        };
        let mut pos = pos;
        let mut keys = Vec::new();
        for text in moves.split_whitespace() {
            let m = match pos.parse_uci(text) {
                Ok(m) => m,
                Err(e) => return refuse(self, format!("move {text}: {e}")),
            };
            keys.push(pos.repetition_key());
            pos.play_unchecked(m);
        }
        self.position = pos;
        self.keys = keys;
        self.bad_position = None;
    }

    fn go(&mut self, line: &str) {
        if let Some(why) = &self.bad_position {
            say(
                &self.out,
                &format!("info string no position to search: {why}"),
            );
            say(&self.out, "bestmove 0000");
            return;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut limits = Limits {
            multipv: self.options.multipv,
            ..Limits::default()
        };
        let (mut wtime, mut btime, mut winc, mut binc, mut movestogo, mut movetime) =
            (None, None, 0, 0, None, None);
        let (mut infinite, mut ponder) = (false, false);
        let mut i = 1;
        let num = |i: usize| {
            words
                .get(i)
                .and_then(|w| w.parse::<i64>().ok())
                .map(|v| v.max(0) as u64)
        };
        while i < words.len() {
            match words[i] {
                "wtime" => wtime = num(i + 1),
                "btime" => btime = num(i + 1),
                "winc" => winc = num(i + 1).unwrap_or(0),
                "binc" => binc = num(i + 1).unwrap_or(0),
                "movestogo" => movestogo = num(i + 1),
                "movetime" => movetime = num(i + 1),
                "depth" => limits.depth = num(i + 1).map(|d| d.clamp(1, 100) as i32),
                "nodes" => limits.nodes = num(i + 1),
                "mate" => limits.mate = num(i + 1).map(|m| m.clamp(1, 100) as i32),
                "infinite" => infinite = true,
                "ponder" => ponder = true,
                "searchmoves" => {
                    let mut j = i + 1;
                    while let Some(m) = words.get(j).and_then(|w| self.position.parse_uci(w).ok()) {
                        limits.searchmoves.push(m);
                        j += 1;
                    }
                    i = j - 1;
                }
                _ => {}
            }
            i += 1;
        }
        let white = self.position.turn() == vizier_rules::Color::White;
        let (time, inc) = if white { (wtime, winc) } else { (btime, binc) };
        let (soft, hard) = match (movetime, time) {
            (Some(mt), _) => {
                let t = mt.saturating_sub(self.options.overhead_ms).max(1);
                (t, t)
            }
            (None, Some(t)) => timeman::allocate(
                timeman::TimeLeft {
                    time: t,
                    inc,
                    movestogo,
                },
                self.options.overhead_ms,
            ),
            _ => (0, 0),
        };
        let (out, castling, show_wdl) = (
            self.out.clone(),
            UciCastling::for_chess960(self.options.chess960),
            self.options.show_wdl,
        );
        let report = {
            let (out, pos) = (out.clone(), self.position.clone());
            move |r: &Report| {
                let nps = r.nodes * 1000 / r.time_ms.max(1);
                let wdl_text = if show_wdl {
                    let (w, d, l) = wdl(r.score);
                    format!(" wdl {w} {d} {l}")
                } else {
                    String::new()
                };
                say(
                    &out,
                    &format!(
                        "info depth {} seldepth {} multipv {} score {}{} nodes {} nps {} hashfull {} time {} pv {}",
                        r.depth,
                        r.seldepth,
                        r.multipv,
                        score_text(r.score),
                        wdl_text,
                        r.nodes,
                        nps,
                        r.hashfull,
                        r.time_ms,
                        pv_text(&pos, &r.pv, castling)
                    ),
                );
            }
        };
        let finish = move |pos: &Position, result: SearchResult| match result.best {
            Some(best) => {
                let mut line = format!("bestmove {}", pos.uci(best, castling));
                if let Some(p) = result.ponder {
                    let mut after = pos.clone();
                    after.play_unchecked(best);
                    if after.is_legal(p) {
                        line.push_str(&format!(" ponder {}", after.uci(p, castling)));
                    }
                }
                say(&out, &line);
            }
            None => say(&out, "bestmove 0000"),
        };
        let task = Task {
            pos: self.position.clone(),
            keys: self.keys.clone(),
            limits,
            time: (soft, hard),
            ponder,
            infinite,
        };
        self.running = Some(Search::start(
            &self.shared,
            &self.settings(),
            task,
            report,
            finish,
        ));
    }

    /// How the next search plays.
    fn settings(&self) -> Settings {
        Settings {
            threads: self.options.threads,
            level: self.options.effective_level(),
            seed: self.game_seed,
            network: self.options.use_nnue.then(|| self.options.network.clone()),
        }
    }

    fn ponderhit(&mut self) {
        if let Some(search) = &self.running {
            search.ponderhit(None);
        }
    }

    fn stop(&mut self) {
        if let Some(search) = self.running.take() {
            search.stop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testio::{Paced, Sink};

    /// Runs the engine on `input`, a GUI that waits for each search's `bestmove` before it
    /// sends `quit` (which stops any search at once).
    fn session(input: &str) -> String {
        let sink = Sink::default();
        let mut engine = Engine::new(Box::new(sink.clone()));
        let lines = input
            .lines()
            .map(|l| format!("{l}\n").into_bytes())
            .collect();
        engine.run(std::io::BufReader::new(Patient {
            lines,
            sink: sink.clone(),
            searches: 0,
        }));
        String::from_utf8(sink.0.lock().unwrap().clone()).unwrap()
    }

    /// Input a line at a time that holds back `quit` until every search has answered.
    struct Patient {
        lines: std::collections::VecDeque<Vec<u8>>,
        sink: Sink,
        searches: usize,
    }

    impl std::io::Read for Patient {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let Some(line) = self.lines.pop_front() else {
                return Ok(0);
            };
            if line.starts_with(b"go") {
                self.searches += 1;
            }
            if line.starts_with(b"quit") {
                let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
                while std::time::Instant::now() < deadline {
                    let out = String::from_utf8_lossy(&self.sink.0.lock().unwrap()).into_owned();
                    if out.matches("bestmove").count() >= self.searches {
                        break;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
            }
            if line.len() > buf.len() {
                // Longer than the reader's buffer: handed over in parts.
                let (now, later) = line.split_at(buf.len());
                buf.copy_from_slice(now);
                self.lines.push_front(later.to_vec());
                return Ok(buf.len());
            }
            buf[..line.len()].copy_from_slice(&line);
            Ok(line.len())
        }
    }

    #[test]
    fn the_neural_evaluation_is_an_option_and_a_bad_network_file_is_reported() {
        let out = session(
            "uci\nsetoption name EvalFile value /nonexistent/net.nnue\n\
             setoption name UseNNUE value true\nposition startpos\ngo depth 6\nisready\nquit\n",
        );
        assert!(out.contains("option name UseNNUE type check"), "{out}");
        assert!(
            out.contains("info string EvalFile /nonexistent/net.nnue: "),
            "{out}"
        );
        assert!(out.contains("bestmove "), "{out}");
        // The embedded network and the classical terms score the start differently.
        let score = |out: &str| {
            out.lines()
                .filter(|l| l.starts_with("info depth 1 "))
                .map(|l| {
                    l.split(" score cp ")
                        .nth(1)
                        .unwrap()
                        .split(' ')
                        .next()
                        .unwrap()
                        .to_string()
                })
                .next()
                .unwrap()
        };
        let classical = session(
            "uci\nsetoption name UseNNUE value false\nposition startpos\ngo depth 1\nisready\nquit\n",
        );
        assert_ne!(score(&out), score(&classical));
        let default = session("uci\nposition startpos\ngo depth 1\nisready\nquit\n");
        let expected = if crate::nnue::BY_DEFAULT {
            &out
        } else {
            &classical
        };
        assert_eq!(score(&default), score(expected));
    }

    #[test]
    fn go_infinite_answers_only_after_stop_even_when_the_search_is_over() {
        // A mate in one: the search ends by itself within milliseconds.
        let sink = Sink::default();
        let mut engine = Engine::new(Box::new(sink.clone()));
        let input = Paced(
            [
                (
                    0,
                    "uci\nposition fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\ngo infinite\n",
                ),
                (300, "isready\n"),
                (50, "stop\n"),
                (50, "quit\n"),
            ]
            .into(),
        );
        engine.run(std::io::BufReader::new(input));
        let out = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
        let ready = out.find("readyok").expect("readyok");
        let best = out.find("bestmove d1d8").expect("a bestmove");
        assert!(ready < best, "bestmove came before stop:\n{out}");
        // The same for pondering: the answer waits for ponderhit.
        let sink = Sink::default();
        let mut engine = Engine::new(Box::new(sink.clone()));
        let input = Paced(
            [
                (0, "uci\nposition fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\ngo ponder wtime 1000 btime 1000\n"),
                (300, "isready\n"),
                (50, "ponderhit\n"),
                (200, "quit\n"),
            ]
            .into(),
        );
        engine.run(std::io::BufReader::new(input));
        let out = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
        let ready = out.find("readyok").expect("readyok");
        let best = out.find("bestmove").expect("a bestmove");
        assert!(ready < best, "bestmove came before ponderhit:\n{out}");
    }

    #[test]
    fn a_refused_position_is_reported_and_nothing_is_searched() {
        for bad in [
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1",
            "position startpos moves e2e4 e7e4",
            "position somewhere",
        ] {
            let out = session(&format!(
                "uci\nposition startpos moves e2e4\n{bad}\ngo depth 3\nisready\nquit\n"
            ));
            assert!(out.contains("info string "), "{bad}: {out}");
            assert!(out.contains("bestmove 0000"), "{bad}: {out}");
            assert!(
                !out.contains("info depth"),
                "{bad}: the old game was searched: {out}"
            );
        }
        // A good position afterwards is searched again.
        let out = session("uci\nposition fen bad\nposition startpos\ngo depth 2\nisready\nquit\n");
        assert!(
            out.contains("info depth 2") && !out.contains("bestmove 0000"),
            "{out}"
        );
    }

    #[test]
    fn multipv_lines_come_best_first() {
        let out = session(
            "uci\nsetoption name MultiPV value 3\nposition startpos moves e2e4 e7e5\n\
             go depth 9\nisready\nquit\n",
        );
        for depth in 1..=9 {
            let scores: Vec<i32> = out
                .lines()
                .filter(|l| l.starts_with(&format!("info depth {depth} ")))
                .map(|l| {
                    let cp = l.split(" score cp ").nth(1).expect("a cp score");
                    cp.split(' ').next().unwrap().parse().unwrap()
                })
                .collect();
            assert_eq!(scores.len(), 3, "depth {depth}: {out}");
            assert!(
                scores.windows(2).all(|w| w[0] >= w[1]),
                "depth {depth}: {scores:?}"
            );
        }
    }

    #[test]
    fn a_mate_found_ends_the_iterations() {
        let out = session(
            "uci\nposition fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\ngo movetime 300\n\
             isready\nquit\n",
        );
        let deepest = out
            .lines()
            .filter_map(|l| l.strip_prefix("info depth "))
            .map(|l| l.split(' ').next().unwrap().parse::<i32>().unwrap())
            .max()
            .unwrap();
        assert!(deepest <= 10, "depth {deepest} for a mate in one:\n{out}");
        assert!(
            out.contains("score mate 1") && out.contains("bestmove d1d8"),
            "{out}"
        );
    }

    #[test]
    fn any_input_leaves_the_engine_working() {
        let junk = [
            "go depth x",
            "go wtime abc btime -5 movestogo 0",
            "go movetime -1",
            "go nodes 0",
            "setoption name Hash value -5",
            "setoption name Threads value 999999999999",
            "setoption name MultiPV value 0",
            "setoption name UCI_Elo value banana",
            "setoption name",
            "setoption",
            "position fen",
            "position startpos moves",
            "position startpos moves e2e4 e2e4",
            "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
            "position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1 moves e1g1 e8e7 h1h8",
            "ponderhit",
            "stop",
            "\u{0}\u{ff}é中",
            &"a".repeat(100_000),
        ];
        let mut input = String::from("uci\n");
        for line in junk {
            input.push_str(line);
            input.push('\n');
            input.push_str("stop\n");
        }
        input.push_str("setoption name Threads value 1\nsetoption name Hash value 16\n\
                        setoption name MultiPV value 1\nposition startpos\ngo depth 3\nisready\nquit\n");
        let out = session(&input);
        assert!(out.contains("readyok"), "{out}");
        let last = out.lines().rfind(|l| l.starts_with("bestmove")).unwrap();
        assert!(last != "bestmove 0000", "{out}");
    }
}
