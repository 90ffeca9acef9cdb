//! Reading PGN. A stream is cut into games in one pass over its bytes ([`Input`]); each game's
//! text is then tokenized in place and its moves resolved and played, each step reported to
//! a [`Visitor`]. Nothing is copied or allocated per move unless the visitor wants it.

use std::borrow::Cow;
use std::io::Read;

use super::PgnError;
use crate::{Move, Position};

const fn byte_set(bytes: &[u8]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < bytes.len() {
        t[bytes[i] as usize] = true;
        i += 1;
    }
    t
}

/// Bytes where the splitter looks again: ASCII white space, comments and variations.
const SPLITTER_STOPS: [bool; 256] = byte_set(b" \t\n\r\x0c{}();");
/// Bytes that end a word for the lexer: the splitter's and tag brackets and NAG marks.
const ENDS_WORD: [bool; 256] = byte_set(b" \t\n\r\x0c{}();[]$");
/// Bytes that the splitter leaves inside a word but the lexer does not: such a word is the
/// lexer's to read.
const LEXER_ONLY: [bool; 256] = byte_set(b"[]$");

/// How far the word at the start of `bytes` runs (to a splitter stop or the end), and whether
/// it holds a byte that only the lexer reads.
#[inline]
fn scan_word(bytes: &[u8]) -> (usize, bool) {
    let mut odd = false;
    for (k, &b) in bytes.iter().enumerate() {
        if SPLITTER_STOPS[b as usize] {
            return (k, odd);
        }
        odd |= LEXER_ONLY[b as usize];
    }
    (bytes.len(), odd)
}

/// What to do with a variation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variation {
    /// Read it: its moves are resolved and reported.
    Enter,
    /// Pass over it unread (its moves are not checked).
    Skip,
}

/// Receives one game at a time from a [`Parser`]. Every method but [`Visitor::end_game`] has
/// a default that ignores its input. If the game turns out to be malformed, the parser stops
/// calling the visitor and returns the error instead of `end_game`'s output.
///
/// ```
/// use vizier_rules::pgn::{Parser, Visitor};
/// use vizier_rules::{Move, Position};
///
/// /// Counts the main-line moves of each game.
/// struct Plies(usize);
/// impl Visitor for Plies {
///     type Output = usize;
///     fn begin_game(&mut self) { self.0 = 0; }
///     fn play(&mut self, _before: &Position, _mv: Move) { self.0 += 1; }
///     fn end_game(&mut self, _result: Option<&str>) -> usize { self.0 }
/// }
///
/// let mut parser = Parser::new(&b"1. e4 e5 (1... c5) 2. Nf3 *\n\n1. d4 *\n"[..]);
/// let mut plies = Plies(0);
/// assert_eq!(parser.read_game(&mut plies), Some(Ok(3)));
/// assert_eq!(parser.read_game(&mut plies), Some(Ok(1)));
/// assert_eq!(parser.read_game(&mut plies), None);
/// ```
pub trait Visitor {
    /// What a game becomes.
    type Output;

    /// A new game begins.
    fn begin_game(&mut self) {}

    /// A tag pair, its value unescaped.
    fn tag(&mut self, _name: &str, _value: &str) {}

    /// The movetext begins from `start` (from the `FEN` tag, else the standard start);
    /// `chess960` from the `Variant` tag or the position. Called once per game, even one
    /// without moves.
    fn begin_moves(&mut self, _start: &Position, _chess960: bool) {}

    /// A comment, without its braces (and trimmed).
    fn comment(&mut self, _text: &str) {}

    /// A numeric annotation glyph (`$n`, or a suffix such as `!?`) for the last move.
    fn nag(&mut self, _nag: u8) {}

    /// A legal move, played from `before`.
    fn play(&mut self, _before: &Position, _mv: Move) {}

    /// A variation begins: an alternative to the last move played.
    fn begin_variation(&mut self) -> Variation {
        Variation::Skip
    }

    /// The variation entered last ends.
    fn end_variation(&mut self) {}

    /// The game ends, with its termination marker (or a valid `Result` tag when the movetext
    /// has none).
    fn end_game(&mut self, result: Option<&str>) -> Self::Output;
}

