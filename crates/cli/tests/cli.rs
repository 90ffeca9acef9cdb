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

#[test]
fn match_adjudicates_by_both_engines_scores() {
    let pgn = std::env::temp_dir().join(format!("vizier-adjudicate-{}.pgn", std::process::id()));
    // From the first move on, any two scores within ±1000 each: every game is drawn at once.
    let (code, out, err) = vizier(&[
        "match",
        "vizier",
        "vizier",
        "--games",
        "2",
        "--tc",
        "nodes=2000",
        "--draw",
        "1,1,1000",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("+0 =2 -0"), "{out}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    let _ = std::fs::remove_file(&pgn);
    assert_eq!(
        text.matches("[Termination \"adjudication\"]").count(),
        2,
        "{text}"
    );
    assert_eq!(text.matches("[Result \"1/2-1/2\"]").count(), 2, "{text}");
    // White a queen and rook up: both engines agree after one move each, and Black loses.
    let epd = std::env::temp_dir().join(format!("vizier-adjudicate-{}.epd", std::process::id()));
    std::fs::write(&epd, "4k3/8/8/8/8/8/8/R2QK3 w - -\n").unwrap();
    let (code, out, err) = vizier(&[
        "match",
        "vizier",
        "vizier",
        "--games",
        "1",
        "--tc",
        "nodes=2000",
        "--resign",
        "1,600",
        "--openings",
        epd.to_str().unwrap(),
    ]);
    let _ = std::fs::remove_file(&epd);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("+1 =0 -0"), "{out}");
    let (code, _, err) = vizier(&["match", "vizier", "vizier", "--resign", "3"]);
    assert_eq!(code, 2);
    assert!(err.contains("--resign \"3\""), "{err}");
}

#[test]
fn an_engine_that_dies_forfeits_its_games() {
    let dir = std::env::temp_dir().join(format!("vizier-dies-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Answers the handshake, then exits when asked for a move.
    let script = "while read line; do case \"$line\" in \
        uci) echo 'id name dies'; echo uciok;; isready) echo readyok;; go*) exit 3;; esac; done";
    let engines = dir.join("engines.json");
    let spec = serde_json::json!({
        "dies": {"protocol": "uci", "command": ["sh", "-c", script]},
        "vizier": {"protocol": "uci", "command": [env!("CARGO_BIN_EXE_vizier"), "uci"]},
    });
    std::fs::write(&engines, spec.to_string()).unwrap();
    let (code, out, err) = vizier(&[
        "match",
        "vizier",
        "dies",
        "--engines",
        engines.to_str().unwrap(),
        "--games",
        "2",
        "--tc",
        "nodes=1000",
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("+2 =0 -0"), "{out}");
    assert!(err.contains("dies: the engine exited"), "{err}");
}

#[test]
fn chess960_is_announced_and_terminations_are_named_truthfully() {
    let dir = std::env::temp_dir().join(format!("vizier-960-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let heard = dir.join("heard.txt");
    // Writes down what it is told and answers every search with an illegal move.
    let script = format!(
        "while read line; do echo \"$line\" >> {}; case \"$line\" in \
         uci) echo 'id name cheat'; echo uciok;; isready) echo readyok;; \
         go*) echo 'bestmove a1a8';; quit) exit 0;; esac; done",
        heard.display()
    );
    let dies = "while read line; do case \"$line\" in \
        uci) echo 'id name dies'; echo uciok;; isready) echo readyok;; go*) exit 3;; esac; done";
    let engines = dir.join("engines.json");
    let spec = serde_json::json!({
        "cheat": {"protocol": "uci", "command": ["sh", "-c", script]},
        "dies": {"protocol": "uci", "command": ["sh", "-c", dies]},
    });
    std::fs::write(&engines, spec.to_string()).unwrap();
    let openings = dir.join("openings.epd");
    std::fs::write(
        &openings,
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\n",
    )
    .unwrap();
    let pgn = dir.join("games.pgn");
    let (code, _, err) = vizier(&[
        "match",
        "cheat",
        "dies",
        "--engines",
        engines.to_str().unwrap(),
        "--openings",
        openings.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
        "--games",
        "2",
        "--tc",
        "nodes=1000",
    ]);
    let told = std::fs::read_to_string(&heard).unwrap_or_default();
    let games = std::fs::read_to_string(&pgn).unwrap_or_default();
    // A control of so many moves in a time: the engine hears how many are left.
    let _ = std::fs::remove_file(&heard);
    let (periods, _, perr) = vizier(&[
        "match",
        "cheat",
        "dies",
        "--engines",
        engines.to_str().unwrap(),
        "--games",
        "1",
        "--tc",
        "40/60+1",
    ]);
    let told_periods = std::fs::read_to_string(&heard).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(periods, 0, "{perr}");
    assert!(
        told_periods.contains("go wtime 60000 btime 60000 winc 1000 binc 1000 movestogo 40"),
        "{told_periods}"
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        told.contains("setoption name UCI_Chess960 value true"),
        "{told}"
    );
    // White moves first in each game: the cheat's illegal move, then the dying engine's exit.
    assert!(
        games.contains("[Termination \"rules infraction\"]"),
        "{games}"
    );
    assert!(games.contains("[Termination \"abandoned\"]"), "{games}");
    assert!(!games.contains("time forfeit"), "{games}");
}

#[test]
fn a_missing_input_file_is_named_and_fails() {
    let missing = std::env::temp_dir().join(format!("vizier-missing-{}", std::process::id()));
    let missing = missing.to_str().unwrap();
    let out = format!("{missing}.nnue");
    for args in [
        vec!["train", missing, "--out", &out],
        vec!["tune", missing],
        vec!["pgn", missing],
    ] {
        let (code, _, err) = vizier(&args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(err.contains(missing), "{args:?}: {err}");
    }
    assert!(!std::path::Path::new(&out).exists());
}

/// Runs `vizier args` with `input` on its standard input: exit code, stdout, stderr.
fn vizier_with_input(args: &[&str], input: &str) -> (i32, String, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_vizier"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("vizier runs");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn dead_labels_each_position_and_names_bad_lines() {
    let input = "2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - -\n\
                 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n\
                 \n\
                 not a fen\n\
                 Rk6/8/2K5/8/8/8/8/8 b - -\n\
                 8/8/8/8/8/5k2/q7/7K b - -\n";
    let (code, stdout, stderr) = vizier_with_input(&["dead", "--limit", "50000"], input);
    assert_eq!(
        stdout,
        "-- 2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - -\n\
         WB rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n\
         -- Rk6/8/2K5/8/8/8/8/8 b - -\n\
         -B 8/8/8/8/8/5k2/q7/7K b - -\n"
    );
    assert!(stderr.contains("line 4: bad FEN"), "{stderr}");
    assert_eq!(code, 1);
}

#[test]
fn dead_quick_proves_cannot_and_leaves_the_rest_open() {
    // Locked pawns; a forced capture; the start (both can, no search to show it); a mate on
    // the board (Black mated by the queen, protected by the king).
    let input = "2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - -\n\
                 Rk6/8/2K5/8/8/8/8/8 b - -\n\
                 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n\
                 k7/1Q6/2K5/8/8/8/8/8 b - -\n";
    let (code, stdout, stderr) = vizier_with_input(&["dead", "--quick", "--stats"], input);
    assert_eq!(
        stdout,
        "-- 2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - -\n\
         -- Rk6/8/2K5/8/8/8/8/8 b - -\n\
         ?? rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n\
         W- k7/1Q6/2K5/8/8/8/8/8 b - -\n"
    );
    assert!(
        stderr.contains("4 positions, 2 answers undecided"),
        "{stderr}"
    );
    assert_eq!(code, 0);
}

/// Runs `vizier args` with its standard output read for one line and then closed, as
/// `vizier … | head -1` does; returns the exit code and standard error.
fn first_line_only(args: &[&str]) -> (i32, String) {
    use std::io::{BufRead, BufReader, Read};
    let mut child = Command::new(env!("CARGO_BIN_EXE_vizier"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("vizier runs");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The reader is gone: the rest of the output meets a closed pipe.
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(!first.is_empty());
    (status.code().unwrap_or(-1), err)
}

#[test]
fn a_closed_pipe_ends_a_command_quietly() {
    for args in [&["perft", "3", "--divide"][..], &["bench", "2"][..]] {
        let (code, err) = first_line_only(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn settings_that_do_nothing_are_refused() {
    for args in [
        &["bench", "0"][..],
        &["match", "vizier", "vizier", "--games", "0"][..],
        &["match", "vizier", "vizier", "--tc", "0+0"][..],
        &["match", "vizier", "vizier", "--tc", "nodes=0"][..],
        &["match", "vizier", "vizier", "--tc", "movetime=0"][..],
    ] {
        let (code, _, err) = vizier(args);
        assert_ne!(code, 0, "{args:?} accepted");
        assert!(!err.is_empty(), "{args:?}: no reason given");
    }
}

#[test]
fn pgn_reads_latin1_and_warns_of_a_result_tag_the_moves_contradict() {
    let path = std::env::temp_dir().join(format!("vizier-latin1-{}.pgn", std::process::id()));
    // "Réti" in Latin-1, a Result tag that disagrees, and a FEN without SetUp.
    std::fs::write(
        &path,
        b"[White \"R\xe9ti\"]\n[Result \"1-0\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O 0-1\n",
    )
    .unwrap();
    let (code, out, err) = vizier(&["pgn", path.to_str().unwrap()]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("[White \"Réti\"]"), "{out}");
    assert!(out.contains("[SetUp \"1\"]\n[FEN "), "{out}");
    assert!(out.contains("[Result \"0-1\"]"), "{out}");
    assert!(err.contains("the Result tag says \"1-0\""), "{err}");
}

#[test]
fn match_obeys_a_cecp_engines_features() {
    let dir = std::env::temp_dir().join(format!("vizier-cecp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let heard = dir.join("heard.txt");
    // A protocol-2 engine without setboard that wants `usermove`, and takes its time to be
    // ready (done=0 first). As Black it plays a6, b6, c6, ... and writes down what it hears.
    let script = format!(
        "n=0; while read line; do echo \"$line\" >> {heard}; case \"$line\" in \
         'protover 2') echo 'feature setboard=0 usermove=1 myname=\"scripted\" done=0'; \
                       sleep 1; echo 'feature done=1';; \
         go) n=$((n+1)); f=$(echo abcdefgh | cut -c$n); echo \"move ${{f}}7${{f}}6\";; \
         quit) exit 0;; esac; done",
        heard = heard.display()
    );
    let engines = dir.join("engines.json");
    let spec = serde_json::json!({
        "scripted": {"protocol": "xboard", "command": ["sh", "-c", script]},
        "vizier": {"protocol": "uci", "command": [env!("CARGO_BIN_EXE_vizier"), "uci"]},
    });
    std::fs::write(&engines, spec.to_string()).unwrap();
    let pgn = dir.join("games.pgn");
    // One game against the scripted engine, with `more` options.
    let one_game = |more: &[&str]| {
        let engines = engines.to_str().unwrap();
        let mut args = vec!["match", "vizier", "scripted", "--engines", engines];
        args.extend(["--games", "1", "--tc", "movetime=200"]);
        args.extend(more);
        vizier(&args)
    };
    let (code, _, err) = one_game(&["--pgn", pgn.to_str().unwrap()]);
    let told = std::fs::read_to_string(&heard).unwrap_or_default();
    let games = std::fs::read_to_string(&pgn).unwrap_or_default();
    // Without setboard a Chess960 start cannot be set up: the match says so and stops.
    let openings = dir.join("openings.epd");
    std::fs::write(
        &openings,
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\n",
    )
    .unwrap();
    let (refused, _, why) = one_game(&["--openings", openings.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 0, "{err}");
    assert!(told.contains("accepted usermove"), "{told}");
    assert!(told.contains("usermove "), "{told}");
    assert!(!told.lines().any(|l| l.starts_with("setboard")), "{told}");
    // A 200 ms move time, not `st 1`.
    assert!(
        told.contains("level 1 1 0") && told.contains("time 20"),
        "{told}"
    );
    assert!(!told.lines().any(|l| l.starts_with("st ")), "{told}");
    // The engine's moves arrive as it sent them (its first move varies with the search).
    assert!(
        games.contains(" a6 2. ") && games.contains(" b6 3. "),
        "{games}"
    );
    assert_ne!(refused, 0);
    assert!(why.contains("declares no setboard"), "{why}");
}

#[test]
fn results_come_as_json_on_request() {
    let json = |args: &[&str]| -> serde_json::Value {
        let (code, out, err) = vizier(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
    };
    let perft = json(&["perft", "3", "--divide", "--json"]);
    assert_eq!(perft["nodes"], 8902);
    assert_eq!(perft["divide"]["e2e4"], 600);
    let bench = json(&["bench", "2", "--json"]);
    assert!(bench["nodes"].as_u64().unwrap() > 0);
    let path = std::env::temp_dir().join(format!("vizier-json-{}.pgn", std::process::id()));
    std::fs::write(&path, "1. e4 e5 *\n\n1. d4 d5 2. c4 *\n").unwrap();
    let stats = json(&["pgn", "--stats", "--json", path.to_str().unwrap()]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(
        (stats["games"].as_u64(), stats["moves"].as_u64()),
        (Some(2), Some(5))
    );
    let played = json(&[
        "match",
        "vizier",
        "vizier",
        "--games",
        "2",
        "--tc",
        "nodes=300",
        "--json",
    ]);
    assert_eq!(played["games"], 2);
    let (w, d, l) = (
        played["wins"].as_u64().unwrap(),
        played["draws"].as_u64().unwrap(),
        played["losses"].as_u64().unwrap(),
    );
    assert_eq!(w + d + l, 2, "{played}");
}

#[test]
fn uci_answers_a_host_that_speaks_cecp_in_kind() {
    let (_, out, _) = vizier_with_input(&["uci"], "xboard\nprotover 2\nping 4\nquit\n");
    assert!(
        out.contains("feature done=1") && out.contains("pong 4"),
        "{out}"
    );
    assert!(!out.contains("uciok"), "{out}");
    let (_, out, _) = vizier_with_input(&["uci"], "uci\nisready\nquit\n");
    assert!(out.contains("uciok") && out.contains("readyok"), "{out}");
    let (code, out, _) = vizier_with_input(&["xboard"], "xboard\nprotover 2\nnew\nsd 2\ngo\n");
    assert_eq!(code, 0);
    assert!(out.lines().any(|l| l.starts_with("move ")), "{out}");
}

#[test]
fn a_plain_network_grows_into_king_buckets_and_the_engine_plays_with_it() {
    let dir = std::env::temp_dir().join(format!("vizier-grow-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (data, wide, back) = (dir.join("d.txt"), dir.join("w.nnue"), dir.join("p.nnue"));
    let path = |p: &std::path::Path| p.to_str().unwrap().to_string();
    let (code, _, err) = vizier(&["datagen", &path(&data), "--games", "24", "--nodes", "300"]);
    assert_eq!(code, 0, "{err}");
    let embedded = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../engine/src/nnue/vizier.nnue"
    );
    let train = |init: &str, shape: &str, out: &std::path::Path| {
        vizier(&[
            "train",
            &path(&data),
            "--epochs",
            "1",
            "--batch",
            "64",
            "--init",
            init,
            "--shape",
            shape,
            "--out",
            &path(out),
        ])
    };
    let (code, out, err) = train(embedded, "king-buckets", &wide);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("KingBuckets"), "{out}");
    let (code, _, err) = train(&path(&wide), "plain", &back);
    assert_eq!(code, 1);
    assert!(err.contains("cannot grow"), "{err}");
    assert!(!back.exists());
    let (code, out, err) = vizier_with_input(
        &["uci"],
        &format!(
            "uci\nsetoption name EvalFile value {}\nisready\nposition startpos\ngo nodes 2000\n",
            path(&wide)
        ),
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("info string EvalFile"), "{out}");
    assert!(out.contains("bestmove "), "{out}");
}
