//! An engine in a child process, spoken to in UCI or CECP (xboard): lines in, lines out, with
//! timeouts.

use super::error::EngineError;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How an engine is started (the `engines.json` format of shared/tools).
#[derive(Clone, Debug, serde::Deserialize)]
pub struct Spec {
    /// "uci" or "xboard" (CECP).
    #[serde(default = "uci")]
    pub protocol: String,
    /// Program and arguments.
    pub command: Vec<String>,
    /// UCI options to set.
    #[serde(default)]
    pub options: serde_json::Map<String, serde_json::Value>,
}

fn uci() -> String {
    "uci".into()
}

/// What to search, in protocol-neutral terms.
#[derive(Clone, Copy, Debug)]
pub enum Go {
    /// Clock times (ms) for the side to move and the opponent, the increment, and the base
    /// time of the control (CECP needs it for `level`).
    Clock {
        white_ms: u64,
        black_ms: u64,
        inc_ms: u64,
        base_ms: u64,
        white_to_move: bool,
        /// Moves a period, for controls like 40/60 (CECP's `level`).
        period: Option<u32>,
        /// Moves left in the current period (UCI's `movestogo`).
        moves_to_go: Option<u32>,
    },
    /// A fixed time per move.
    MoveTime(u64),
    /// A fixed number of nodes (UCI only).
    Nodes(u64),
}

/// An engine's move and what it thought of the position.
pub struct Reply {
    /// The move as the engine wrote it.
    pub mv: String,
    /// Its last exact score from its own side, in centipawns; a mate in n is
    /// ±(`MATE_SCORE` − n).
    pub score: Option<i32>,
}

/// How a mate is scored in [`Reply::score`].
pub const MATE_SCORE: i32 = 100_000;

/// The score of a UCI `info` line: `score cp N` or `score mate N`; `None` when the line has
/// none or gives only a bound.
pub fn info_score(line: &str) -> Option<i32> {
    let mut words = line.split_whitespace();
    words.by_ref().find(|w| *w == "score")?;
    let (kind, value) = (words.next()?, words.next()?.parse::<i32>().ok()?);
    if matches!(words.next(), Some("lowerbound" | "upperbound")) {
        return None;
    }
    match kind {
        "cp" => Some(value),
        "mate" if value > 0 => Some(MATE_SCORE - value),
        "mate" => Some(-MATE_SCORE - value),
        _ => None,
    }
}

/// An option value as engines expect it: strings bare, numbers and booleans as JSON writes them.
fn option_text(v: &serde_json::Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

/// What a CECP engine declared with `feature` (protocol 2); where it said nothing, the
/// protocol's defaults: no `setboard`, moves bare and in coordinates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// It reads positions with `setboard FEN` (else only the start, after `new`).
    pub setboard: bool,
    /// It wants moves as `usermove e2e4`.
    pub usermove: bool,
    /// It wants moves in SAN.
    pub san: bool,
}

impl Features {
    /// Reads one `feature` line into `self`; returns the names it declared and whether it
    /// said `done=1` (`Some(true)`) or `done=0` (`Some(false)`).
    pub fn read(&mut self, line: &str) -> (Vec<String>, Option<bool>) {
        let mut names = Vec::new();
        let mut done = None;
        let mut rest = line.strip_prefix("feature").unwrap_or("").trim_start();
        while let Some(eq) = rest.find('=') {
            let name = rest[..eq].trim().to_string();
            let after = &rest[eq + 1..];
            let (value, next) = match after.strip_prefix('"') {
                Some(quoted) => match quoted.find('"') {
                    Some(end) => (&quoted[..end], &quoted[end + 1..]),
                    None => (quoted, ""),
                },
                None => match after.find(char::is_whitespace) {
                    Some(end) => (&after[..end], &after[end..]),
                    None => (after, ""),
                },
            };
            let on = value == "1";
            match name.as_str() {
                "setboard" => self.setboard = on,
                "usermove" => self.usermove = on,
                "san" => self.san = on,
                "done" => done = Some(on),
                _ => {}
            }
            names.push(name);
            rest = next.trim_start();
        }
        (names, done)
    }
}