/// Cuts a byte stream into games without copying them: a game ends with its termination
/// marker (outside comments and variations) or where a tag line follows movetext.
struct Input<R> {
    reader: R,
    buf: Vec<u8>,
    /// Start of the unread part of `buf`.
    start: usize,
    /// The line number at `start`.
    line: usize,
    eof: bool,
    /// Whether reading has begun (a byte-order mark is looked for first).
    started: bool,
    /// The movetext tokens found while cutting out the last game, offsets from where its
    /// scan began, so that the parser need not scan the text again.
    tokens: Vec<Raw>,
}

/// What the splitter saw of a token: the parser turns it into a [`Token`]. Anything the
/// splitter does not take apart itself (a tag, a glyph glued to a move, a stray brace)
/// becomes [`RawKind::Lex`]: the lexer takes over from there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Raw {
    kind: RawKind,
    start: usize,
    end: usize,
    line: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RawKind {
    /// A word (a move, move number or glyph) that only the splitter's bytes end.
    Word,
    /// A termination marker.
    Result,
    /// A comment, braces included.
    Comment,
    Open,
    Close,
    /// Text the lexer must read from here on.
    Lex,
}

impl<R: Read> Input<R> {
    /// Reads more of the stream into `buf`, first dropping what was already returned. Returns
    /// whether anything was read, and by how much offsets into `buf` moved down.
    fn fill(&mut self) -> (bool, usize) {
        let shift = self.start;
        if shift > 0 {
            self.buf.drain(..shift);
            self.start = 0;
        }
        let len = self.buf.len();
        self.buf.resize(len + (64 << 10).max(len), 0);
        loop {
            match self.reader.read(&mut self.buf[len..]) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Ok(0) | Err(_) => {
                    self.buf.truncate(len);
                    self.eof = true;
                    return (false, shift);
                }
                Ok(n) => {
                    self.buf.truncate(len + n);
                    return (true, shift);
                }
            }
        }
    }

    /// The next game as (start, end) in `buf` and the number of its first line.
    fn next_game(&mut self) -> Option<(usize, usize, usize)> {
        if !self.started {
            // A byte-order mark at the very start is not text.
            self.started = true;
            while self.buf.len() < 3 && self.fill().0 {}
            if self.buf.starts_with("\u{feff}".as_bytes()) {
                self.start = 3;
            }
        }
        let mut i = self.start;
        let mut line = self.line;
        // Token offsets count from where this scan began, which moves down with the buffer.
        let mut base = self.start;
        self.tokens.clear();
        // Where the open comment began (from `base`) and on which line.
        let mut comment_start = (0, 0);
        // The first non-blank line: where the game's text begins.
        let mut first: Option<(usize, usize)> = None;
        let mut at_line_start = true;
        let mut in_comment = false;
        let mut tag_line = false;
        let mut line_comment = false;
        let mut seen_movetext = false;
        let mut depth = 0i32;
        let mut word_start: Option<usize> = None;
        let mut word_odd = false;
        let mut ended = false;
        loop {
            if i >= self.buf.len() {
                if self.eof {
                    break;
                }
                let (more, shift) = self.fill();
                i -= shift;
                base -= shift;
                word_start = word_start.map(|w| w - shift);
                first = first.map(|(f, l)| (f - shift, l));
                if !more {
                    break;
                }
                continue;
            }
            if at_line_start && in_comment {
                at_line_start = false;
            } else if at_line_start {
                // How the line starts decides what it is; an escape line or one that starts
                // with a non-ASCII character is looked at whole.
                let rest = &self.buf[i..];
                let lead = rest
                    .iter()
                    .position(|&b| !matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c))
                    .map(|k| rest[k]);
                let whole_line = matches!(lead, None | Some(b'%' | 0x80..));
                let line_end = if whole_line {
                    memchr::memchr(b'\n', rest)
                } else {
                    Some(0)
                };
                if line_end.is_none() && !self.eof {
                    // Read on until the line ends.
                    let (_, shift) = self.fill();
                    i -= shift;
                    base -= shift;
                    word_start = word_start.map(|w| w - shift);
                    first = first.map(|(f, l)| (f - shift, l));
                    continue;
                }
                at_line_start = false;
                tag_line = false;
                line_comment = false;
                let content = if !whole_line {
                    lead.unwrap_or(b'\n')
                } else {
                    let line_end = i + line_end.unwrap_or(self.buf.len() - i);
                    if self.buf[i] == b'%' {
                        // An escape line: blanked in place, so it reads as an empty line.
                        self.buf[i..line_end].fill(b' ');
                    }
                    // Any Unicode white space counts as blank (a full-width space too).
                    let text = String::from_utf8_lossy(&self.buf[i..line_end]);
                    text.trim().bytes().next().unwrap_or(b'\n')
                };
                if content == b'[' {
                    if seen_movetext {
                        break; // the next game's tags
                    }
                    tag_line = true;
                }
                if content != b'\n' {
                    if first.is_none() {
                        first = Some((i, line));
                    }
                    if !tag_line {
                        seen_movetext = true;
                    }
                }
            }
            let b = self.buf[i];
            if b == b'\n' {
                if let Some(w) = word_start.take() {
                    ended |= self.push_word(w, i, base, line, word_odd) && depth == 0;
                }
                line += 1;
                i += 1;
                at_line_start = true;
                if ended {
                    break;
                }
                continue;
            }
            if in_comment {
                match memchr::memchr2(b'}', b'\n', &self.buf[i..]) {
                    Some(off) if self.buf[i + off] == b'}' => {
                        in_comment = false;
                        self.tokens.push(Raw {
                            kind: RawKind::Comment,
                            start: comment_start.0,
                            end: i + off + 1 - base,
                            line: comment_start.1,
                        });
                        i += off + 1;
                    }
                    Some(off) => i += off,
                    None => i = self.buf.len(),
                }
                continue;
            }
            if tag_line || line_comment || first.is_none() {
                // Nothing here can end the game: on to the end of the line.
                i += memchr::memchr(b'\n', &self.buf[i..]).unwrap_or(self.buf.len() - i);
                continue;
            }
            if SPLITTER_STOPS[b as usize] {
                if let Some(w) = word_start.take() {
                    ended |= self.push_word(w, i, base, line, word_odd) && depth == 0;
                }
                let kind = match b {
                    b'{' => {
                        in_comment = true;
                        comment_start = (i - base, line);
                        None
                    }
                    b';' => {
                        line_comment = true;
                        None
                    }
                    b'(' => {
                        depth += 1;
                        Some(RawKind::Open)
                    }
                    b')' => {
                        depth -= 1;
                        Some(RawKind::Close)
                    }
                    b'}' => Some(RawKind::Lex),
                    _ => None,
                };
                if let Some(kind) = kind {
                    self.tokens.push(Raw {
                        kind,
                        start: i - base,
                        end: i + 1 - base,
                        line,
                    });
                }
                i += 1;
            } else {
                // A word: on to its end at once, noting whether the lexer must read it.
                if word_start.is_none() {
                    word_start = Some(i);
                    word_odd = false;
                }
                let (len, odd) = scan_word(&self.buf[i..]);
                word_odd |= odd;
                i += len;
            }
        }
        if let Some(w) = word_start {
            self.push_word(w, i, base, line, word_odd);
        }
        if in_comment {
            // Never closed: the lexer says so.
            self.tokens.push(Raw {
                kind: RawKind::Lex,
                start: comment_start.0,
                end: i - base,
                line: comment_start.1,
            });
        }
        // From here on offsets count from the game's first byte.
        let from = first.map_or(i, |(f, _)| f);
        for t in &mut self.tokens {
            t.start -= from - base;
            t.end -= from - base;
        }
        self.start = i;
        self.line = line;
        first.map(|(from, first_line)| (from, i, first_line))
    }
}

