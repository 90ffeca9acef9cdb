#![no_main]
//! Any bytes as PGN: reading never panics, a stream cut into small reads reads exactly as the
//! whole text does, and every game read writes back to PGN that reads to the same game.

use std::io::Read;

use libfuzzer_sys::fuzz_target;
use vizier_rules::pgn;

/// A stream that gives at most `step` bytes per read.
struct Chunks<'a> {
    data: &'a [u8],
    step: usize,
}

impl Read for Chunks<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fuzz_target!(|data: &[u8]| {
    let whole: Vec<_> = pgn::Reader::new(data).collect();
    let step = 1 + data.first().map_or(0, |&b| b as usize % 7);
    let chunked: Vec<_> = pgn::Reader::new(Chunks { data, step }).collect();
    assert_eq!(whole, chunked, "read {step} bytes at a time");
    for game in whole.into_iter().flatten() {
        let text = pgn::write(&game);
        let again: Vec<_> = pgn::read_str(&text);
        assert_eq!(again.len(), 1, "{text}");
        let again = again.into_iter().next().unwrap().expect("own export reads back");
        assert_eq!(again.mainline, game.mainline, "{text}");
        assert_eq!(pgn::write(&again), text);
    }
});
