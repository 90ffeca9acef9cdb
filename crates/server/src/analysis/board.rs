//! The analysis board's chess, done by our rules: a position's legal moves for the board, a
//! move played from a FEN, and a PGN read into a tree of moves with variations and comments.

use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use vizier_rules::{Position, Square, UciCastling, pgn};

/// The most nodes (moves, variations included) an imported PGN may have.
pub const MAX_NODES: usize = 5_000;

/// Each from-square's destinations, as the board wants them: in JSON an object from square
/// names to lists of square names (`{"e2":["e3","e4"]}`), squares in name order.
///
/// Held as one list of (from, to), not a map with a list per square: it is built at every
/// move of every game, and the lists were an allocation per piece that could move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dests(Vec<(Square, Square)>);

impl Serialize for Dests {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Tos<'a>(&'a [(Square, Square)]);
        impl Serialize for Tos<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
                for (_, to) in self.0 {
                    seq.serialize_element(to.name())?;
                }
                seq.end()
            }
        }
        let mut map = serializer.serialize_map(None)?;
        for moves in self.0.chunk_by(|a, b| a.0 == b.0) {
            map.serialize_entry(moves[0].0.name(), &Tos(moves))?;
        }
        map.end()
    }
}

/// A position's legal moves from each square (castling as the king's two-square move, or
/// king-takes-rook in Chess960).
pub fn dests(pos: &Position, castling: UciCastling) -> Dests {
    let moves = pos.legal_moves();
    let mut out = Vec::with_capacity(moves.len());
    out.extend(moves.iter().map(|m| pos.uci_squares(*m, castling)));
    // Stable: a square's destinations keep the order they were generated in, so that a
    // pawn's four promotions on one square are neighbours.
    out.sort_by_key(|(from, _)| (from.file(), from.rank()));
    out.dedup();
    Dests(out)
}

/// A position as the board shows it.
#[derive(Clone, Debug, Serialize)]
pub struct Shown {
    pub fen: String,
    pub dests: Dests,
    pub check: bool,
}

impl Shown {
    /// The position shown, castling written for Chess960 when asked or when the position is
    /// one no standard game reaches (king or rooks off their squares with castling rights).
    pub fn of(pos: &Position, chess960: bool) -> Shown {
        Shown {
            fen: pos.fen(),
            dests: dests(
                pos,
                UciCastling::for_chess960(chess960 || pos.is_chess960()),
            ),
            check: pos.is_check(),
        }
    }
}

/// A move played on the board: its notation, and the position after it.
#[derive(Clone, Debug, Serialize)]
pub struct Played {
    pub uci: String,
    pub san: String,
    #[serde(flatten)]
    pub after: Shown,
}

/// Plays `text` (UCI or SAN) in the position `fen`.
pub fn play(fen: &str, text: &str, chess960: bool) -> Result<Played, String> {
    let pos = Position::from_fen(fen.trim()).map_err(|e| format!("FEN: {e}"))?;
    let m = pos.parse_move(text).map_err(|e| format!("{text}: {e}"))?;
    let castling = UciCastling::for_chess960(chess960 || pos.is_chess960());
    let (uci, san) = (pos.uci(m, castling), pos.san(m));
    let mut after = pos;
    after.play_unchecked(m);
    Ok(Played {
        uci,
        san,
        after: Shown::of(&after, chess960),
    })
}

/// A move of an imported game, with what followed it.
///
/// A tree as deep as the game is long: it is written out and dropped by loops, not by
/// recursion, so that a long game cannot exhaust a thread's stack.
#[derive(Clone, Debug)]
pub struct TreeNode {
    pub uci: String,
    pub san: String,
    pub fen: String,
    pub nags: Vec<u8>,
    pub comment: Option<String>,
    /// The next move of this line first, then the alternatives to it.
    pub children: Vec<TreeNode>,
}

impl Drop for TreeNode {
    fn drop(&mut self) {
        let mut below = std::mem::take(&mut self.children);
        while let Some(mut node) = below.pop() {
            below.append(&mut node.children);
        }
    }
}

/// An imported game: its start, tags and the tree of its moves.
#[derive(Clone, Debug)]
pub struct Imported {
    pub fen: String,
    pub chess960: bool,
    pub tags: Vec<(String, String)>,
    pub comment: Option<String>,
    pub children: Vec<TreeNode>,
}

