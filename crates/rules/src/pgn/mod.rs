//! PGN: reading many games from a stream (tags, comments, NAGs, nested variations, `%` escape
//! lines, a BOM, set-up positions, Chess960), with errors that name the game, line and column;
//! and writing the PGN export format (Seven Tag Roster first, lines of at most 80 columns).

mod read;
mod write;

pub use read::{Parser, Variation, Visitor};

/// How deeply variations may nest: a variation inside a variation inside … the main line, at
/// most this many levels. Every walk of a [`Line`] (writing it, counting it, dropping it)
/// recurses once a level, so an unbounded depth would let one game exhaust a thread's stack;
/// published annotated games nest a handful of levels.
pub const MAX_VARIATION_DEPTH: usize = 100;
pub use write::{write, write_styled};

use crate::{Move, Position};
use std::fmt;
use std::io::Read;

/// A move in a game, with what the PGN said about it.
///
/// ```
/// let game = vizier_rules::pgn::read_str("1. e4 $1 {best by test} (1. d4) *").remove(0).unwrap();
/// let node = &game.mainline.nodes[0];
/// assert_eq!((node.nags.as_slice(), node.comments[0].as_str()), (&[1u8][..], "best by test"));
/// assert_eq!(node.variations[0].nodes[0].mv, vizier_rules::Position::new().parse_san("d4").unwrap());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The move.
    pub mv: Move,
    /// Numeric annotation glyphs (`$1`, or `!` read as 1, `?` as 2, …).
    pub nags: Vec<u8>,
    /// Comments after the move, without braces.
    pub comments: Vec<String>,
    /// Alternatives to this move, each starting from the position before it.
    pub variations: Vec<Line>,
}

impl Node {
    /// The clock time left after this move from a `[%clk h:mm:ss]` comment, in milliseconds.
    ///
    /// ```
    /// let game = vizier_rules::pgn::read_str("1. e4 {[%clk 0:04:59.5]} *").remove(0).unwrap();
    /// assert_eq!(game.mainline.nodes[0].clock_ms(), Some(299_500));
    /// ```
    pub fn clock_ms(&self) -> Option<u64> {
        self.comments.iter().find_map(|c| parse_clock(c))
    }
}

/// Reads `[%clk h:mm:ss(.f)]` out of a comment.
fn parse_clock(comment: &str) -> Option<u64> {
    let rest = &comment[comment.find("[%clk")? + 5..];
    let value = rest.trim_start().split(']').next()?.trim();
    let mut parts = value.split(':');
    let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
    let h: u64 = h.parse().ok()?;
    let m: u64 = m.parse().ok()?;
    let s: f64 = s.parse().ok()?;
    if m >= 60 || !(0.0..60.0).contains(&s) {
        return None;
    }
    Some((h * 3600 + m * 60) * 1000 + (s * 1000.0).round() as u64)
}

/// A sequence of moves (the main line or a variation).
///
/// ```
/// let game = vizier_rules::pgn::read_str("{opening} 1. e4 e5 *").remove(0).unwrap();
/// assert_eq!((game.mainline.comments.len(), game.mainline.nodes.len()), (1, 2));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// Comments before the first move.
    pub comments: Vec<String>,
    /// The moves, in order.
    pub nodes: Vec<Node>,
}

/// One game read from PGN.
///
/// ```
/// let game = vizier_rules::pgn::read_str("[White \"Anna\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n").remove(0).unwrap();
/// assert_eq!(game.tag("White"), Some("Anna"));
/// assert_eq!(game.result, "0-1");
/// assert!(game.end_position().is_checkmate());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Tags in the order read.
    pub tags: Vec<(String, String)>,
    /// The start position (from the `FEN` tag, else the standard start).
    pub start: Position,
    /// Whether castling is written for Chess960 (from `Variant`, or implied by the position).
    pub chess960: bool,
    /// The moves of the game, with their variations.
    pub mainline: Line,
    /// The game termination marker of the movetext ("*" if none was written).
    pub result: String,
}

