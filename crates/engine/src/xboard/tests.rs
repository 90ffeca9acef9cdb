use super::*;
use crate::testio::{Script, Sink};

/// Runs the engine on a script (see [`Script`]) and returns its output.
fn session(script: &str) -> String {
    let sink = Sink::default();
    let engine = Engine::new(Box::new(sink.clone()));
    engine.run(std::io::BufReader::new(Script::new(script, &sink)));
    sink.text()
}

/// The moves the engine played, in order.
fn moves(out: &str) -> Vec<&str> {
    out.lines()
        .filter_map(|l| l.strip_prefix("move "))
        .collect()
}

/// Plays `played` (CECP text, as sent and received) from `fen` and fails on an illegal one.
fn replay(fen: &str, played: &[&str]) -> Position {
    let mut pos = Position::from_fen(fen).unwrap();
    for text in played {
        let m = pos
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{text} in {}: {e}", pos.fen()));
        pos.play_unchecked(m);
    }
    pos
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn protover_2_declares_the_features_hosts_rely_on() {
    let out = session("xboard\nprotover 2\nquit\n");
    let features: Vec<&str> = out.lines().filter(|l| l.starts_with("feature")).collect();
    assert_eq!(features.first(), Some(&"feature done=0"), "{out}");
    assert_eq!(features.last(), Some(&"feature done=1"), "{out}");
    for f in [
        "ping=1",
        "setboard=1",
        "usermove=1",
        "san=0",
        "colors=0",
        "sigint=0",
        "analyze=1",
        "variants=\"normal,fischerandom\"",
        "myname=\"Vizier",
        "memory=1",
        "smp=1",
        "option=\"Level -spin",
    ] {
        assert!(out.contains(f), "{f} missing:\n{out}");
    }
}

#[test]
fn the_engine_plays_black_after_new_and_either_side_after_go() {
    let out = session(
        "xboard\nprotover 2\nnew\nsd 3\nusermove e2e4\n<await move >\n\
         usermove d2d4\n<await move >\nforce\nusermove a2a3\ngo\n<await move >\nquit\n",
    );
    let played = moves(&out);
    assert_eq!(played.len(), 3, "{out}");
    // e4, reply, d4, reply, a3 by White in force mode, then the engine's move as White.
    let pos = replay(START, &["e2e4", played[0], "d2d4", played[1], "a2a3"]);
    assert_eq!(pos.turn(), Color::Black);
    replay(&pos.fen(), &[played[2]]);
}

#[test]
fn a_ping_while_thinking_is_answered_after_the_move() {
    let out = session("xboard\nprotover 2\nnew\nst 0.3\ngo\nping 7\n<await pong 7>\nquit\n");
    let mv = out.find("\nmove ").expect("a move");
    let pong = out.find("pong 7").expect("a pong");
    assert!(mv < pong, "{out}");
    // Idle, it is answered at once.
    let out = session("xboard\nforce\nping 3\n<await pong 3>\nquit\n");
    assert!(out.contains("pong 3"), "{out}");
}

#[test]
fn move_now_answers_at_once() {
    let started = std::time::Instant::now();
    let out = session(
        "xboard\nprotover 2\nnew\nlevel 0 600 0\ntime 60000\notim 60000\ngo\n<sleep 300>\n?\n\
         <await move >\nquit\n",
    );
    assert_eq!(moves(&out).len(), 1, "{out}");
    assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
}

#[test]
fn wrong_input_is_answered_and_changes_nothing() {
    let out = session(
        "xboard\nprotover 2\nnew\nforce\nusermove e2e5\nfrobnicate\nlevel 40 banana 0\n\
         memory 0\nvariant crazyhouse\nundo\nsetboard 8/8/8/8/8/8/8/8 w - - 0 1\ngo\n\
         usermove e2e4\nsetboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n\
         sd 2\ngo\nping 9\n<await pong 9>\nquit\n",
    );
    for expected in [
        "Illegal move: e2e5",
        "Error (unknown command): frobnicate",
        "Error (bad arguments): level 40 banana 0",
        "Error (bad arguments): memory 0",
        "Error (unsupported variant): variant crazyhouse",
        "Error (nothing to take back): undo",
        "tellusererror Illegal position",
        "Error (illegal position): 8/8/8/8/8/8/8/8 w - - 0 1",
        "Illegal move (no position): e2e4",
    ] {
        assert!(out.contains(expected), "{expected} missing:\n{out}");
    }
    let played = moves(&out);
    assert_eq!(played.len(), 1, "{out}");
    replay(START, &played);
}

#[test]
fn undo_and_remove_take_moves_back() {
    let out = session(
        "xboard\nprotover 2\nnew\nforce\nusermove e2e4\nusermove e7e5\nusermove g1f3\n\
         remove\nundo\nsd 2\ngo\n<await move >\nquit\n",
    );
    // Back at the start, the engine moves for White.
    let played = moves(&out);
    assert_eq!(played.len(), 1, "{out}");
    replay(START, &played);
}

#[test]
fn fischer_random_castling_is_read_and_written_as_o_o() {
    // White's king on f1 with rooks on a1 and h1; castling short puts king and rook on g1/f1.
    let fen = "4k3/8/8/8/8/8/8/R4K1R w AH - 0 1";
    let out = session(&format!(
        "xboard\nprotover 2\nnew\nvariant fischerandom\nforce\nsetboard {fen}\nusermove O-O\n\
         sd 3\ngo\n<await move >\nnew\nvariant fischerandom\nforce\n\
         setboard 4k3/8/8/8/8/8/8/R4K1R w AH - 0 1\nusermove O-O-O\nusermove e8e7\nundo\n\
         usermove e8f7\nsd 1\ngo\n<await move >\nquit\n"
    ));
    assert!(!out.contains("Illegal"), "{out}");
    let played = moves(&out);
    assert_eq!(played.len(), 2, "{out}");
    let pos = replay(fen, &["O-O"]);
    assert_eq!(pos.fen().split(' ').next(), Some("4k3/8/8/8/8/8/8/R4RK1"));
    replay(&pos.fen(), &[played[0]]);
    // A king on c1 after O-O-O: the engine's own move is legal there.
    let pos = replay(fen, &["O-O-O", "e8f7"]);
    assert_eq!(pos.fen().split(' ').next(), Some("8/5k2/8/8/8/8/8/2KR3R"));
    replay(&pos.fen(), &[played[1]]);
    // The engine castles as O-O when it plays a castling move.
    let out = session(
        "xboard\nprotover 2\nnew\nvariant fischerandom\nforce\n\
         setboard 1r3rk1/5ppp/8/8/8/8/5PPP/R4K1R w AH - 0 1\nsd 1\ngo\n<await move >\nquit\n",
    );
    assert_eq!(
        moves(&out),
        ["O-O"],
        "a back-rank mate needs the rook on f1:\n{out}"
    );
}

#[test]
fn analyze_posts_lines_until_exit_and_follows_the_moves() {
    let out = session(
        "xboard\nprotover 2\nnew\nforce\npost\nanalyze\n<await 5 >\n.\n<await stat01:>\n\
         usermove e2e4\nping 1\n<await pong 1>\n<sleep 300>\nexit\nping 2\n\
         <await pong 2>\nquit\n",
    );
    assert!(moves(&out).is_empty(), "analysis plays no moves:\n{out}");
    let stat = out.lines().find(|l| l.starts_with("stat01: ")).unwrap();
    assert_eq!(stat.split(' ').count(), 6, "{stat}");
    assert!(
        stat.ends_with(" 20"),
        "twenty legal moves at the start: {stat}"
    );
    // Lines after e2e4 are Black's: every PV replays from the position after it.
    let after = &out[out.find("pong 1").unwrap()..];
    let posts: Vec<&str> = after
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    assert!(!posts.is_empty(), "{out}");
    for line in posts {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert!(words.len() >= 5, "{line}");
        for w in &words[..4] {
            w.parse::<i64>().unwrap_or_else(|_| panic!("{line}"));
        }
        let mut pos = replay(START, &["e2e4"]);
        for san in &words[4..] {
            let m = pos.parse_san(san).unwrap_or_else(|e| panic!("{line}: {e}"));
            pos.play_unchecked(m);
        }
    }
    // After exit, nothing more is posted.
    let tail = &out[out.find("pong 2").unwrap()..];
    assert!(
        !tail
            .lines()
            .skip(1)
            .any(|l| l.starts_with(|c: char| c.is_ascii_digit()))
    );
}

#[test]
fn mate_scores_are_100000_plus_moves() {
    let out = session(
        "xboard\nprotover 2\nnew\nforce\nsetboard 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\n\
         post\nsd 4\ngo\n<await move >\nquit\n",
    );
    assert_eq!(moves(&out), ["d1d8"], "{out}");
    assert!(
        out.lines().any(|l| l.split(' ').nth(1) == Some("100001")),
        "{out}"
    );
    assert!(out.contains("1-0 {White mates}"), "{out}");
}

#[test]
fn a_finished_game_is_not_played_on() {
    let out = session(
        "xboard\nprotover 2\nnew\nforce\nsetboard 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1\ngo\nping 1\n\
         <await pong 1>\nquit\n",
    );
    assert!(moves(&out).is_empty(), "{out}");
    assert!(out.contains("1-0 {White mates}"), "{out}");
}

#[test]
fn nps_turns_st_into_a_node_limit() {
    let out = session("xboard\nprotover 2\nnew\npost\nnps 1\nst 20000\ngo\n<await move >\nquit\n");
    let nodes: Vec<u64> = out
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| l.split(' ').nth(3).unwrap().parse().unwrap())
        .collect();
    let most = *nodes.iter().max().expect("posts");
    assert!(most <= 20_000 * 105 / 100, "{most} nodes for 20,000: {out}");
    assert!(most >= 20_000 / 4, "{most} nodes for 20,000: {out}");
}

