//! The `vizier` binary end to end.

use std::process::Command;

fn vizier(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_vizier"))
        .args(args)
        .output()
        .expect("vizier runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn perft_prints_the_stockfish_last_line() {
    let (code, out, _) = vizier(&["perft", "4", "--divide"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().last(), Some("Nodes searched: 197281"));
    assert_eq!(
        out.lines()
            .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
            .count(),
        20
    );
    let (code, _, err) = vizier(&["perft", "1", "--fen", "not a fen"]);
    assert_eq!(code, 2);
    assert!(err.contains("bad FEN"), "{err}");
}

#[test]
fn match_plays_paired_games_and_reports() {
    let pgn = std::env::temp_dir().join(format!("vizier-match-{}.pgn", std::process::id()));
    let (code, out, err) = vizier(&[
        "match",
        "vizier",
        "vizier",
        "--games",
        "2",
        "--tc",
        "nodes=3000",
        "--pgn",
        pgn.to_str().unwrap(),
        "--sprt",
        "0,10,0.05,0.05",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("vizier vs vizier: 2 games"), "{out}");
    assert!(out.contains("SPRT [0, 10]"), "{out}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    let _ = std::fs::remove_file(&pgn);
    assert_eq!(text.matches("[Event \"vizier match\"]").count(), 2);
    let (code, _, err) = vizier(&["match", "vizier", "nobody"]);
    assert_eq!(code, 2);
    assert!(err.contains("no engine \"nobody\""), "{err}");
}