impl Imported {
    /// The JSON object's members, without its braces: `"fen":…,"chess960":…,"tags":[[name,
    /// value],…],"comment":…,"children":[…]`, each node `{"uci","san","fen","nags"?,
    /// "comment"?,"children"}` as the analysis board reads it.
    pub fn json_members(&self) -> String {
        let mut out = String::with_capacity(256 + self.children.len() * 128);
        out.push_str("\"fen\":");
        push_json(&mut out, &self.fen);
        out.push_str(",\"chess960\":");
        push_json(&mut out, &self.chess960);
        out.push_str(",\"tags\":");
        push_json(&mut out, &self.tags);
        if let Some(c) = &self.comment {
            out.push_str(",\"comment\":");
            push_json(&mut out, c);
        }
        out.push_str(",\"children\":[");
        // The children still to write at each open level.
        let mut open: Vec<std::slice::Iter<'_, TreeNode>> = vec![self.children.iter()];
        let mut first = true;
        while let Some(level) = open.last_mut() {
            let Some(node) = level.next() else {
                open.pop();
                out.push(']');
                if !open.is_empty() {
                    out.push('}');
                }
                first = false;
                continue;
            };
            if !first {
                out.push(',');
            }
            out.push_str("{\"uci\":");
            push_json(&mut out, &node.uci);
            out.push_str(",\"san\":");
            push_json(&mut out, &node.san);
            out.push_str(",\"fen\":");
            push_json(&mut out, &node.fen);
            if !node.nags.is_empty() {
                out.push_str(",\"nags\":");
                push_json(&mut out, &node.nags);
            }
            if let Some(c) = &node.comment {
                out.push_str(",\"comment\":");
                push_json(&mut out, c);
            }
            out.push_str(",\"children\":[");
            open.push(node.children.iter());
            first = true;
        }
        out
    }
}

/// Appends a flat value (a string, a number, a list of pairs of strings) as JSON.
fn push_json(out: &mut String, value: &impl Serialize) {
    // Writing these to a string cannot fail.
    out.push_str(&serde_json::to_string(value).unwrap_or_default());
}

/// Reads the first game of `text` into a tree; or why it does not read.
pub fn import(text: &str) -> Result<Imported, String> {
    let game = pgn::read_str(text)
        .into_iter()
        .next()
        .ok_or("no game in the PGN")?
        .map_err(|e| e.to_string())?;
    let mut count = 0;
    let children = line(&game.start, &game.mainline, game.chess960, &mut count)?;
    Ok(Imported {
        fen: game.start.fen(),
        chess960: game.chess960,
        tags: game.tags.clone(),
        comment: joined(&game.mainline.comments),
        children,
    })
}

fn joined(comments: &[String]) -> Option<String> {
    (!comments.is_empty()).then(|| comments.join(" "))
}

