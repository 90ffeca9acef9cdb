#![no_main]
//! Any text as a message of the analysis socket: the board's answer (a position, a move, a PGN
//! read into a tree) never panics and never recurses past a bounded depth, and is one JSON
//! object with a `t`.

use libfuzzer_sys::fuzz_target;
use serde::Deserialize;

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
            // An imported tree nests as deep as its game is long (5,000 moves at most): past
            // serde_json's default limit of 128, which a client reading it must lift.
            let mut reader = serde_json::Deserializer::from_str(&reply);
            reader.disable_recursion_limit();
            let value = serde_json::Value::deserialize(&mut reader).expect("a JSON reply");
            assert!(value["t"].is_string(), "{reply}");
        }
    }
});
