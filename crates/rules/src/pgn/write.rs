//! Writing the PGN export format: the Seven Tag Roster first, other tags after, movetext
//! wrapped at 80 columns.

use super::{Game, Line};
use crate::{Language, PieceStyle, Position};

/// The Seven Tag Roster, in export order, with the values to use when a tag is missing.
const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// Movetext as words; '(' and ')' are glued to their neighbours so that wrapping never
/// separates them.
#[derive(Default)]
struct Words {
    words: Vec<String>,
    open_next: bool,
}

impl Words {
    fn word(&mut self, w: &str) {
        let mut word = String::with_capacity(w.len() + 1);
        if std::mem::take(&mut self.open_next) {
            word.push('(');
        }
        word.push_str(w);
        self.words.push(word);
    }

    fn open(&mut self) {
        self.open_next = true;
    }

    fn close(&mut self) {
        match self.words.last_mut() {
            Some(w) if !std::mem::take(&mut self.open_next) => w.push(')'),
            _ => self.words.push("()".into()),
        }
    }

    fn comment(&mut self, c: &str) {
        // Braces cannot nest in PGN: drop any '}' a comment might carry.
        let clean = c.replace('}', "");
        let parts: Vec<&str> = clean.split_whitespace().collect();
        if parts.is_empty() {
            self.word("{}");
            return;
        }
        for (i, part) in parts.iter().enumerate() {
            let open = if i == 0 { "{" } else { "" };
            let close = if i + 1 == parts.len() { "}" } else { "" };
            self.word(&format!("{open}{part}{close}"));
        }
    }

    /// Joins the words into lines of at most 80 characters.
    fn wrap(self, out: &mut String) {
        let mut line_len = 0;
        for w in self.words {
            let len = w.chars().count();
            if line_len > 0 && line_len + 1 + len > 80 {
                out.push('\n');
                line_len = 0;
            } else if line_len > 0 {
                out.push(' ');
                line_len += 1;
            }
            out.push_str(&w);
            line_len += len;
        }
    }
}

fn write_line(w: &mut Words, line: &Line, start: &Position, style: PieceStyle) {
    for c in &line.comments {
        w.comment(c);
    }
    let mut pos = start.clone();
    let mut need_number = true;
    for node in &line.nodes {
        if pos.turn() == crate::Color::White {
            w.word(&format!("{}.", pos.fullmoves()));
        } else if need_number {
            w.word(&format!("{}...", pos.fullmoves()));
        }
        if node.mv.is_null() {
            w.word("--");
        } else {
            w.word(&pos.san_styled(node.mv, style));
        }
        for nag in &node.nags {
            w.word(&format!("${nag}"));
        }
        for c in &node.comments {
            w.comment(c);
        }
        need_number = !node.comments.is_empty();
        for variation in &node.variations {
            w.open();
            write_line(w, variation, &pos, style);
            w.close();
            need_number = true;
        }
        pos.play_or_pass(node.mv);
    }
}

/// A tag value as PGN writes it: quotes and backslashes escaped, and line breaks and other
/// control characters (which would end the tag's line) turned into spaces.
fn escape(value: &str) -> String {
    value
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
}

/// Writes a game in the PGN export format: the Seven Tag Roster first, then the other tags in
/// their order, a blank line, the movetext wrapped at 80 columns, and a blank line.
///
/// ```
/// let game = vizier_rules::pgn::read_str("[White \"Ann\"]\n1.e4 e5 {ok} 2.Nf3 *").remove(0).unwrap();
/// let text = vizier_rules::pgn::write(&game);
/// assert!(text.starts_with("[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"Ann\"]"));
/// assert!(text.ends_with("\n\n1. e4 e5 {ok} 2. Nf3 *\n\n"));
/// // A FEN tag gets the SetUp tag the standard asks for.
/// let game = vizier_rules::pgn::read_str("[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n1. O-O *").remove(0).unwrap();
/// assert!(vizier_rules::pgn::write(&game).contains("[SetUp \"1\"]\n[FEN "));
/// ```
pub fn write(game: &Game) -> String {
    write_styled(game, PieceStyle::Letters(Language::English))
}

/// Writes a game as [`write`] does, with the pieces named in `style`: a scoresheet in the
/// player's own notation (Appendix C.3), which only PGN readers that know it can read back.
///
/// ```
/// use vizier_rules::{Language, PieceStyle};
/// let game = vizier_rules::pgn::read_str("1.e4 e5 2.Nf3 Nc6 3.Bb5 *").remove(0).unwrap();
/// let text = vizier_rules::pgn::write_styled(&game, PieceStyle::Letters(Language::German));
/// assert!(text.contains("2. Sf3 Sc6 3. Lb5 *"), "{text}");
/// ```
pub fn write_styled(game: &Game, style: PieceStyle) -> String {
    let mut out = String::new();
    for (name, default) in ROSTER {
        let value = if name == "Result" {
            Some(game.result.as_str())
        } else {
            game.tag(name)
        };
        out.push_str(&format!(
            "[{name} \"{}\"]\n",
            escape(value.unwrap_or(default))
        ));
    }
    let set_up = game.tag("SetUp").is_some();
    for (name, value) in &game.tags {
        if !ROSTER.iter().any(|(r, _)| r == name) {
            // The standard asks for SetUp "1" with every FEN tag; files often leave it out.
            if name == "FEN" && !set_up {
                out.push_str("[SetUp \"1\"]\n");
            }
            out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
        }
    }
    out.push('\n');
    let mut words = Words::default();
    write_line(&mut words, &game.mainline, &game.start, style);
    words.word(&game.result);
    words.wrap(&mut out);
    out.push_str("\n\n");
    out
}
