#![no_main]
//! A FEN line then a SAN line: parsing never panics, and a parsed move writes back to SAN that
//! parses strictly to the same move.

use libfuzzer_sys::fuzz_target;
use vizier_rules::Position;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (fen, san) = text.split_once('\n').unwrap_or(("", text));
    let pos = Position::from_fen(fen).unwrap_or_default();
    for parsed in [pos.parse_san(san), pos.parse_san_lenient(san)] {
        if let Ok(m) = parsed {
            assert_eq!(pos.parse_san(&pos.san(m)), Ok(m));
        }
    }
});