impl<R> Input<R> {
    /// Records the word `buf[start..end]`; returns whether it is a termination marker.
    fn push_word(&mut self, start: usize, end: usize, base: usize, line: usize, odd: bool) -> bool {
        let result = is_result(&self.buf[start..end]);
        let kind = match (odd, result) {
            (true, _) => RawKind::Lex,
            (false, true) => RawKind::Result,
            (false, false) => RawKind::Word,
        };
        self.tokens.push(Raw {
            kind,
            start: start - base,
            end: end - base,
            line,
        });
        result
    }
}

fn is_result(word: &[u8]) -> bool {
    matches!(word, b"1-0" | b"0-1" | b"1/2-1/2" | b"*")
}

/// Reads games from a stream one at a time, driving a [`Visitor`] through each; a bad game
/// gives an error and reading goes on with the next one.
pub struct Parser<R> {
    input: Input<R>,
    game_no: usize,
}

impl<R: Read> Parser<R> {
    /// Wraps a stream.
    ///
    /// ```
    /// let mut p = vizier_rules::pgn::Parser::new(&b""[..]);
    /// assert!(p.read_game(&mut vizier_rules::pgn::GameBuilder::default()).is_none());
    /// ```
    pub fn new(reader: R) -> Parser<R> {
        Parser {
            input: Input {
                reader,
                buf: Vec::new(),
                start: 0,
                line: 1,
                eof: false,
                started: false,
                tokens: Vec::new(),
            },
            game_no: 0,
        }
    }

