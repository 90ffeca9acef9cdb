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
pub(crate) const DEEPEST: usize = 40;

/// The opening named for this very position, if any.
pub(crate) fn named(pos: &Position) -> Option<Opening> {
    NAMED.get(&pos.hash()).map(|(opening, _)| *opening)
}

/// The opening of a game from the standard start with these moves, if it has a name.
///
/// ```
/// use vizier_rules::Position;
/// use vizier_play::opening::classify;
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
        found = named(&pos).or(found);
    }
    found
}

/// Chinese names of the opening families we name (the part of a name before its colon), as
/// Chinese chess books and sites call them.
const CHINESE: &[(&str, &str)] = &[
    ("Sicilian Defense", "西西里防御"),
    ("Ruy Lopez", "西班牙开局"),
    ("French Defense", "法兰西防御"),
    ("Queen's Gambit Declined", "后翼弃兵拒绝"),
    ("Queen's Gambit Accepted", "后翼弃兵接受"),
    ("Queen's Gambit", "后翼弃兵"),
    ("Italian Game", "意大利开局"),
    ("English Opening", "英国式开局"),
    ("King's Gambit Accepted", "王翼弃兵接受"),
    ("King's Gambit Declined", "王翼弃兵拒绝"),
    ("King's Gambit", "王翼弃兵"),
    ("King's Indian Defense", "古印度防御"),
    ("King's Indian Attack", "古印度进攻"),
    ("Caro-Kann Defense", "卡罗-康防御"),
    ("Nimzo-Indian Defense", "尼姆佐维奇防御"),
    ("Queen's Pawn Game", "后兵开局"),
    ("King's Pawn Game", "王兵开局"),
    ("Semi-Slav Defense", "半斯拉夫防御"),
    ("Slav Defense", "斯拉夫防御"),
    ("Dutch Defense", "荷兰防御"),
    ("Benoni Defense", "别诺尼防御"),
    ("Grünfeld Defense", "格林菲尔德防御"),
    ("Alekhine Defense", "阿廖欣防御"),
    ("Scotch Game", "苏格兰开局"),
    ("Queen's Indian Defense", "新印度防御"),
    ("Bogo-Indian Defense", "波哥印度防御"),
    ("Old Indian Defense", "老印度防御"),
    ("Petrov's Defense", "俄罗斯防御"),
    ("Four Knights Game", "四马开局"),
    ("Three Knights Opening", "三马开局"),
    ("Scandinavian Defense", "斯堪的纳维亚防御"),
    ("Philidor Defense", "菲利道尔防御"),
    ("Réti Opening", "列蒂开局"),
    ("Vienna Game", "维也纳开局"),
    ("Bishop's Opening", "象翼开局"),
    ("Modern Defense", "现代防御"),
    ("Pirc Defense", "皮尔茨防御"),
    ("Catalan Opening", "卡塔兰开局"),
    ("Bird Opening", "伯德开局"),
    ("Tarrasch Defense", "塔拉什防御"),
    ("Center Game", "中心开局"),
    ("Danish Gambit", "丹麦弃兵"),
    ("Evans Gambit", "埃文斯弃兵"),
    ("Two Knights Defense", "双马防御"),
    ("Trompowsky Attack", "特罗姆波夫斯基进攻"),
    ("Torre Attack", "托雷进攻"),
    ("London System", "伦敦体系"),
    ("Benko Gambit", "伯克弃兵"),
    ("Budapest Defense", "布达佩斯防御"),
    ("Latvian Gambit", "拉脱维亚弃兵"),
    ("Ponziani Opening", "蓬齐亚尼开局"),
    ("Englund Gambit", "英格伦弃兵"),
    ("Barnes Opening", "巴恩斯开局"),
];

/// The Chinese name of an opening's family, where we give one.
///
/// ```
/// use vizier_play::opening::chinese;
/// assert_eq!(chinese("Sicilian Defense: Najdorf Variation"), Some("西西里防御"));
/// assert_eq!(chinese("Queen's Gambit Declined: Normal Defense"), Some("后翼弃兵拒绝"));
/// assert_eq!(chinese("Amar Opening"), None);
/// ```
pub fn chinese(name: &str) -> Option<&'static str> {
    let family = name.split(':').next().unwrap_or(name).trim();
    CHINESE
        .iter()
        .find(|(en, _)| {
            family
                .strip_prefix(en)
                .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric()))
        })
        .map(|(_, zh)| *zh)
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

    /// Every named line of the data, played out, is named by its own name, or by a longer
    /// name of another line that ends in the very same position (a more specific name for a
    /// transposition).
    #[test]
    fn every_line_is_named_by_its_own_name_or_a_more_specific_transposition() {
        let mut by_position: HashMap<u64, Vec<&str>> = HashMap::new();
        let mut lines = Vec::new();
        for line in TABLES.iter().flat_map(|t| t.lines().skip(1)) {
            let fields: Vec<&str> = line.split('\t').collect();
            let moves: Vec<&str> = fields[2]
                .split_whitespace()
                .filter(|t| !t.ends_with('.'))
                .collect();
            let played = play(&moves.join(" "));
            let mut pos = Position::new();
            for mv in &played {
                pos.play_unchecked(*mv);
            }
            by_position.entry(pos.hash()).or_default().push(fields[1]);
            lines.push((fields[1], played, pos.hash()));
        }
        let mut own = 0;
        for (name, played, end) in &lines {
            let found = classify(&Position::new(), played).unwrap_or_else(|| panic!("{name}"));
            if found.name == *name {
                own += 1;
                continue;
            }
            let same_end = &by_position[end];
            assert!(
                same_end.contains(&found.name) && found.name.len() >= name.len(),
                "{name} was named {} ({:?} end there)",
                found.name,
                same_end
            );
        }
        assert!(own > 3_400, "{own} of {} by their own name", lines.len());
    }

    #[test]
    fn the_big_families_have_chinese_names() {
        for name in [
            "Sicilian Defense",
            "Ruy Lopez: Morphy Defense",
            "French Defense: Winawer Variation",
            "Caro-Kann Defense",
            "King's Indian Defense: Orthodox Variation",
        ] {
            assert!(chinese(name).is_some(), "{name}");
        }
        // The longest family name that fits wins: accepted is not the plain gambit.
        assert_eq!(
            chinese("King's Gambit Accepted: Muzio Gambit"),
            Some("王翼弃兵接受")
        );
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