/// The tree of `line` played from `start`: each node's first child continues the line, the
/// others are the variations to that next move.
fn line(
    start: &Position,
    line: &pgn::Line,
    chess960: bool,
    count: &mut usize,
) -> Result<Vec<TreeNode>, String> {
    let castling = UciCastling::for_chess960(chess960);
    let mut pos = start.clone();
    // The nodes from the last one back, so that each can take the rest as its child.
    let mut built: Vec<(TreeNode, Vec<TreeNode>)> = Vec::new();
    for node in &line.nodes {
        *count += 1;
        if *count > MAX_NODES {
            return Err(format!("more than {MAX_NODES} moves"));
        }
        let mut alternatives = Vec::new();
        for v in &node.variations {
            alternatives.extend(self::line(&pos, v, chess960, count)?);
        }
        let (uci, san) = (pos.uci(node.mv, castling), pos.san(node.mv));
        pos.play_or_pass(node.mv);
        built.push((
            TreeNode {
                uci,
                san,
                fen: pos.fen(),
                nags: node.nags.clone(),
                comment: joined(&node.comments),
                children: Vec::new(),
            },
            alternatives,
        ));
    }
    let mut rest: Vec<TreeNode> = Vec::new();
    while let Some((mut node, alternatives)) = built.pop() {
        node.children = std::mem::take(&mut rest);
        rest = std::iter::once(node).chain(alternatives).collect();
    }
    Ok(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pgn_becomes_a_tree_with_its_variations_and_comments() {
        let t =
            import("{start} 1. e4 {king pawn} (1. d4 d5 (1... Nf6)) 1... e5 $1 2. Nf3 *").unwrap();
        assert_eq!(t.comment.as_deref(), Some("start"));
        // First child: the main line; then the alternative to it.
        let sans: Vec<&str> = t.children.iter().map(|n| n.san.as_str()).collect();
        assert_eq!(sans, ["e4", "d4"]);
        let e4 = &t.children[0];
        assert_eq!(e4.comment.as_deref(), Some("king pawn"));
        assert_eq!(e4.children[0].san, "e5");
        assert_eq!(e4.children[0].nags, [1]);
        assert_eq!(e4.children[0].children[0].san, "Nf3");
        let d4 = &t.children[1];
        let replies: Vec<&str> = d4.children.iter().map(|n| n.san.as_str()).collect();
        assert_eq!(replies, ["d5", "Nf6"]);
        assert_eq!(
            d4.children[1].fen,
            "rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2"
        );
    }

    #[test]
    fn the_tree_is_written_as_nested_json() {
        let t = import("{start} 1. e4 {king pawn} (1. d4 d5 (1... Nf6)) 1... e5 $1 *").unwrap();
        let json: serde_json::Value =
            serde_json::from_str(&format!("{{{}}}", t.json_members())).unwrap();
        assert_eq!(json["comment"], "start");
        assert_eq!(json["chess960"], false);
        let e4 = &json["children"][0];
        assert_eq!(
            (&e4["san"], &e4["comment"]),
            (&"e4".into(), &"king pawn".into())
        );
        assert_eq!(e4["children"][0]["nags"], serde_json::json!([1]));
        assert_eq!(e4["children"][0]["children"], serde_json::json!([]));
        assert!(e4["children"][0].get("comment").is_none());
        let d4 = &json["children"][1];
        assert_eq!(d4["children"][1]["uci"], "g8f6");
        assert_eq!(json["children"].as_array().map(Vec::len), Some(2));
    }

    #[test]
    fn long_games_and_deep_variations_take_no_deep_stack() {
        // The longest game the board takes, on a thread with a small stack: written out and
        // dropped without recursion.
        let shuffle = "Nf3 Nf6 Ng1 Ng8 ".repeat(MAX_NODES / 4);
        let long = format!("{shuffle} *");
        let written = std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(move || {
                let tree = import(&long).unwrap();
                tree.json_members().len()
            })
            .unwrap()
            .join()
            .unwrap();
        assert!(written > MAX_NODES * 50);
        let deep = format!(
            "1. e4 {}{} *",
            "(1. d4 ".repeat(pgn::MAX_VARIATION_DEPTH + 1),
            ")".repeat(pgn::MAX_VARIATION_DEPTH + 1)
        );
        let why = import(&deep).unwrap_err();
        assert!(why.contains("nest more than"), "{why}");
    }

    /// The destinations from `square` (a name like `e2`).
    fn from(dests: &Dests, square: &str) -> Vec<&'static str> {
        let moves = dests.0.iter().filter(|(from, _)| from.name() == square);
        moves.map(|(_, to)| to.name()).collect()
    }

    #[test]
    fn dests_are_an_object_of_squares_in_name_order() {
        let json = |fen: &str| {
            let pos = Position::from_fen(fen).unwrap();
            serde_json::to_string(&dests(&pos, UciCastling::KingStep)).unwrap()
        };
        let start = json("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(start.starts_with(r#"{"a2":["a3","a4"],"b1":["a3","c3"],"b2":["b3","b4"],"#));
        assert!(
            start.ends_with(r#""g2":["g3","g4"],"h2":["h3","h4"]}"#),
            "{start}"
        );
        // Four promotions are one destination; no moves, an empty object.
        let promoting = json("7k/1P6/8/8/8/8/8/K7 w - - 0 1");
        let promoting: serde_json::Value = serde_json::from_str(&promoting).unwrap();
        assert_eq!(promoting["b7"], serde_json::json!(["b8"]));
        assert_eq!(promoting["a1"].as_array().map(Vec::len), Some(3));
        assert_eq!(json("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1"), "{}");
    }

    #[test]
    fn bad_pgns_and_moves_are_refused_with_a_reason() {
        assert!(import("").is_err());
        assert!(import("1. e5 *").is_err());
        assert!(play("not a fen", "e4", false).is_err());
        assert!(play(&Position::new().fen(), "e5", false).is_err());
        let p = play(&Position::new().fen(), "Nf3", false).unwrap();
        assert_eq!((p.uci.as_str(), p.san.as_str()), ("g1f3", "Nf3"));
        assert_eq!(from(&p.after.dests, "b8"), ["a6", "c6"]);
        let castle = play("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", false).unwrap();
        assert_eq!(castle.san, "O-O");
        // King on b1, rooks on a1 and h1 with the right to castle: a Chess960 position, whose
        // castling the board shows as king-takes-rook even unasked.
        let pos = Position::from_fen("rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1").unwrap();
        let b1 = from(&Shown::of(&pos, false).dests, "b1");
        assert!(b1.contains(&"a1") && b1.contains(&"h1"), "{b1:?}");
    }
}
