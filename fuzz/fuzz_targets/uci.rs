#![no_main]
//! A FEN line then a UCI move: parsing never panics, and a parsed move writes back the same.

use libfuzzer_sys::fuzz_target;
use vizier_rules::{Position, UciCastling};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (fen, uci) = text.split_once('\n').unwrap_or(("", text));
    let pos = Position::from_fen(fen).unwrap_or_default();
    if let Ok(m) = pos.parse_uci(uci) {
        for castling in [UciCastling::KingStep, UciCastling::KingTakesRook] {
            assert_eq!(pos.parse_uci(&pos.uci(m, castling)), Ok(m));
        }
    }
});