    /// Reads the next game through `visitor`: its output, an error, or `None` at the end.
    pub fn read_game<V: Visitor>(
        &mut self,
        visitor: &mut V,
    ) -> Option<Result<V::Output, PgnError>> {
        let (from, to, first_line) = self.input.next_game()?;
        self.game_no += 1;
        let bytes = &self.input.buf[from..to];
        // Invalid UTF-8 is replaced, which moves the splitter's offsets: then the lexer reads all.
        let (text, raw) = match std::str::from_utf8(bytes) {
            Ok(text) => (Cow::Borrowed(text), &self.input.tokens[..]),
            Err(_) => (
                Cow::Owned(String::from_utf8_lossy(bytes).into_owned()),
                &[][..],
            ),
        };
        let tokens = Tokens::new(&text, first_line, raw);
        Some(parse_game(tokens, self.game_no, visitor))
    }
}

/// A token; where it begins is kept beside it (`Tokens::loc`), so that tokens stay small.
#[derive(Debug, PartialEq)]
enum Token<'a> {
    /// A tag pair: its name and its value, still escaped.
    Tag(&'a str, &'a str),
    Comment(&'a str),
    Open,
    Close,
    Nag(u8),
    Result(&'a str),
    Symbol(&'a str),
    /// Malformed text; the message is `Lexer::error_message`.
    Error,
}

/// `Loc::line_start` when it is to be found only if needed (for an error).
const LINE_START_UNKNOWN: usize = usize::MAX;

/// Where the line holding byte `at` of `text` begins.
fn line_start(text: &str, at: usize) -> usize {
    text[..at].rfind('\n').map_or(0, |n| n + 1)
}

/// Where a token starts: its line, and the byte offsets of that line and of the token (the
/// column in characters is only counted for an error).
#[derive(Clone, Copy, Default)]
struct Loc {
    line: usize,
    line_start: usize,
    at: usize,
}

struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    /// Where the last token began.
    loc: Loc,
    /// What was wrong, after a [`Token::Error`].
    error_message: String,
    line: usize,
    line_start: usize,
}

impl<'a> Lexer<'a> {
    fn error(&self, loc: Loc, message: String, game: usize) -> PgnError {
        let line_start = if loc.line_start == LINE_START_UNKNOWN {
            line_start(self.text, loc.at)
        } else {
            loc.line_start
        };
        PgnError {
            game,
            line: loc.line,
            column: self.text[line_start..loc.at].chars().count() + 1,
            message,
        }
    }

    /// Steps over white space and `;` comments; returns where the next token begins.
    fn skip_space(&mut self) -> usize {
        let bytes = self.text.as_bytes();
        loop {
            while self.pos < bytes.len() && bytes[self.pos].is_ascii_whitespace() {
                if bytes[self.pos] == b'\n' {
                    self.line += 1;
                    self.line_start = self.pos + 1;
                }
                self.pos += 1;
            }
            if self.pos < bytes.len() && bytes[self.pos] == b';' {
                while self.pos < bytes.len() && bytes[self.pos] != b'\n' {
                    self.pos += 1;
                }
                continue;
            }
            return self.pos;
        }
    }

    fn bump_lines(&mut self, from: usize, to: usize) {
        for (i, b) in self.text.as_bytes()[from..to].iter().enumerate() {
            if *b == b'\n' {
                self.line += 1;
                self.line_start = from + i + 1;
            }
        }
    }

    /// The next token (its place in `self.loc`).
    fn next(&mut self) -> Option<Token<'a>> {
        let bytes = self.text.as_bytes();
        let start = self.skip_space();
        if start >= bytes.len() {
            return None;
        }
        self.loc = Loc {
            line: self.line,
            line_start: self.line_start,
            at: start,
        };
        macro_rules! err {
            ($msg:expr) => {{
                self.error_message = $msg;
                return Some(Token::Error);
            }};
        }
        let tok = match bytes[start] {
            b'{' => {
                // One pass finds the end and counts the lines on the way.
                let mut end = start + 1;
                while end < bytes.len() && bytes[end] != b'}' {
                    if bytes[end] == b'\n' {
                        self.line += 1;
                        self.line_start = end + 1;
                    }
                    end += 1;
                }
                if end == bytes.len() {
                    self.pos = bytes.len();
                    err!("comment opened with '{' is never closed".into());
                }
                self.pos = end + 1;
                Token::Comment(crate::notation::trim(&self.text[start + 1..end]))
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
                let Some(len) = bytes[start..].iter().position(|&b| b == b']') else {
                    self.pos = bytes.len();
                    err!("tag opened with '[' is never closed".into());
                };
                // A ']' inside the quoted value does not end the tag.
                let mut end = start + len;
                let inner = &bytes[start + 1..];
                if let Some(q) = inner.iter().position(|&b| b == b'"') {
                    let mut i = q + 1;
                    let mut value_end = None;
                    while i < inner.len() {
                        match inner[i] {
                            b'\\' => i += 2,
                            b'"' => {
                                value_end = Some(i);
                                break;
                            }
                            _ => i += 1,
                        }
                    }
                    if let Some(v) = value_end
                        && let Some(close) = inner[v..].iter().position(|&b| b == b']')
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
                    err!(format!("malformed tag [{body}]: expected [Name \"value\"]"));
                }
                Token::Tag(name, &rest[1..rest.len() - 1])
            }
            b'$' => {
                let end = bytes[start + 1..]
                    .iter()
                    .position(|b| !b.is_ascii_digit())
                    .map_or(bytes.len(), |e| start + 1 + e);
                self.pos = end;
                match self.text[start + 1..end].parse::<u8>() {
                    Ok(n) => Token::Nag(n),
                    Err(_) => {
                        err!(format!(
                            "bad annotation glyph \"{}\"",
                            &self.text[start..end]
                        ));
                    }
                }
            }
            _ => {
                let end = bytes[start..]
                    .iter()
                    .position(|&b| ENDS_WORD[b as usize])
                    .map_or(bytes.len(), |e| start + e);
                self.pos = end;
                if end == start {
                    // A stray '}' or ']': step over it so that reading always advances.
                    let c = self.text[start..].chars().next().unwrap_or(' ');
                    self.pos = start + c.len_utf8();
                    err!(format!("unexpected '{c}'"));
                }
                let word = &self.text[start..end];
                match word {
                    "1-0" | "0-1" | "1/2-1/2" | "*" | "½-½" => Token::Result(word),
                    _ => Token::Symbol(word),
                }
            }
        };
        Some(tok)
    }
}

