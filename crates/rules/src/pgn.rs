//! PGN: reading many games from a stream (tags, comments, NAGs, nested variations, `%` escape
//! lines, a BOM, set-up positions, Chess960), with errors that name the game, line and column;
//! and writing the PGN export format (Seven Tag Roster first, lines of at most 80 columns).

use crate::{Move, Position};
use std::fmt;
use std::io::BufRead;

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
            pos.play_unchecked(node.mv);
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
/// let err = vizier_rules::pgn::read_str("1. e4 e5 2. Ke3 *").remove(0).unwrap_err();
/// assert_eq!(err.to_string(), "game 1, line 1, column 13: \"Ke3\" is not a legal move here");
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
    pub message: String,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}, line {}, column {}: {}",
            self.game, self.line, self.column, self.message
        )
    }
}

impl std::error::Error for PgnError {}

/// Reads games one at a time from a buffered stream; a bad game yields an error and reading
/// goes on with the next one.
///
/// ```
/// let input = "1. e4 e5 *\n\n1. e5 *\n\n1. d4 *\n";
/// let results: Vec<_> = vizier_rules::pgn::Reader::new(input.as_bytes()).collect();
/// assert_eq!(results.len(), 3);
/// assert!(results[0].is_ok() && results[1].is_err() && results[2].is_ok());
/// ```
pub struct Reader<R> {
    input: R,
    line_no: usize,
    game_no: usize,
    pending: Option<String>,
    buf: Vec<u8>,
    done: bool,
}

impl<R: BufRead> Reader<R> {
    /// Wraps a stream.
    ///
    /// ```
    /// let mut r = vizier_rules::pgn::Reader::new(&b""[..]);
    /// assert!(r.next().is_none());
    /// ```
    pub fn new(input: R) -> Reader<R> {
        Reader {
            input,
            line_no: 0,
            game_no: 0,
            pending: None,
            buf: Vec::new(),
            done: false,
        }
    }

    /// Reads the next line (or the pending one) into `line`; false at the end of input.
    fn next_line(&mut self, line: &mut String) -> bool {
        if let Some(pending) = self.pending.take() {
            *line = pending;
            return true;
        }
        self.buf.clear();
        match self.input.read_until(b'\n', &mut self.buf) {
            Ok(0) | Err(_) => false,
            Ok(_) => {
                self.line_no += 1;
                line.clear();
                match std::str::from_utf8(&self.buf) {
                    Ok(text) => line.push_str(text),
                    Err(_) => line.push_str(&String::from_utf8_lossy(&self.buf)),
                }
                if self.line_no == 1 && line.starts_with('\u{feff}') {
                    line.drain(..3);
                }
                true
            }
        }
    }

