#![no_main]
//! Any text: parsing never panics, and an accepted FEN writes back to one that reads the same.

use libfuzzer_sys::fuzz_target;
use vizier_rules::{CastlingNotation, Position};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(pos) = Position::from_fen(text) {
        for notation in [CastlingNotation::XFen, CastlingNotation::Shredder] {
            let again = Position::from_fen(&pos.fen_with(notation)).expect("own FEN reads back");
            assert_eq!(again.fen(), pos.fen());
        }
        let _ = pos.legal_moves();
        let _ = pos.outcome();
    }
});
