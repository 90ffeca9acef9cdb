//! Test doubles for the text protocols: output collected in memory, and input that arrives
//! as a GUI sends it.

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Output collected from an engine.
#[derive(Clone, Default)]
pub struct Sink(pub Arc<Mutex<Vec<u8>>>);

impl Sink {
    /// Everything written so far.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Input that arrives in parts, each after a pause, as a GUI types it.
pub struct Paced(pub VecDeque<(u64, &'static str)>);

impl Read for Paced {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let Some((pause, text)) = self.0.pop_front() else {
            return Ok(0);
        };
        std::thread::sleep(Duration::from_millis(pause));
        buf[..text.len()].copy_from_slice(text.as_bytes());
        Ok(text.len())
    }
}

/// Input a line at a time, where a line `<await TEXT>` holds back the rest until the output
/// holds TEXT once more than it did when the previous line was sent (a GUI waiting for the
/// engine's move, say), and `<sleep MS>` pauses.
pub struct Script {
    lines: VecDeque<String>,
    sink: Sink,
    seen: String,
    /// The rest of a line longer than the reader's buffer.
    pending: Vec<u8>,
}

impl Script {
    pub fn new(script: &str, sink: &Sink) -> Script {
        Script {
            lines: script.lines().map(str::to_string).collect(),
            sink: sink.clone(),
            seen: String::new(),
            pending: Vec::new(),
        }
    }
}

impl Read for Script {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.pending.is_empty() {
            let Some(line) = self.lines.pop_front() else {
                return Ok(0);
            };
            if let Some(ms) = line
                .strip_prefix("<sleep ")
                .and_then(|l| l.strip_suffix('>'))
            {
                std::thread::sleep(Duration::from_millis(ms.parse().unwrap()));
                continue;
            }
            if let Some(text) = line
                .strip_prefix("<await ")
                .and_then(|l| l.strip_suffix('>'))
            {
                let before = self.seen.matches(text).count();
                let deadline = Instant::now() + Duration::from_secs(60);
                while self.sink.text().matches(text).count() <= before {
                    assert!(
                        Instant::now() < deadline,
                        "no {text:?} in:\n{}",
                        self.sink.text()
                    );
                    std::thread::sleep(Duration::from_millis(2));
                }
                continue;
            }
            self.seen = self.sink.text();
            self.pending = format!("{line}\n").into_bytes();
        }
        let n = self.pending.len().min(buf.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}