impl Game {
    /// A tag's value.
    ///
    /// ```
    /// let game = vizier_rules::pgn::read_str("[Event \"Club\"] *").remove(0).unwrap();
    /// assert_eq!(game.tag("Event"), Some("Club"));
    /// ```
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The position after the last main-line move.
    ///
    /// ```
    /// let game = vizier_rules::pgn::read_str("1. e4 *").remove(0).unwrap();
    /// assert_eq!(game.end_position().fullmoves(), 1);
    /// ```
    pub fn end_position(&self) -> Position {
        let mut pos = self.start.clone();
        for node in &self.mainline.nodes {
            pos.play_or_pass(node.mv);
        }
        pos
    }

    /// The number of moves (plies) in the main line and all variations.
    ///
    /// ```
    /// let game = vizier_rules::pgn::read_str("1. e4 (1. d4 d5) e5 *").remove(0).unwrap();
    /// assert_eq!(game.ply_count(), 4);
    /// ```
    pub fn ply_count(&self) -> usize {
        fn count(line: &Line) -> usize {
            line.nodes
                .iter()
                .map(|n| 1 + n.variations.iter().map(count).sum::<usize>())
                .sum()
        }
        count(&self.mainline)
    }
}

/// A game that could not be read: where, and why.
///
/// ```
/// use vizier_rules::pgn::PgnErrorKind;
/// let err = vizier_rules::pgn::read_str("1. e4 e5 2. Ke3 *").remove(0).unwrap_err();
/// assert_eq!(err.to_string(), "game 1, line 1, column 13: \"Ke3\" is not a legal move here");
/// assert!(matches!(err.kind, PgnErrorKind::Move(_)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// 1-based number of the game in the input.
    pub game: usize,
    /// 1-based line in the input.
    pub line: usize,
    /// 1-based column (in characters) in that line.
    pub column: usize,
    /// What is wrong.
    pub kind: PgnErrorKind,
}

/// What is wrong with a game's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnErrorKind {
    /// A `{` comment runs to the end of the input.
    UnclosedComment,
    /// A `[` tag runs to the end of the input.
    UnclosedTag,
    /// A tag is not `[Name "value"]`; what stands between the brackets.
    MalformedTag(String),
    /// A `$` glyph is not a number from 0 to 255.
    BadGlyph(String),
    /// A character that starts nothing here (a stray `}` or `]`).
    Unexpected(char),
    /// The `Variant` tag names a variant other than standard chess or Chess960.
    UnsupportedVariant(String),
    /// The `FEN` tag is not a legal position.
    BadFen {
        /// The tag's value.
        fen: String,
        /// Why it is not.
        source: crate::FenError,
    },
    /// Text follows the game's termination marker.
    TextAfterResult,
    /// A tag after the movetext began.
    TagAfterMoves(String),
    /// A termination marker inside a variation.
    ResultInVariation(&'static str),
    /// A glyph before the first move of a line.
    GlyphBeforeMove(u8),
    /// A `(` before any move it could replace.
    VariationBeforeMove,
    /// A `)` without its `(`.
    UnmatchedClose,
    /// A null move (`--`, `Z0`) by a side in check: the position after it is not one of chess.
    NullMoveInCheck(String),
    /// A move that cannot be read or is not legal.
    Move(crate::MoveParseError),
    /// A `(` is never closed.
    UnclosedVariation,
    /// Variations nest deeper than [`MAX_VARIATION_DEPTH`].
    TooDeep,
}