/// A running engine.
pub struct Engine {
    xboard: bool,
    /// CECP engines only.
    features: Features,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The name the engine gave, or the spec's.
    pub name: String,
    /// Exited, stopped reading, or missed a deadline: no longer to be trusted with a game.
    broken: bool,
}

impl Engine {
    /// Starts the engine and completes the UCI handshake, setting its options.
    pub fn start(name: &str, spec: &Spec) -> Result<Engine, EngineError> {
        let xboard = match spec.protocol.as_str() {
            "uci" => false,
            "xboard" | "cecp" => true,
            other => {
                return Err(EngineError::UnknownProtocol {
                    engine: name.into(),
                    protocol: other.into(),
                });
            }
        };
        let (program, args) =
            spec.command
                .split_first()
                .ok_or_else(|| EngineError::EmptyCommand {
                    engine: name.into(),
                })?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| EngineError::Start {
                engine: name.into(),
                program: program.clone(),
                source,
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            unreachable!("both pipes were asked for")
        };
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            xboard,
            features: Features::default(),
            child,
            stdin,
            lines: rx,
            name: name.to_string(),
            broken: false,
        };
        if xboard {
            engine.send("xboard")?;
            engine.send("protover 2")?;
            // Engines that predate protocol 2 never say done=1: five quiet seconds are enough.
            // One that says done=0 is given a minute to say done=1.
            let mut deadline = Instant::now() + Duration::from_secs(5);
            while let Ok(line) = engine
                .lines
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                if !line.starts_with("feature") {
                    continue;
                }
                let (names, done) = engine.features.read(&line);
                for name in names {
                    engine.send(&format!("accepted {name}"))?;
                }
                match done {
                    Some(true) => break,
                    Some(false) => deadline = Instant::now() + Duration::from_secs(60),
                    None => {}
                }
            }
            for (k, v) in &spec.options {
                engine.send(&format!("option {k}={}", option_text(v)))?;
            }
            engine.send("easy")?; // no pondering
            return Ok(engine);
        }
        engine.send("uci")?;
        engine.wait_for("uciok", Duration::from_secs(10))?;
        for (k, v) in &spec.options {
            engine.send(&format!("setoption name {k} value {}", option_text(v)))?;
        }
        engine.send("isready")?;
        engine.wait_for("readyok", Duration::from_secs(10))?;
        Ok(engine)
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let sent = writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush());
        self.broken |= sent.is_err();
        sent.map_err(|source| EngineError::Send {
            engine: self.name.clone(),
            source,
        })
    }

    /// Whether the engine exited, stopped reading or missed a deadline (then it should be
    /// started afresh before its next game).
    pub fn is_broken(&self) -> bool {
        self.broken
    }

    /// Waits for a line starting with `prefix`; returns it.
    pub fn wait_for(&mut self, prefix: &str, timeout: Duration) -> Result<String, EngineError> {
        self.wait_for_scored(prefix, timeout).map(|(line, _)| line)
    }

    /// Waits for a line starting with `prefix`; returns it and the last exact score of the
    /// UCI `info` lines before it.
    fn wait_for_scored(
        &mut self,
        prefix: &str,
        timeout: Duration,
    ) -> Result<(String, Option<i32>), EngineError> {
        let deadline = Instant::now() + timeout;
        let mut score = None;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.starts_with(prefix) => return Ok((line, score)),
                Ok(line) if line.starts_with("info ") => score = info_score(&line).or(score),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    self.broken = true;
                    return Err(EngineError::Timeout {
                        engine: self.name.clone(),
                        awaited: prefix.into(),
                    });
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.broken = true;
                    return Err(EngineError::Exited {
                        engine: self.name.clone(),
                    });
                }
            }
        }
    }

    /// Prepares for a new game, telling the engine whether it is Chess960 (UCI_Chess960, or
    /// CECP's variant): otherwise it reads castling as the king's two-square step.
    pub fn new_game(&mut self, chess960: bool) -> Result<(), EngineError> {
        if self.xboard {
            self.send("new")?;
            if chess960 {
                self.send("variant fischerandom")?;
            }
            Ok(())
        } else {
            self.send(&format!("setoption name UCI_Chess960 value {chess960}"))?;
            self.send("ucinewgame")
        }
    }

    /// Asks for a move in the position after `moves` (each in UCI and in SAN) from `fen`;
    /// returns the engine's move text (coordinate or SAN) and, from UCI engines, its score.
    pub fn best_move(
        &mut self,
        fen: &str,
        moves: &[(&str, &str)],
        go: Go,
        timeout: Duration,
    ) -> Result<Reply, EngineError> {
        if self.xboard {
            let mv = self.best_move_xboard(fen, moves, go, timeout)?;
            return Ok(Reply { mv, score: None });
        }
        if moves.is_empty() {
            self.send(&format!("position fen {fen}"))?;
        } else {
            let uci: Vec<&str> = moves.iter().map(|(uci, _)| *uci).collect();
            self.send(&format!("position fen {fen} moves {}", uci.join(" ")))?;
        }
        self.send(&match go {
            Go::Clock {
                white_ms,
                black_ms,
                inc_ms,
                moves_to_go,
                ..
            } => {
                let mut go =
                    format!("go wtime {white_ms} btime {black_ms} winc {inc_ms} binc {inc_ms}");
                if let Some(n) = moves_to_go {
                    go.push_str(&format!(" movestogo {n}"));
                }
                go
            }
            Go::MoveTime(ms) => format!("go movetime {ms}"),
            Go::Nodes(n) => format!("go nodes {n}"),
        })?;
        let (line, score) = self.wait_for_scored("bestmove", timeout)?;
        let mv = line
            .split_whitespace()
            .nth(1)
            .map(str::to_string)
            .ok_or_else(|| EngineError::EmptyMove {
                engine: self.name.clone(),
            })?;
        Ok(Reply { mv, score })
    }

    fn best_move_xboard(
        &mut self,
        fen: &str,
        moves: &[(&str, &str)],
        go: Go,
        timeout: Duration,
    ) -> Result<String, EngineError> {
        // Rebuild the game in force mode, set the clocks, let the engine move, stop it again.
        // Without setboard only the standard start can be set up (by `new`).
        if self.features.setboard {
            self.send("force")?;
            self.send(&format!("setboard {fen}"))?;
        } else if fen == vizier_rules::Position::new().fen() {
            self.send("new")?;
            self.send("force")?;
        } else {
            return Err(EngineError::NoSetboard {
                engine: self.name.clone(),
            });
        }
        for (uci, san) in moves {
            let mv = if self.features.san { san } else { uci };
            if self.features.usermove {
                self.send(&format!("usermove {mv}"))?;
            } else {
                self.send(mv)?;
            }
        }
        match go {
            Go::Clock {
                white_ms,
                black_ms,
                inc_ms,
                base_ms,
                white_to_move,
                period,
                ..
            } => {
                let base_s = base_ms / 1000;
                self.send(&format!(
                    "level {} {}:{:02} {}",
                    period.unwrap_or(0),
                    base_s / 60,
                    base_s % 60,
                    inc_ms as f64 / 1000.0
                ))?;
                let (mine, theirs) = if white_to_move {
                    (white_ms, black_ms)
                } else {
                    (black_ms, white_ms)
                };
                self.send(&format!("time {}", mine / 10))?;
                self.send(&format!("otim {}", theirs / 10))?;
            }
            // `st` counts whole seconds: a move time is given as one move a period, with the
            // time on the clocks (in centiseconds).
            Go::MoveTime(ms) => {
                self.send("level 1 1 0")?;
                self.send(&format!("time {}", (ms / 10).max(1)))?;
                self.send(&format!("otim {}", (ms / 10).max(1)))?;
            }
            Go::Nodes(_) => {
                return Err(EngineError::NoNodeLimit {
                    engine: self.name.clone(),
                });
            }
        }
        self.send("go")?;
        let line = self.wait_for("move ", timeout)?;
        self.send("force")?;
        line.split_whitespace()
            .nth(1)
            .map(str::to_string)
            .ok_or_else(|| EngineError::EmptyMove {
                engine: self.name.clone(),
            })
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