/// A tag value with its escapes (`\"`, `\\`) undone.
fn unescape(raw: &str) -> Cow<'_, str> {
    if raw.contains('\\') {
        Cow::Owned(raw.replace("\\\"", "\"").replace("\\\\", "\\"))
    } else {
        Cow::Borrowed(raw)
    }
}

/// The parser's tokens: the splitter's where it took the text apart, the lexer's elsewhere
/// (tags, glyphs glued to moves, anything odd). The two hand over where a token of one
/// begins exactly where the other's does, so the tokens are the lexer's own throughout.
struct Tokens<'a, 'r> {
    lexer: Lexer<'a>,
    raw: &'r [Raw],
    /// The next splitter token to use (or, while lexing, to resume at).
    next_raw: usize,
    lexing: bool,
}

impl<'a, 'r> Tokens<'a, 'r> {
    /// The tokens of a game's `text`, which begins on line `first_line`, with the splitter's
    /// `raw` tokens (empty: the lexer reads it all). The lexer reads the tags first.
    fn new(text: &'a str, first_line: usize, raw: &'r [Raw]) -> Tokens<'a, 'r> {
        Tokens {
            lexer: Lexer {
                text,
                pos: 0,
                line: first_line,
                line_start: 0,
                loc: Loc::default(),
                error_message: String::new(),
            },
            raw,
            next_raw: 0,
            lexing: true,
        }
    }