impl fmt::Display for PgnErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnErrorKind::UnclosedComment => write!(f, "comment opened with '{{' is never closed"),
            PgnErrorKind::UnclosedTag => write!(f, "tag opened with '[' is never closed"),
            PgnErrorKind::MalformedTag(body) => {
                write!(f, "malformed tag [{body}]: expected [Name \"value\"]")
            }
            PgnErrorKind::BadGlyph(g) => write!(f, "bad annotation glyph \"{g}\""),
            PgnErrorKind::Unexpected(c) => write!(f, "unexpected '{c}'"),
            PgnErrorKind::UnsupportedVariant(v) => write!(f, "variant \"{v}\" is not supported"),
            PgnErrorKind::BadFen { fen, source } => write!(f, "bad FEN tag \"{fen}\": {source}"),
            PgnErrorKind::TextAfterResult => write!(f, "text after the game's result"),
            PgnErrorKind::TagAfterMoves(name) => write!(f, "tag [{name}] after the moves began"),
            PgnErrorKind::ResultInVariation(r) => write!(f, "result {r} inside a variation"),
            PgnErrorKind::GlyphBeforeMove(n) => write!(f, "annotation ${n} before any move"),
            PgnErrorKind::VariationBeforeMove => {
                write!(f, "variation '(' before any move it could replace")
            }
            PgnErrorKind::UnmatchedClose => write!(f, "')' without a matching '('"),
            PgnErrorKind::NullMoveInCheck(san) => {
                write!(f, "null move \"{san}\" while in check")
            }
            PgnErrorKind::Move(e) => write!(f, "{e}"),
            PgnErrorKind::UnclosedVariation => write!(f, "variation '(' is never closed"),
            PgnErrorKind::TooDeep => write!(
                f,
                "variations nest more than {MAX_VARIATION_DEPTH} levels deep"
            ),
        }
    }
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}, line {}, column {}: {}",
            self.game, self.line, self.column, self.kind
        )
    }
}

impl std::error::Error for PgnError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            PgnErrorKind::BadFen { source, .. } => Some(source),
            PgnErrorKind::Move(e) => Some(e),
            _ => None,
        }
    }
}

/// Builds a whole [`Game`] (variations, comments and glyphs included): the visitor behind
/// [`Reader`].
///
/// ```
/// use vizier_rules::pgn::{GameBuilder, Parser};
/// let mut parser = Parser::new(&b"1. e4 {best} e5 *"[..]);
/// let game = parser.read_game(&mut GameBuilder::default()).unwrap().unwrap();
/// assert_eq!(game.mainline.nodes[0].comments, vec!["best".to_string()]);
/// ```
#[derive(Default)]
pub struct GameBuilder {
    tags: Vec<(String, String)>,
    start: Option<(Position, bool)>,
    /// The main line, then each variation being read.
    lines: Vec<Line>,
}

impl Visitor for GameBuilder {
    type Output = Game;

    fn begin_game(&mut self) {
        self.tags.clear();
        self.start = None;
        self.lines.clear();
        self.lines.push(Line::default());
    }

    fn tag(&mut self, name: &str, value: &str) {
        self.tags.push((name.to_string(), value.to_string()));
    }

    fn begin_moves(&mut self, start: &Position, chess960: bool) {
        self.start = Some((start.clone(), chess960));
    }

    fn comment(&mut self, text: &str) {
        // Line breaks and runs of spaces inside a comment are layout, not content (the
        // export format rewraps them).
        let mut comment = String::with_capacity(text.len());
        for word in text.split_whitespace() {
            if !comment.is_empty() {
                comment.push(' ');
            }
            comment.push_str(word);
        }
        let line = self.lines.last_mut().expect("a line while reading moves");
        match line.nodes.last_mut() {
            Some(node) => node.comments.push(comment),
            None => line.comments.push(comment),
        }
    }

    fn nag(&mut self, nag: u8) {
        if let Some(node) = self.lines.last_mut().and_then(|l| l.nodes.last_mut()) {
            node.nags.push(nag);
        }
    }

    fn play(&mut self, _before: &Position, mv: Move) {
        self.lines
            .last_mut()
            .expect("a line while reading moves")
            .nodes
            .push(Node {
                mv,
                nags: Vec::new(),
                comments: Vec::new(),
                variations: Vec::new(),
            });
    }