#[test]
fn pondering_goes_on_into_the_move_when_the_expected_reply_comes() {
    let out = {
        let sink = Sink::default();
        let engine = Engine::new(Box::new(sink.clone()));
        let script = Pondering {
            sink: sink.clone(),
            step: 0,
            pending: Vec::new(),
        };
        engine.run(std::io::BufReader::new(script));
        sink.text()
    };
    let played = moves(&out);
    assert_eq!(played.len(), 2, "{out}");
    // After the expected reply, the search went on from its depth rather than from 1 (a new
    // search would post depth 1 first); after its move it ponders again, from depth 1.
    let after = &out[out.find("pong 9").unwrap()..];
    let until_move = &after[..after.find("\nmove ").unwrap()];
    let depths: Vec<i32> = until_move
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert!(depths.iter().all(|&d| d > 3), "{depths:?}\n{out}");
}

/// A GUI that plays the engine's hinted reply after letting it ponder.
struct Pondering {
    sink: Sink,
    step: usize,
    pending: Vec<u8>,
}

impl std::io::Read for Pondering {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.pending.is_empty() {
            let wait_for = |sink: &Sink, text: &str, count: usize| {
                let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
                while sink.text().matches(text).count() < count {
                    assert!(std::time::Instant::now() < deadline, "{}", sink.text());
                    std::thread::sleep(std::time::Duration::from_millis(2));
                }
            };
            let line = match self.step {
                0 => "xboard\nprotover 2\nnew\nhard\npost\nst 0.5\nusermove e2e4\n".to_string(),
                1 => {
                    wait_for(&self.sink, "\nmove ", 1);
                    "hint\n".to_string()
                }
                2 => {
                    wait_for(&self.sink, "Hint: ", 1);
                    std::thread::sleep(std::time::Duration::from_millis(600));
                    "ping 9\n".to_string()
                }
                3 => {
                    wait_for(&self.sink, "pong 9", 1);
                    let text = self.sink.text();
                    let hint = text.lines().find_map(|l| l.strip_prefix("Hint: ")).unwrap();
                    format!("usermove {hint}\n")
                }
                4 => {
                    wait_for(&self.sink, "\nmove ", 2);
                    "quit\n".to_string()
                }
                _ => return Ok(0),
            };
            self.step += 1;
            self.pending = line.into_bytes();
        }
        let n = self.pending.len().min(buf.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

#[test]
fn easy_stops_pondering_and_force_keeps_the_engine_quiet() {
    let out = session(
        "xboard\nprotover 2\nnew\nhard\npost\nst 0.2\nusermove e2e4\n<await move >\n\
         <sleep 100>\neasy\nping 1\n<await pong 1>\n<sleep 300>\nping 2\n<await pong 2>\n\
         force\nusermove d2d4\n<sleep 300>\nping 3\n<await pong 3>\nquit\n",
    );
    assert_eq!(moves(&out).len(), 1, "{out}");
    let between = &out[out.find("pong 1").unwrap()..];
    assert!(
        !between
            .lines()
            .skip(1)
            .any(|l| l.starts_with(|c: char| c.is_ascii_digit())),
        "still thinking after easy:\n{out}"
    );
}

#[test]
fn any_input_leaves_the_engine_working() {
    let junk = [
        "level",
        "level -1 -1 -1",
        "st -5",
        "st 1e400",
        "sd x",
        "time abc",
        "otim -100",
        "nps -3",
        "memory 99999999999999",
        "cores 0",
        "option",
        "option =",
        "option Level=99",
        "option UseNNUE=maybe",
        "option EvalFile=/nonexistent",
        "setboard",
        "setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
        "usermove",
        "usermove e2e4 e7e5",
        "variant",
        "ping",
        ".",
        "exit",
        "?",
        "result 1-0 {x}",
        "\u{0}\u{ff}é中",
        &"a".repeat(10_000),
    ];
    let mut script = String::from("xboard\nprotover 2\n");
    for line in junk {
        script.push_str(line);
        script.push('\n');
    }
    // The errors above mention moves: the pong that follows the engine's move is awaited.
    script.push_str("new\nsd 3\ngo\nping 9\n<await pong 9>\nquit\n");
    let out = session(&script);
    let played = moves(&out);
    assert_eq!(played.len(), 1, "{out}");
    replay(START, &played);
}

#[test]
fn the_moves_left_in_a_period_count_from_the_move_number() {
    // A host that sends setboard before every move leaves no history: move 39 of a 40-move
    // period must still know that two moves share the clock. Nodes stand for time (nps).
    let nodes_at = |fullmove: u32| {
        let out = session(&format!(
            "xboard\nprotover 2\nnew\nforce\npost\nlevel 40 1 0\nnps 1000\ntime 6000\n\
             setboard rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 {fullmove}\n\
             go\n<await move >\nquit\n"
        ));
        out.lines()
            .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
            .map(|l| l.split(' ').nth(3).unwrap().parse::<u64>().unwrap())
            .max()
            .unwrap_or(0)
    };
    let (early, late) = (nodes_at(1), nodes_at(39));
    assert!(
        late > early * 5,
        "{early} nodes at move 1, {late} at move 39"
    );
}
