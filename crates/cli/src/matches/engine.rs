//! A UCI engine in a child process: lines in, lines out, with timeouts.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How an engine is started (the `engines.json` format of shared/tools).
#[derive(Clone, Debug, serde::Deserialize)]
pub struct Spec {
    /// "uci" (CECP/xboard is not supported yet).
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

/// A running engine.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The name the engine gave, or the spec's.
    pub name: String,
}

impl Engine {
    /// Starts the engine and completes the UCI handshake, setting its options.
    pub fn start(name: &str, spec: &Spec) -> Result<Engine, String> {
        if spec.protocol != "uci" {
            return Err(format!(
                "{name}: protocol {} is not supported yet (only uci)",
                spec.protocol
            ));
        }
        let (program, args) = spec
            .command
            .split_first()
            .ok_or(format!("{name}: empty command"))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("{name}: cannot start {program}: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
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
            child,
            stdin,
            lines: rx,
            name: name.to_string(),
        };
        engine.send("uci")?;
        engine.wait_for("uciok", Duration::from_secs(10))?;
        for (k, v) in &spec.options {
            let value = match v {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            engine.send(&format!("setoption name {k} value {value}"))?;
        }
        engine.send("isready")?;
        engine.wait_for("readyok", Duration::from_secs(10))?;
        Ok(engine)
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("{}: {e}", self.name))
    }

    /// Waits for a line starting with `prefix`; returns it.
    pub fn wait_for(&mut self, prefix: &str, timeout: Duration) -> Result<String, String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.starts_with(prefix) => return Ok(line),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("{}: no '{prefix}' in time", self.name));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("{}: the engine exited", self.name));
                }
            }
        }
    }

    /// Asks for a move; returns the UCI text of `bestmove`.
    pub fn best_move(
        &mut self,
        position: &str,
        go: &str,
        timeout: Duration,
    ) -> Result<String, String> {
        self.send(position)?;
        self.send(go)?;
        let line = self.wait_for("bestmove", timeout)?;
        line.split_whitespace()
            .nth(1)
            .map(str::to_string)
            .ok_or(format!("{}: empty bestmove", self.name))
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