    fn begin_variation(&mut self) -> Variation {
        self.lines.push(Line::default());
        Variation::Enter
    }

    fn end_variation(&mut self) {
        if self.lines.len() < 2 {
            return;
        }
        let done = self.lines.pop().expect("checked");
        if let Some(node) = self.lines.last_mut().and_then(|l| l.nodes.last_mut()) {
            node.variations.push(done);
        }
    }

    fn end_game(&mut self, result: Option<&str>) -> Game {
        let (start, chess960) = self
            .start
            .take()
            .unwrap_or_else(|| (Position::new(), false));
        Game {
            tags: std::mem::take(&mut self.tags),
            start,
            chess960,
            mainline: self.lines.drain(..).next().unwrap_or_default(),
            result: result.unwrap_or("*").to_string(),
        }
    }
}

/// Reads whole games one at a time from a stream; a bad game yields an error and reading
/// goes on with the next one.
///
/// ```
/// let input = "1. e4 e5 *\n\n1. e5 *\n\n1. d4 *\n";
/// let results: Vec<_> = vizier_rules::pgn::Reader::new(input.as_bytes()).collect();
/// assert_eq!(results.len(), 3);
/// assert!(results[0].is_ok() && results[1].is_err() && results[2].is_ok());
/// ```
pub struct Reader<R> {
    parser: Parser<R>,
    builder: GameBuilder,
}

impl<R: Read> Reader<R> {
    /// Wraps a stream.
    ///
    /// ```
    /// let mut r = vizier_rules::pgn::Reader::new(&b""[..]);
    /// assert!(r.next().is_none());
    /// ```
    pub fn new(input: R) -> Reader<R> {
        Reader {
            parser: Parser::new(input),
            builder: GameBuilder::default(),
        }
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<Game, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.parser.read_game(&mut self.builder)
    }
}

