//! The analysis board's chess, done by our rules: a position's legal moves for the board, a
//! move played from a FEN, and a PGN read into a tree of moves with variations and comments.

use std::collections::BTreeMap;

use serde::Serialize;
use vizier_rules::{Position, UciCastling, pgn};

/// The most nodes (moves, variations included) an imported PGN may have.
pub const MAX_NODES: usize = 5_000;

/// Each from-square's destinations, as the board wants them.
pub type Dests = BTreeMap<&'static str, Vec<&'static str>>;

/// A position's legal moves from each square (castling as the king's two-square move, or
/// king-takes-rook in Chess960).
pub fn dests(pos: &Position, castling: UciCastling) -> Dests {
    let mut out = Dests::new();
    for m in pos.legal_moves().iter() {
        let (from, to) = pos.uci_squares(*m, castling);
        out.entry(from.name()).or_default().push(to.name());
    }
    for d in out.values_mut() {
        d.dedup();
    }
    out
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
    let m = pos
        .parse_uci(text)
        .or_else(|_| pos.parse_san_lenient(text))
        .map_err(|e| format!("{text}: {e}"))?;
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
#[derive(Clone, Debug, Serialize)]
pub struct TreeNode {
    pub uci: String,
    pub san: String,
    pub fen: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub nags: Vec<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// The next move of this line first, then the alternatives to it.
    pub children: Vec<TreeNode>,
}

/// An imported game: its start, tags and the tree of its moves.
#[derive(Clone, Debug, Serialize)]
pub struct Imported {
    pub fen: String,
    pub chess960: bool,
    pub tags: Vec<(String, String)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    pub children: Vec<TreeNode>,
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
    fn bad_pgns_and_moves_are_refused_with_a_reason() {
        assert!(import("").is_err());
        assert!(import("1. e5 *").is_err());
        assert!(play("not a fen", "e4", false).is_err());
        assert!(play(&Position::new().fen(), "e5", false).is_err());
        let p = play(&Position::new().fen(), "Nf3", false).unwrap();
        assert_eq!((p.uci.as_str(), p.san.as_str()), ("g1f3", "Nf3"));
        assert_eq!(p.after.dests["b8"], ["a6", "c6"]);
        let castle = play("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", false).unwrap();
        assert_eq!(castle.san, "O-O");
        // King on b1, rooks on a1 and h1 with the right to castle: a Chess960 position, whose
        // castling the board shows as king-takes-rook even unasked.
        let pos = Position::from_fen("rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1").unwrap();
        let b1 = &Shown::of(&pos, false).dests["b1"];
        assert!(b1.contains(&"a1") && b1.contains(&"h1"), "{b1:?}");
    }
}