    /// The next token (its place: [`Tokens::loc`]).
    #[inline]
    fn next(&mut self) -> Option<Token<'a>> {
        let text = self.lexer.text;
        loop {
            if self.lexing {
                let pos = self.lexer.skip_space();
                while self.raw.get(self.next_raw).is_some_and(|r| r.start < pos) {
                    self.next_raw += 1;
                }
                match self.raw.get(self.next_raw) {
                    Some(r) if r.start == pos && r.kind != RawKind::Lex => self.lexing = false,
                    _ => return self.lexer.next(),
                }
            }
            let Some(&r) = self.raw.get(self.next_raw) else {
                // The lexer reads what follows the last token, to end where it would have.
                let last = self.raw[self.raw.len() - 1];
                self.lex_from(last);
                self.lexer.pos = last.end;
                self.lexer.bump_lines(last.start, last.end);
                continue;
            };
            self.next_raw += 1;
            let tok = match r.kind {
                RawKind::Word => match &text[r.start..r.end] {
                    "½-½" => Token::Result("½-½"),
                    word => Token::Symbol(word),
                },
                RawKind::Result => Token::Result(&text[r.start..r.end]),
                RawKind::Comment => {
                    Token::Comment(crate::notation::trim(&text[r.start + 1..r.end - 1]))
                }
                RawKind::Open => Token::Open,
                RawKind::Close => Token::Close,
                RawKind::Lex => {
                    self.lex_from(r);
                    continue;
                }
            };
            return Some(tok);
        }
    }

    /// Where the last token began (worked out only when asked: for an error).
    fn loc(&self) -> Loc {
        match self.next_raw.checked_sub(1).map(|i| self.raw[i]) {
            Some(r) if !self.lexing => Loc {
                line: r.line,
                line_start: LINE_START_UNKNOWN,
                at: r.start,
            },
            _ => self.lexer.loc,
        }
    }

    /// An error at the last token.
    fn error(&self, message: String, game: usize) -> PgnError {
        self.lexer.error(self.loc(), message, game)
    }

    /// The lexer reads on from where `r` begins.
    fn lex_from(&mut self, r: Raw) {
        let text = self.lexer.text;
        self.lexing = true;
        self.lexer.pos = r.start;
        self.lexer.line = r.line;
        self.lexer.line_start = line_start(text, r.start);
        // Resume with the splitter only after this token.
        while self
            .raw
            .get(self.next_raw)
            .is_some_and(|n| n.start <= r.start)
        {
            self.next_raw += 1;
        }
    }
}