/// Reads every game of a string (for tests and small inputs).
///
/// ```
/// assert_eq!(vizier_rules::pgn::read_str("1. e4 *\n\n1. d4 *").len(), 2);
/// ```
pub fn read_str(text: &str) -> Vec<Result<Game, PgnError>> {
    Reader::new(text.as_bytes()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_games_are_reported_and_the_rest_kept() {
        let text = "[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n\n1. e4 e5\n2. Qxf7 *\n\n[Event \"c\"]\n\n1. d4 0-1\n";
        let results = read_str(text);
        assert_eq!(results.len(), 3);
        assert_eq!(results[0].as_ref().unwrap().result, "1-0");
        let err = results[1].as_ref().unwrap_err();
        assert_eq!((err.game, err.line, err.column), (2, 8, 4));
        assert_eq!(results[2].as_ref().unwrap().tag("Event"), Some("c"));
    }

    #[test]
    fn null_moves_pass_the_turn_and_are_written_back() {
        let text = "1. e4 -- 2. d4 Z0 (2... e5 3. -- Nc6) 3. Nf3 -- *";
        let game = read_str(text).remove(0).unwrap();
        assert_eq!(game.ply_count(), 9);
        assert!(game.mainline.nodes[1].mv.is_null());
        // As python-chess replays it: the half-move clock counts the passes.
        assert_eq!(
            game.end_position().fen(),
            "rnbqkbnr/pppppppp/8/8/3PP3/5N2/PPP2PPP/RNBQKB1R w KQkq - 3 4"
        );
        let written = write(&game);
        assert!(
            written.contains("1. e4 -- 2. d4 -- (2... e5 3. -- Nc6) 3. Nf3 -- *"),
            "{written}"
        );
        assert_eq!(
            read_str(&written).remove(0).unwrap().mainline,
            game.mainline
        );
        // A move after a pass is read in the position the pass left.
        let err = read_str("1. e4 -- 2. Nf6 *").remove(0).unwrap_err();
        assert!(err.to_string().contains("\"Nf6\""), "{err}");
        // Passing while in check would let the king be taken.
        let err = read_str("1. e4 f6 2. Qh5+ -- 3. Qxe8 *")
            .remove(0)
            .unwrap_err();
        assert!(
            matches!(err.kind, PgnErrorKind::NullMoveInCheck(_)),
            "{err}"
        );
    }

    #[test]
    fn escapes_tags_and_reads_them_back() {
        let game = read_str("[White \"A \\\"B\\\" \\\\ C\"]\n*")
            .remove(0)
            .unwrap();
        assert_eq!(game.tag("White"), Some("A \"B\" \\ C"));
        let text = write(&game);
        assert!(text.contains("[White \"A \\\"B\\\" \\\\ C\"]"));
        assert_eq!(
            read_str(&text).remove(0).unwrap().tag("White"),
            game.tag("White")
        );
    }

    #[test]
    fn chess960_and_setup_headers() {
        let text = "[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"rk6/8/8/8/8/8/8/RK6 w Aa - 0 1\"]\n\n1. O-O-O *";
        let game = read_str(text).remove(0).unwrap();
        assert!(game.chess960);
        assert!(game.mainline.nodes[0].mv.is_castle());
    }

    #[test]
    fn nested_variations_comments_and_nags() {
        let text =
            "1. e4 {a} (1. d4 d5 (1... Nf6 2. c4) 2. c4) 1... e5 $1 ; rest of line\n2. Nf3 !? *";
        let game = read_str(text).remove(0).unwrap();
        let v = &game.mainline.nodes[0].variations[0];
        assert_eq!(v.nodes[1].variations[0].nodes[1].mv.to(), crate::Square::C4);
        assert_eq!(game.mainline.nodes[1].nags, vec![1]);
        assert_eq!(game.mainline.nodes[2].nags, vec![5]);
        let again = read_str(&write(&game)).remove(0).unwrap();
        assert_eq!(again.mainline, game.mainline);
    }

    #[test]
    fn variations_start_before_their_move_whatever_stands_between() {
        // Comments, a move number, a glyph and a NAG between a move and its alternatives; a
        // second alternative after the first closed.
        let text = "1. e4 e5 2. Nf3 {c} 2. !? $1 (2. Nc3 Nc6 (2... Nf6) 3. f4) (2. Bc4) 2... Nc6 *";
        let game = read_str(text).remove(0).unwrap();
        let nf3 = &game.mainline.nodes[2];
        let firsts: Vec<_> = nf3.variations.iter().map(|v| v.nodes[0].mv.to()).collect();
        assert_eq!(firsts, [crate::Square::C3, crate::Square::C4]);
        let inner = &nf3.variations[0].nodes[1].variations[0];
        assert_eq!(inner.nodes[0].mv.to(), crate::Square::F6);
        assert_eq!(nf3.variations[0].nodes[2].mv.to(), crate::Square::F4);
        assert_eq!(game.mainline.nodes[3].mv.to(), crate::Square::C6);
    }

    /// `1. e4 (1. d4 (1. d4 … ))) *`, the variations nested `depth` levels deep.
    fn nested(depth: usize) -> String {
        format!("1. e4 {}{} *", "(1. d4 ".repeat(depth), ")".repeat(depth))
    }

    #[test]
    fn variations_nest_up_to_the_stated_depth_and_no_deeper() {
        let game = read_str(&nested(MAX_VARIATION_DEPTH)).remove(0).unwrap();
        assert_eq!(game.ply_count(), 1 + MAX_VARIATION_DEPTH);
        let again = read_str(&write(&game)).remove(0).unwrap();
        assert_eq!(again.mainline, game.mainline);
        for depth in [MAX_VARIATION_DEPTH + 1, 3_000, 100_000] {
            let err = read_str(&nested(depth)).remove(0).unwrap_err();
            assert_eq!(err.kind, PgnErrorKind::TooDeep, "{depth}");
        }
        // A visitor that skips variations is held to the same depth.
        struct Plies(usize);
        impl Visitor for Plies {
            type Output = usize;
            fn begin_variation(&mut self) -> Variation {
                Variation::Skip
            }
            fn end_game(&mut self, _result: Option<&str>) -> usize {
                self.0
            }
        }
        let read = |text: String| {
            Parser::new(text.as_bytes())
                .read_game(&mut Plies(0))
                .unwrap()
        };
        assert!(read(nested(MAX_VARIATION_DEPTH)).is_ok());
        let err = read(nested(MAX_VARIATION_DEPTH + 1)).unwrap_err();
        assert_eq!(err.kind, PgnErrorKind::TooDeep);
    }

    #[test]
    fn stray_closing_brackets_are_errors_not_hangs() {
        for text in ["1. e4 } e5 *", "1. e4 ] *", "}", "]]]"] {
            let results = read_str(text);
            assert!(results.iter().any(|r| r.is_err()), "{text}");
        }
        assert_eq!(
            read_str("1. e4 } *")[0].as_ref().unwrap_err().to_string(),
            "game 1, line 1, column 7: unexpected '}'"
        );
    }

    #[test]
    fn braces_in_tag_values_do_not_open_comments() {
        // Found by fuzzing: a '{' inside a tag value hid the next game's start.
        let text =
            "[Event \"a { b\"]\n[Site \"x ( y\"]\n\n1. e4 e5 *\n\n[Event \"n2\"]\n\n1. d4 *\n";
        let games = read_str(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].as_ref().unwrap().tag("Event"), Some("a { b"));
        let again = read_str(&write(games[0].as_ref().unwrap()));
        assert_eq!(again.len(), 1);
    }

    /// Hands out its input a few bytes at a time, as a pipe may.
    struct Trickle<'a>(&'a [u8], usize);

    impl std::io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.1 = self.1 % 7 + 1;
            let n = self.1.min(self.0.len()).min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn a_trickling_stream_reads_like_a_string() {
        let text = "\u{feff}[Event \"a\"]\n% an escape line { not a comment\n\n1. e4 {a comment\nover two lines} e5 (1... c5 2. Nf3) 2. Nf3 1-0\n\n\
                    [Event \"b\"]\n\n1. e4 e5 2. Qxf7 *\n\n1. d4 ; to the end\nd5 1/2-1/2\n";
        let whole = read_str(text);
        let trickled: Vec<_> = Reader::new(Trickle(text.as_bytes(), 0)).collect();
        assert_eq!(whole, trickled);
        assert_eq!(whole.len(), 3);
        assert_eq!(whole[0].as_ref().unwrap().tag("Event"), Some("a"));
        assert_eq!(whole[0].as_ref().unwrap().mainline.nodes.len(), 3);
        assert!(whole[1].is_err());
        assert_eq!(whole[2].as_ref().unwrap().result, "1/2-1/2");
    }

    #[test]
    fn a_visitor_may_skip_variations() {
        struct MainLine(Vec<Move>);
        impl Visitor for MainLine {
            type Output = usize;
            fn play(&mut self, _before: &Position, mv: Move) {
                self.0.push(mv);
            }
            fn end_game(&mut self, _result: Option<&str>) -> usize {
                self.0.len()
            }
        }
        // The variation holds an illegal move: skipped, it is never read.
        let mut parser = Parser::new(&b"1. e4 (1. Ke5 Qxh7) 1... e5 2. Nf3 *"[..]);
        let mut visitor = MainLine(Vec::new());
        assert_eq!(parser.read_game(&mut visitor), Some(Ok(3)));
        assert!(read_str("1. e4 (1. Ke5 Qxh7) 1... e5 2. Nf3 *")[0].is_err());
    }

    #[test]
    fn clocks() {
        assert_eq!(parse_clock("[%clk 1:30:00]"), Some(5_400_000));
        assert_eq!(parse_clock("x [%clk 0:00:09.3] y"), Some(9_300));
        assert_eq!(parse_clock("[%clk 0:61:00]"), None);
    }
}