    /// Collects the lines of the next game: its tag section and movetext, up to the next tag
    /// line that follows movetext (outside a comment) or the line with the game's result.
    /// Returns the text and its first line.
    fn next_chunk(&mut self) -> Option<(String, usize)> {
        let mut chunk = String::new();
        let mut first_line = 0;
        let mut seen_movetext = false;
        let mut in_comment = false;
        let mut depth = 0i32;
        let mut line = String::new();
        while self.next_line(&mut line) {
            let trimmed = line.trim_start();
            let tag_line = !in_comment && trimmed.starts_with('[');
            if !in_comment && line.starts_with('%') {
                chunk.push('\n'); // keep line numbers aligned
                continue;
            }
            if tag_line && seen_movetext {
                self.pending = Some(std::mem::take(&mut line));
                break;
            }
            if first_line == 0 && !trimmed.is_empty() {
                first_line = self.line_no;
            }
            if first_line == 0 {
                continue;
            }
            if !in_comment && !trimmed.is_empty() && !tag_line {
                seen_movetext = true;
            }
            // Scan bytes: every delimiter is ASCII, and UTF-8 never hides ASCII inside a
            // multi-byte character.
            let bytes = line.as_bytes();
            let mut in_line_comment = false;
            let mut word_start = None;
            let mut ended = false;
            // A tag line's quoted value may hold braces or parentheses: only movetext counts.
            let mut i = if tag_line { bytes.len() + 1 } else { 0 };
            while i <= bytes.len() {
                if in_comment {
                    // Jump to the end of the comment (a fast byte search).
                    match line[i..].find('}') {
                        Some(off) => {
                            in_comment = false;
                            i += off + 1;
                            continue;
                        }
                        None => break,
                    }
                }
                let b = bytes.get(i).copied().unwrap_or(b'\n');
                let outside = !in_line_comment;
                if outside
                    && !tag_line
                    && (b.is_ascii_whitespace() || matches!(b, b'{' | b'}' | b'(' | b')' | b';'))
                {
                    if let Some(ws) = word_start.take()
                        && depth == 0
                        && matches!(&bytes[ws..i], b"1-0" | b"0-1" | b"1/2-1/2" | b"*")
                    {
                        ended = true;
                    }
                } else if outside && word_start.is_none() {
                    word_start = Some(i);
                }
                match b {
                    b'{' if outside => in_comment = true,
                    b'}' if in_comment => in_comment = false,
                    b';' if outside => in_line_comment = true,
                    b'(' if outside => depth += 1,
                    b')' if outside => depth -= 1,
                    _ => {}
                }
                i += 1;
            }
            chunk.push_str(&line);
            if ended {
                break;
            }
        }
        (first_line != 0).then_some((chunk, first_line))
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<Game, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let Some((text, first_line)) = self.next_chunk() else {
            self.done = true;
            return None;
        };
        self.game_no += 1;
        Some(parse_game(&text, first_line, self.game_no))
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

#[derive(Debug, PartialEq)]
enum Token<'a> {
    Tag(String, String),
    Comment(&'a str),
    Open,
    Close,
    Nag(u8),
    Result(&'a str),
    Symbol(&'a str),
}

/// A token or an error message, with its line and column.
type Located<T> = (T, usize, usize);

struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
    line_start: usize,
    col_line_start: usize,
    col_byte: usize,
    col_chars: usize,
}

impl<'a> Lexer<'a> {
    /// The 1-based column (in characters) of byte offset `at`, counted incrementally: tokens
    /// come in order, so each character is counted once (long lines stay linear).
    fn column(&mut self, at: usize) -> usize {
        if self.col_line_start != self.line_start || self.col_byte > at {
            self.col_line_start = self.line_start;
            self.col_byte = self.line_start;
            self.col_chars = 0;
        }
        self.col_chars += self.text[self.col_byte..at].chars().count();
        self.col_byte = at;
        self.col_chars + 1
    }

    fn bump_lines(&mut self, from: usize, to: usize) {
        if !self.text[from..to].contains('\n') {
            return;
        }
        for (i, b) in self.text.as_bytes()[from..to].iter().enumerate() {
            if *b == b'\n' {
                self.line += 1;
                self.line_start = from + i + 1;
            }
        }
    }

    /// The next token with its line and column, or an error message.
    fn next(&mut self) -> Option<Result<Located<Token<'a>>, Located<String>>> {
        let bytes = self.text.as_bytes();
        loop {
            while self.pos < bytes.len() && bytes[self.pos].is_ascii_whitespace() {
                if bytes[self.pos] == b'\n' {
                    self.line += 1;
                    self.line_start = self.pos + 1;
                }
                self.pos += 1;
            }
            if self.pos >= bytes.len() {
                return None;
            }
            if bytes[self.pos] == b';' {
                while self.pos < bytes.len() && bytes[self.pos] != b'\n' {
                    self.pos += 1;
                }
                continue;
            }
            break;
        }
        let (start, line, col) = (self.pos, self.line, self.column(self.pos));
        let err = |msg: String| Some(Err((msg, line, col)));
        let tok = match bytes[start] {
            b'{' => {
                let Some(len) = self.text[start + 1..].find('}') else {
                    self.pos = bytes.len();
                    return err("comment opened with '{' is never closed".into());
                };
                let end = start + 1 + len;
                self.bump_lines(start, end);
                self.pos = end + 1;
                Token::Comment(self.text[start + 1..end].trim())
            }
            b'(' => {
                self.pos += 1;
                Token::Open
            }
            b')' => {
                self.pos += 1;
                Token::Close
            }
            b'[' => {
                let Some(len) = self.text[start..].find(']') else {
                    self.pos = bytes.len();
                    return err("tag opened with '[' is never closed".into());
                };
                // A ']' inside the quoted value does not end the tag.
                let mut end = start + len;
                let inner = &self.text[start + 1..];
                let mut value_end = None;
                if let Some(q) = inner.find('"') {
                    let mut i = q + 1;
                    let ib = inner.as_bytes();
                    while i < ib.len() {
                        match ib[i] {
                            b'\\' => i += 2,
                            b'"' => {
                                value_end = Some(i);
                                break;
                            }
                            _ => i += 1,
                        }
                    }
                    if let Some(v) = value_end
                        && let Some(close) = inner[v..].find(']')
                    {
                        end = start + 1 + v + close;
                    }
                }
                let body = &self.text[start + 1..end];
                self.bump_lines(start, end);
                self.pos = end + 1;
                let body = body.trim();
                let (name, rest) = body.split_at(
                    body.find(|c: char| c.is_whitespace() || c == '"')
                        .unwrap_or(body.len()),
                );
                let rest = rest.trim();
                if name.is_empty()
                    || !rest.starts_with('"')
                    || !rest.ends_with('"')
                    || rest.len() < 2
                {
                    return err(format!("malformed tag [{body}]: expected [Name \"value\"]"));
                }
                let value = rest[1..rest.len() - 1]
                    .replace("\\\"", "\"")
                    .replace("\\\\", "\\");
                Token::Tag(name.to_string(), value)
            }
            b'$' => {
                let end = self.text[start + 1..]
                    .find(|c: char| !c.is_ascii_digit())
                    .map_or(bytes.len(), |e| start + 1 + e);
                self.pos = end;
                match self.text[start + 1..end].parse::<u8>() {
                    Ok(n) => Token::Nag(n),
                    Err(_) => {
                        return err(format!(
                            "bad annotation glyph \"{}\"",
                            &self.text[start..end]
                        ));
                    }
                }
            }
            _ => {
                let end = bytes[start..]
                    .iter()
                    .position(|&b| {
                        b.is_ascii_whitespace()
                            || matches!(b, b'{' | b'}' | b'(' | b')' | b'[' | b']' | b';' | b'$')
                    })
                    .map_or(bytes.len(), |e| start + e);
                self.pos = end;
                if end == start {
                    // A stray '}' or ']': step over it so that reading always advances.
                    let c = self.text[start..].chars().next().unwrap_or(' ');
                    self.pos = start + c.len_utf8();
                    return err(format!("unexpected '{c}'"));
                }
                let word = &self.text[start..end];
                match word {
                    "1-0" | "0-1" | "1/2-1/2" | "*" | "½-½" => Token::Result(word),
                    _ => Token::Symbol(word),
                }
            }
        };
        Some(Ok((tok, line, col)))
    }
}

/// Splits a move symbol into the move number prefix (dropped), the SAN and suffix glyphs.
fn split_symbol(word: &str) -> (&str, Option<u8>) {
    // A move number is digits followed by dots ("12." or "12..."); "0-0" is castling.
    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let word = if word[digits..].starts_with('.') {
        word[digits..].trim_start_matches('.')
    } else {
        word
    };
    let san_end = word.trim_end_matches(['!', '?']).len();
    let nag = match &word[san_end..] {
        "" => None,
        "!" => Some(1),
        "?" => Some(2),
        "!!" => Some(3),
        "??" => Some(4),
        "!?" => Some(5),
        "?!" => Some(6),
        _ => None,
    };
    (&word[..san_end], nag)
}

struct Frame {
    line: Line,
    pos: Position,
    before_last: Option<Position>,
}

fn parse_game(text: &str, first_line: usize, game_no: usize) -> Result<Game, PgnError> {
    let mut lexer = Lexer {
        text,
        pos: 0,
        line: first_line,
        line_start: 0,
        col_line_start: 0,
        col_byte: 0,
        col_chars: 0,
    };
    let fail = |message: String, line: usize, column: usize| PgnError {
        game: game_no,
        line,
        column,
        message,
    };
    let mut tags = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut start: Option<(Position, bool)> = None;
    let mut result = None;
    while let Some(next) = lexer.next() {
        let (tok, line, col) = next.map_err(|(m, l, c)| fail(m, l, c))?;
        if result.is_some() {
            // Anything after the termination marker belongs to no game; a later game's tags
            // were already split off, so only stray text can be here.
            return Err(fail("text after the game's result".into(), line, col));
        }
        if let Token::Tag(name, value) = tok {
            if start.is_some() {
                return Err(fail(
                    format!("tag [{name}] after the moves began"),
                    line,
                    col,
                ));
            }
            tags.push((name, value));
            continue;
        }
        if start.is_none() {
            let (pos, chess960) = start_position(&tags).map_err(|m| fail(m, line, col))?;
            stack.push(Frame {
                line: Line::default(),
                pos: pos.clone(),
                before_last: None,
            });
            start = Some((pos, chess960));
        }
        let frame = stack.last_mut().expect("a frame while reading moves");
        match tok {
            Token::Tag(..) => unreachable!(),
            Token::Comment(c) => {
                // Line breaks and runs of spaces inside a comment are layout, not content
                // (the export format rewraps them).
                let mut text = String::with_capacity(c.len());
                for word in c.split_whitespace() {
                    if !text.is_empty() {
                        text.push(' ');
                    }
                    text.push_str(word);
                }
                match frame.line.nodes.last_mut() {
                    Some(node) => node.comments.push(text),
                    None => frame.line.comments.push(text),
                }
            }
            Token::Nag(n) => match frame.line.nodes.last_mut() {
                Some(node) => node.nags.push(n),
                None => return Err(fail(format!("annotation ${n} before any move"), line, col)),
            },
            Token::Open => {
                let Some(before) = frame.before_last.clone() else {
                    return Err(fail(
                        "variation '(' before any move it could replace".into(),
                        line,
                        col,
                    ));
                };
                stack.push(Frame {
                    line: Line::default(),
                    pos: before,
                    before_last: None,
                });
            }
            Token::Close => {
                if stack.len() < 2 {
                    return Err(fail("')' without a matching '('".into(), line, col));
                }
                let done = stack.pop().expect("checked").line;
                let parent = stack.last_mut().expect("checked");
                parent
                    .line
                    .nodes
                    .last_mut()
                    .expect("a variation follows a move")
                    .variations
                    .push(done);
            }
            Token::Result(r) => {
                if stack.len() > 1 {
                    return Err(fail(format!("result {r} inside a variation"), line, col));
                }
                result = Some(if r == "½-½" { "1/2-1/2" } else { r }.to_string());
            }
            Token::Symbol(word) => {
                let (san, nag) = split_symbol(word);
                if san.is_empty() {
                    // A move number such as "12." or "12...", or a glyph standing apart ("!?").
                    if let (Some(n), Some(node)) = (nag, frame.line.nodes.last_mut()) {
                        node.nags.push(n);
                    }
                    continue;
                }
                if san == "--" || san == "Z0" {
                    return Err(fail(
                        format!("null move \"{san}\" is not a legal move"),
                        line,
                        col,
                    ));
                }
                let m = frame
                    .pos
                    .parse_san_lenient(san)
                    .map_err(|e| fail(e.to_string(), line, col))?;
                let mut next = frame.pos.clone();
                next.play_unchecked(m);
                frame.before_last = Some(std::mem::replace(&mut frame.pos, next));
                frame.line.nodes.push(Node {
                    mv: m,
                    nags: nag.into_iter().collect(),
                    comments: Vec::new(),
                    variations: Vec::new(),
                });
            }
        }
    }
    if stack.len() > 1 {
        return Err(fail("variation '(' is never closed".into(), lexer.line, 1));
    }
    let (start, chess960) = match start {
        Some(s) => s,
        None => start_position(&tags).map_err(|m| fail(m, lexer.line, 1))?,
    };
    let mainline = stack.pop().map(|f| f.line).unwrap_or_default();
    // Without a termination marker, the Result tag stands in if it is a valid one.
    let result = result.or_else(|| {
        tags.iter()
            .find(|(k, v)| k == "Result" && matches!(v.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*"))
            .map(|(_, v)| v.clone())
    });
    Ok(Game {
        tags,
        start,
        chess960,
        mainline,
        result: result.unwrap_or_else(|| "*".into()),
    })
}

fn start_position(tags: &[(String, String)]) -> Result<(Position, bool), String> {
    let tag = |name: &str| {
        tags.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    };
    let variant_960 = tag("Variant").is_some_and(|v| {
        let v = v.to_ascii_lowercase();
        v.contains("960") || v.contains("fischer")
    });
    if let Some(v) = tag("Variant") {
        let lower = v.to_ascii_lowercase();
        if !(variant_960 || lower == "standard" || lower.is_empty() || lower == "from position") {
            return Err(format!("variant \"{v}\" is not supported"));
        }
    }
    let pos = match tag("FEN") {
        Some(fen) => Position::from_fen(fen).map_err(|e| format!("bad FEN tag \"{fen}\": {e}"))?,
        None => Position::new(),
    };
    let chess960 = variant_960 || pos.is_chess960();
    Ok((pos, chess960))
}

// ----- writing -----

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

fn write_line(w: &mut Words, line: &Line, start: &Position) {
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
        w.word(&pos.san(node.mv));
        for nag in &node.nags {
            w.word(&format!("${nag}"));
        }
        for c in &node.comments {
            w.comment(c);
        }
        need_number = !node.comments.is_empty();
        for variation in &node.variations {
            w.open();
            write_line(w, variation, &pos);
            w.close();
            need_number = true;
        }
        pos.play_unchecked(node.mv);
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
/// ```
pub fn write(game: &Game) -> String {
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
    for (name, value) in &game.tags {
        if !ROSTER.iter().any(|(r, _)| r == name) {
            out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
        }
    }
    out.push('\n');
    let mut words = Words::default();
    write_line(&mut words, &game.mainline, &game.start);
    words.word(&game.result);
    words.wrap(&mut out);
    out.push_str("\n\n");
    out
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

    #[test]
    fn clocks() {
        assert_eq!(parse_clock("[%clk 1:30:00]"), Some(5_400_000));
        assert_eq!(parse_clock("x [%clk 0:00:09.3] y"), Some(9_300));
        assert_eq!(parse_clock("[%clk 0:61:00]"), None);
    }
}