/// Splits a move symbol into the move number prefix (dropped), the SAN and suffix glyphs.
#[inline]
fn split_symbol(word: &str) -> (&str, Option<u8>) {
    // A move number is digits followed by dots ("12." or "12..."); "0-0" is castling.
    // Byte by byte: digits, dots, '!' and '?' are ASCII, so every cut is a char boundary.
    let bytes = word.as_bytes();
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    let word = if bytes.get(digits) == Some(&b'.') {
        let dots = bytes[digits..].iter().take_while(|&&b| b == b'.').count();
        &word[digits + dots..]
    } else {
        word
    };
    let glyphs = (word.as_bytes().iter().rev())
        .take_while(|&&b| b == b'!' || b == b'?')
        .count();
    let san_end = word.len() - glyphs;
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

/// A line of play being read: its position, and the one before its last move (where a
/// variation starts; kept only when the game has a `(` somewhere).
struct Frame {
    pos: Position,
    before_last: Option<Position>,
    /// Whether the line has a move yet.
    moved: bool,
}

/// The start position named by the `FEN` and `Variant` tags, and whether it is Chess960.
pub(super) fn start_position(
    fen: Option<&str>,
    variant: Option<&str>,
) -> Result<(Position, bool), String> {
    let variant_960 = variant.is_some_and(|v| {
        let v = v.to_ascii_lowercase();
        v.contains("960") || v.contains("fischer")
    });
    if let Some(v) = variant {
        let lower = v.to_ascii_lowercase();
        if !(variant_960 || lower == "standard" || lower.is_empty() || lower == "from position") {
            return Err(format!("variant \"{v}\" is not supported"));
        }
    }
    let pos = match fen {
        Some(fen) => Position::from_fen(fen).map_err(|e| format!("bad FEN tag \"{fen}\": {e}"))?,
        None => Position::new(),
    };
    let chess960 = variant_960 || pos.is_chess960();
    Ok((pos, chess960))
}

fn parse_game<V: Visitor>(
    mut tokens: Tokens,
    game_no: usize,
    visitor: &mut V,
) -> Result<V::Output, PgnError> {
    visitor.begin_game();
    let (mut fen, mut variant, mut result_tag) = (None, None, None);
    // Entered lines of play; `skipping` counts the open parentheses of a skipped variation.
    let mut stack: Vec<Frame> = Vec::new();
    let mut skipping = 0usize;
    let mut started = false;
    let mut result: Option<&str> = None;
    // Copying the position before each move only pays when a variation may need it.
    let may_branch = memchr::memchr(b'(', tokens.lexer.text.as_bytes()).is_some();
    while let Some(tok) = tokens.next() {
        let fail = |message: String| tokens.error(message, game_no);
        if tok == Token::Error {
            return Err(fail(tokens.lexer.error_message.clone()));
        }
        if result.is_some() {
            // Anything after the termination marker belongs to no game; a later game's tags
            // were already split off, so only stray text can be here.
            return Err(fail("text after the game's result".into()));
        }
        if let Token::Tag(name, value) = tok {
            let value = unescape(value);
            if started {
                return Err(fail(format!("tag [{name}] after the moves began")));
            }
            // The first of each counts.
            if name.eq_ignore_ascii_case("FEN") && fen.is_none() {
                fen = Some(value.clone());
            } else if name.eq_ignore_ascii_case("Variant") && variant.is_none() {
                variant = Some(value.clone());
            } else if name == "Result" && is_result(value.as_bytes()) && result_tag.is_none() {
                result_tag = Some(value.clone());
            }
            visitor.tag(name, &value);
            continue;
        }
        if !started {
            started = true;
            let (pos, chess960) =
                start_position(fen.as_deref(), variant.as_deref()).map_err(fail)?;
            visitor.begin_moves(&pos, chess960);
            stack.push(Frame {
                pos,
                before_last: None,
                moved: false,
            });
        }
        if skipping > 0 {
            match tok {
                Token::Open => skipping += 1,
                Token::Close => skipping -= 1,
                Token::Result(r) => return Err(fail(format!("result {r} inside a variation"))),
                _ => {}
            }
            continue;
        }
        let frame = stack.last_mut().expect("a frame while reading moves");
        match tok {
            Token::Tag(..) | Token::Error => unreachable!("handled above"),
            Token::Comment(c) => visitor.comment(c),
            Token::Nag(n) => {
                if !frame.moved {
                    return Err(fail(format!("annotation ${n} before any move")));
                }
                visitor.nag(n);
            }
            Token::Open => {
                let Some(before) = &frame.before_last else {
                    return Err(fail(
                        "variation '(' before any move it could replace".into(),
                    ));
                };
                match visitor.begin_variation() {
                    Variation::Enter => {
                        let pos = before.clone();
                        stack.push(Frame {
                            pos,
                            before_last: None,
                            moved: false,
                        });
                    }
                    Variation::Skip => skipping = 1,
                }
            }
            Token::Close => {
                if stack.len() < 2 {
                    return Err(fail("')' without a matching '('".into()));
                }
                stack.pop();
                visitor.end_variation();
            }
            Token::Result(r) => {
                if stack.len() > 1 {
                    return Err(fail(format!("result {r} inside a variation")));
                }
                result = Some(if r == "½-½" { "1/2-1/2" } else { r });
            }
            Token::Symbol(word) => {
                let (san, nag) = split_symbol(word);
                if san.is_empty() {
                    // A move number such as "12." or "12...", or a glyph standing apart ("!?").
                    if let Some(n) = nag
                        && frame.moved
                    {
                        visitor.nag(n);
                    }
                    continue;
                }
                if san == "--" || san == "Z0" {
                    return Err(fail(format!("null move \"{san}\" is not a legal move")));
                }
                let m = match frame.pos.parse_san_lenient(san) {
                    Ok(m) => m,
                    Err(e) => return Err(fail(e.to_string())),
                };
                visitor.play(&frame.pos, m);
                if may_branch {
                    match &mut frame.before_last {
                        Some(before) => before.clone_from(&frame.pos),
                        empty => *empty = Some(frame.pos.clone()),
                    }
                }
                frame.moved = true;
                frame.pos.play_unchecked(m);
                if let Some(n) = nag {
                    visitor.nag(n);
                }
            }
        }
    }
    let lexer = &tokens.lexer;
    let text = lexer.text;
    let end = Loc {
        line: lexer.line,
        line_start: lexer.pos.min(text.len()),
        at: lexer.pos.min(text.len()),
    };
    if stack.len() > 1 || skipping > 0 {
        return Err(lexer.error(end, "variation '(' is never closed".into(), game_no));
    }
    if !started {
        let (pos, chess960) = start_position(fen.as_deref(), variant.as_deref())
            .map_err(|m| lexer.error(end, m, game_no))?;
        visitor.begin_moves(&pos, chess960);
    }
    Ok(visitor.end_game(result.or(result_tag.as_deref())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::GameBuilder;

    /// Every game of `text` read with the splitter's tokens and again by the lexer alone.
    fn both_ways(text: &[u8]) -> [Vec<String>; 2] {
        [false, true].map(|lexer_only| {
            let mut parser = Parser::new(text);
            let mut games = Vec::new();
            while let Some((from, to, first_line)) = parser.input.next_game() {
                let bytes = &parser.input.buf[from..to];
                let text = String::from_utf8_lossy(bytes);
                let raw = match std::str::from_utf8(bytes) {
                    Ok(_) if !lexer_only => &parser.input.tokens[..],
                    _ => &[][..],
                };
                let tokens = Tokens::new(&text, first_line, raw);
                let game = parse_game(tokens, games.len() + 1, &mut GameBuilder::default());
                games.push(format!("{game:?}"));
            }
            games
        })
    }

    #[test]
    fn splitter_tokens_read_as_the_lexer_reads() {
        let base = concat!(
            "[Event \"a \\\"b\\\" ]c\"]\n[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n\n",
            "{start} 1. a8=Q+ $1 {x\n y} (1. Kd2 ; note\n Kd7) 1... Kd7!? 2. Qb7+ Ke6 1-0\n\n",
            "[Event \"b\"]\n% escape\n1. e4 e5$2 2. Nf3 (2. f4 (2. d4) exd4) Nc6 { [%clk 0:01:00] } *\n",
            "1. d4 ½-½\n\u{3000}[Event \"c\"]\n1. c4 {open\n",
            "}\n\n[Event \"d\"]\r\n[Variant \"Chess960\"]\r\n",
            "[FEN \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\"]\r\n\r\n",
            "9. e4!! $18 {[%clk 0:01:00]} ( 9. g3 ) 9... Nxe4 10. dxe4 Qc7 0-1\r\n",
        );
        // The text itself reads mostly well (the mutations then break it in every way).
        let [games, _] = both_ways(base.as_bytes());
        assert_eq!(
            games.iter().filter(|g| g.starts_with("Ok")).count(),
            3,
            "{games:?}"
        );
        let specials = b"{}()[];$%\n \"*1-0!?.\t\r";
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut random = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut inputs = vec![base.as_bytes().to_vec()];
        for _ in 0..6000 {
            let mut text = base.as_bytes().to_vec();
            for _ in 0..1 + random(3) {
                let at = random(text.len());
                if random(3) == 0 {
                    text.remove(at);
                } else {
                    text.insert(at, specials[random(specials.len())]);
                }
            }
            inputs.push(text);
        }
        for text in inputs {
            let [fast, lexed] = both_ways(&text);
            assert_eq!(fast, lexed, "{:?}", String::from_utf8_lossy(&text));
        }
    }
}
