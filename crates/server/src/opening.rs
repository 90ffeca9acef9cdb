//! Opening names: a game is named (ECO code and name) by the last position of its moves that
//! ends a named line of the lichess chess-openings data set (`data/openings/`), so that
//! transpositions are found.

use std::collections::HashMap;
use std::sync::LazyLock;

use vizier_rules::{Move, Position};

/// A named opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opening {
    pub eco: &'static str,
    pub name: &'static str,
}

const TABLES: [&str; 5] = [
    include_str!("../data/openings/a.tsv"),
    include_str!("../data/openings/b.tsv"),
    include_str!("../data/openings/c.tsv"),
    include_str!("../data/openings/d.tsv"),
    include_str!("../data/openings/e.tsv"),
];

/// Each named line's final position (by its hash: pieces, side to move, castling, en
/// passant), and its name. Where two lines end in one position, the longer (more precise)
/// name wins.
static NAMED: LazyLock<HashMap<u64, (Opening, usize)>> = LazyLock::new(|| {
    let mut named: HashMap<u64, (Opening, usize)> = HashMap::new();
    for line in TABLES.iter().flat_map(|t| t.lines().skip(1)) {
        let mut fields = line.split('\t');
        let (Some(eco), Some(name), Some(pgn)) = (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let mut pos = Position::new();
        let mut plies = 0;
        let mut read = true;
        for token in pgn.split_whitespace() {
            if token.ends_with('.') || token.chars().next().is_some_and(|c| c.is_ascii_digit()) {
                continue;
            }
            match pos.parse_san(token) {
                Ok(mv) => {
                    pos.play_unchecked(mv);
                    plies += 1;
                }
                Err(_) => {
                    read = false;
                    break;
                }
            }
        }
        if !read {
            continue;
        }
        let entry = named.entry(pos.hash());
        let opening = Opening { eco, name };
        entry
            .and_modify(|e| {
                if name.len() > e.0.name.len() {
                    *e = (opening, plies);
                }
            })
            .or_insert((opening, plies));
    }
    named
});

/// How deep a named line goes: positions after more plies than this are not looked up.
const DEEPEST: usize = 40;

/// The opening of a game from the standard start with these moves, if it has a name.
///
/// ```
/// use vizier_rules::Position;
/// use vizier_server::opening::classify;
/// let mut pos = Position::new();
/// let moves: Vec<_> = ["e4", "e5", "Nf3", "Nc6", "Bb5"]
///     .iter()
///     .map(|san| {
///         let mv = pos.parse_san(san).unwrap();
///         pos.play_unchecked(mv);
///         mv
///     })
///     .collect();
/// let o = classify(&Position::new(), &moves).unwrap();
/// assert_eq!((o.eco, o.name), ("C60", "Ruy Lopez"));
/// ```
pub fn classify(start: &Position, moves: &[Move]) -> Option<Opening> {
    if *start != Position::new() {
        return None;
    }
    let mut pos = start.clone();
    let mut found = None;
    for mv in moves.iter().take(DEEPEST) {
        pos.play_unchecked(*mv);
        if let Some((opening, _)) = NAMED.get(&pos.hash()) {
            found = Some(*opening);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(sans: &str) -> Vec<Move> {
        let mut pos = Position::new();
        sans.split_whitespace()
            .map(|san| {
                let mv = pos.parse_san(san).unwrap();
                pos.play_unchecked(mv);
                mv
            })
            .collect()
    }

    #[test]
    fn every_line_reads() {
        let lines: usize = TABLES.iter().map(|t| t.lines().skip(1).count()).sum();
        assert_eq!(lines, 3_807);
        // Distinct final positions: a few lines share one.
        assert!(NAMED.len() > 3_000, "{}", NAMED.len());
    }

    #[test]
    fn transpositions_are_found_and_the_deepest_name_wins() {
        let sicilian = classify(&Position::new(), &play("e4 c5")).unwrap();
        assert_eq!(sicilian.eco, "B20");
        // The Queen's Gambit Declined by way of 1. Nf3.
        let qgd = classify(&Position::new(), &play("c4 e6 Nc3 d5 d4 Nf6")).unwrap();
        assert_eq!(
            (qgd.eco, qgd.name),
            ("D35", "Queen's Gambit Declined: Normal Defense")
        );
        // Out of the book, the last named position stands.
        let later = classify(&Position::new(), &play("e4 c5 a3 a6 h3 h6")).unwrap();
        assert!(later.eco.starts_with('B'), "{later:?}");
        assert_eq!(classify(&Position::new(), &[]), None);
    }
}
