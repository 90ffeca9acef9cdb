#![no_main]
//! Any text as a message of the analysis socket: the board's answer (a position, a move, a PGN
//! read into a tree) never panics and never recurses past a bounded depth, and is one JSON
//! object with a `t`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Most inputs are not JSON; as the PGN of an import they reach the reader and the tree.
    for message in [
        text.to_string(),
        serde_json::json!({"t": "import", "id": 1, "pgn": text}).to_string(),
    ] {
        if let Some(reply) = vizier_server::http::board_reply(&message) {
            let value: serde_json::Value = serde_json::from_str(&reply).expect("a JSON reply");
            assert!(value["t"].is_string(), "{reply}");
        }
    }
});
