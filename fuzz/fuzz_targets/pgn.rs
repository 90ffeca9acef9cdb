#![no_main]
//! Any bytes as PGN: reading never panics, and every game read writes back to PGN that reads
//! to the same game.

use libfuzzer_sys::fuzz_target;
use vizier_rules::pgn;

fuzz_target!(|data: &[u8]| {
    for game in pgn::Reader::new(data).flatten() {
        let text = pgn::write(&game);
        let again: Vec<_> = pgn::read_str(&text);
        assert_eq!(again.len(), 1, "{text}");
        let again = again.into_iter().next().unwrap().expect("own export reads back");
        assert_eq!(again.mainline, game.mainline, "{text}");
        assert_eq!(pgn::write(&again), text);
    }
});
