//! Reading PGN in one pass. The stream becomes text as it is read (invalid UTF-8 replaced);
//! the splitter ([`Input`]) cuts it into games a line at a time and hands each token it finds
//! straight to the game being read ([`GameState`]), which resolves and plays the moves and
//! reports each step to a [`Visitor`]. Where the splitter meets something it does not take
//! apart (a tag line that is not one plain pair, a glyph glued to a move, a stray brace) the
//! lexer reads the rest of that game. Nothing is copied or allocated per move unless the
//! visitor wants it.

use std::borrow::Cow;
use std::io::Read;

use super::{PgnError, PgnErrorKind};
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

/// Cuts a byte stream into games: a game ends with the line of its termination marker
/// (outside comments and variations) or where a tag line follows movetext. Each token is
/// handed to the parser the moment it is found, so the text is read once.
struct Input<R> {
    reader: R,
    /// The text read and not yet dropped.
    buf: String,
    /// Where the stream is read into before it becomes text.
    partial: Vec<u8>,
    /// How many bytes at the start of `partial` are left from the last read: the start of
    /// a character cut by its end.
    kept: usize,
    /// Start of the unread part of `buf`.
    start: usize,
    /// The line number at `start`.
    line: usize,
    eof: bool,
    /// Whether reading has begun (a byte-order mark is looked for first).
    started: bool,
    /// The text of the game cut out last: where it begins and ends in `buf`.
    game: (usize, usize),
    /// The game's tokens from where its reader stopped taking them.
    rest: Vec<Raw>,
}

/// What the splitter saw of a token: the parser turns it into a [`Token`]. Anything the
/// splitter does not take apart itself (a glyph glued to a move, a stray brace) becomes
/// [`RawKind::Lex`]: the lexer takes over from there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Raw {
    kind: RawKind,
    /// Offsets from the game's first byte.
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
    /// A whole line that starts with `[`: a tag pair if it holds nothing else.
    TagLine,
    /// Text the lexer must read from here on.
    Lex,
}

impl<R: Read> Input<R> {
    /// Reads more of the stream into `buf`, first dropping what was already returned. Returns
    /// whether anything was read, and by how much offsets into `buf` moved down.
    fn fill(&mut self) -> (bool, usize) {
        let mut shift = self.start;
        if shift > 0 && self.buf.is_char_boundary(shift) {
            self.buf.drain(..shift);
            self.start = 0;
        } else {
            shift = 0;
        }
        // What is read lands after any character cut by the last read, and goes into `buf`
        // as text: UTF-8, and any byte that is not valid UTF-8 read as Latin-1 (the PGN
        // standard's own character set), as `decode` does.
        if self.partial.is_empty() {
            self.partial = vec![0; 64 << 10];
        }
        let kept = self.kept;
        let read = loop {
            match self.reader.read(&mut self.partial[kept..]) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Ok(0) | Err(_) => break 0,
                Ok(n) => break n,
            }
        };
        self.eof = read == 0;
        let total = kept + read;
        let mut bytes = &self.partial[..total];
        while !bytes.is_empty() {
            match std::str::from_utf8(bytes) {
                Ok(text) => {
                    self.buf.push_str(text);
                    bytes = &[];
                }
                Err(e) => {
                    let (valid, rest) = bytes.split_at(e.valid_up_to());
                    self.buf
                        .push_str(std::str::from_utf8(valid).unwrap_or_default());
                    let bad = match e.error_len() {
                        Some(bad) => bad,
                        // A character cut by the end of what was read: kept for the next read.
                        None if !self.eof => {
                            bytes = rest;
                            break;
                        }
                        None => rest.len(),
                    };
                    self.buf.extend(rest[..bad].iter().map(|&b| char::from(b)));
                    bytes = &rest[bad..];
                }
            }
        }
        let cut = bytes.len();
        self.partial.copy_within(total - cut..total, 0);
        self.kept = cut;
        (read > 0, shift)
    }

    /// Cuts out the next game, handing its tokens to `take` as they are found (with the text
    /// read so far and where the game begins in it) for as long as it returns `true`; the
    /// tokens it did not take are left in `rest`. Returns the number of the game's first line,
    /// or `None` when no game is left. The game's text is then `buf[game.0..game.1]`.
    ///
    /// The text is read a line at a time, each line whole in `buf` before it is looked at.
    fn next_game(&mut self, mut take: impl FnMut(&str, usize, Raw) -> bool) -> Option<usize> {
        if !self.started {
            // A byte-order mark at the very start is not text.
            self.started = true;
            while self.buf.len() < 3 && self.fill().0 {}
            if self.buf.starts_with('\u{feff}') {
                self.start = 3;
            }
        }
        self.rest.clear();
        let mut taking = true;
        let mut i = self.start;
        let mut line = self.line;
        // The first non-blank line: where the game's text begins, and its number.
        let mut first: Option<(usize, usize)> = None;
        // Where the open comment began and on which line.
        let mut comment: Option<(usize, usize)> = None;
        let mut seen_movetext = false;
        let mut depth = 0i32;
        // A termination marker stood outside variations: the game ends with this line.
        let mut ended = false;
        // Hands a token over (offsets from `first`), or keeps it once no longer taken.
        macro_rules! emit {
            ($kind:expr, $start:expr, $end:expr, $line:expr) => {{
                let from = first.map_or(0, |(f, _)| f);
                let end = $end;
                let raw = Raw {
                    kind: $kind,
                    start: $start - from,
                    end: end - from,
                    line: $line,
                };
                if taking {
                    taking = take(&self.buf, from, raw);
                }
                if !taking {
                    self.rest.push(raw);
                }
            }};
        }
        loop {
            // The line from `i`, whole.
            let line_end = loop {
                let rest = &self.buf.as_bytes()[i..];
                if let Some(n) = memchr::memchr(b'\n', rest) {
                    break i + n;
                }
                if self.eof {
                    break self.buf.len();
                }
                let (_, shift) = self.fill();
                i -= shift;
                first = first.map(|(f, l)| (f - shift, l));
                comment = comment.map(|(c, l)| (c - shift, l));
            };
            if self.eof && i == self.buf.len() {
                break; // nothing left
            }
            if let Some((start, start_line)) = comment {
                // A comment goes on: the line is not looked at for what it is.
                match memchr::memchr(b'}', &self.buf.as_bytes()[i..line_end]) {
                    Some(n) => {
                        comment = None;
                        i += n + 1;
                        emit!(RawKind::Comment, start, i, start_line);
                    }
                    None => i = line_end,
                }
            } else {
                // How the line starts decides what it is; an escape line or one that starts
                // with a non-ASCII character is looked at whole.
                let text = &self.buf.as_bytes()[i..line_end];
                let lead = text
                    .iter()
                    .find(|&&b| !matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c))
                    .copied();
                let content = match lead {
                    Some(b'%' | 0x80..) => {
                        if text[0] == b'%' {
                            // An escape line: blanked in place, so it reads as an empty line.
                            let blank = " ".repeat(line_end - i);
                            self.buf.replace_range(i..line_end, &blank);
                        }
                        // Any Unicode white space counts as blank (a full-width space too).
                        let text = self.buf.get(i..line_end).unwrap_or_default();
                        text.trim().bytes().next()
                    }
                    lead => lead,
                };
                match content {
                    // A blank line: passed over before the game, read as movetext in it
                    // (where a vertical tab or a full-width space is a word, as to the lexer).
                    None if first.is_none() => i = line_end,
                    None => {}
                    Some(b'[') if seen_movetext => break, // the next game's tags
                    Some(b'[') => {
                        // A tag line: the lexer's to read (the parser reads a plain tag pair
                        // itself), and nothing in it ends the game.
                        first.get_or_insert((i, line));
                        emit!(RawKind::TagLine, i, line_end, line);
                        i = line_end;
                    }
                    Some(_) => {
                        first.get_or_insert((i, line));
                        seen_movetext = true;
                    }
                }
            }
            // Movetext up to the end of the line.
            while i < line_end {
                let mut b = self.buf.as_bytes()[i];
                if b == b' ' {
                    // Tokens mostly stand one space apart: step over it before looking.
                    i += 1;
                    if i == line_end {
                        break;
                    }
                    b = self.buf.as_bytes()[i];
                }
                match b {
                    b' ' | b'\t' | b'\r' | 0x0c => i += 1,
                    b'{' => {
                        // Most comments end on their line.
                        let text = &self.buf.as_bytes()[i + 1..line_end];
                        // Short as comments mostly are, a plain search finds the end first.
                        match text.iter().position(|&b| b == b'}') {
                            Some(n) => {
                                let end = i + n + 2;
                                emit!(RawKind::Comment, i, end, line);
                                i = end;
                            }
                            None => {
                                comment = Some((i, line));
                                i = line_end;
                            }
                        }
                    }
                    b';' => i = line_end,
                    b'(' | b')' | b'}' => {
                        let kind = match b {
                            b'(' => {
                                depth += 1;
                                RawKind::Open
                            }
                            b')' => {
                                depth -= 1;
                                RawKind::Close
                            }
                            _ => RawKind::Lex,
                        };
                        emit!(kind, i, i + 1, line);
                        i += 1;
                    }
                    _ => {
                        // A word: on to its end at once, noting whether the lexer must read it.
                        let (len, odd) = scan_word(&self.buf.as_bytes()[i..line_end]);
                        let (start, end) = (i, i + len);
                        i = end;
                        let result = is_result(&self.buf.as_bytes()[start..end]);
                        ended |= result && depth == 0;
                        let kind = match (odd, result) {
                            (true, _) => RawKind::Lex,
                            (false, true) => RawKind::Result,
                            (false, false) => RawKind::Word,
                        };
                        emit!(kind, start, end, line);
                    }
                }
            }
            if line_end == self.buf.len() {
                break; // the end of the text
            }
            line += 1;
            i = line_end + 1;
            if ended {
                break;
            }
        }
        if let Some((start, start_line)) = comment {
            // Never closed: the lexer says so.
            emit!(RawKind::Lex, start, i, start_line);
        }
        self.start = i;
        self.line = line;
        let (from, first_line) = first?;
        self.game = (from, i);
        Some(first_line)
    }

    /// The text of the game cut out last.
    fn game_text(&self) -> &str {
        self.buf.get(self.game.0..self.game.1).unwrap_or_default()
    }
}

#[inline]
fn is_result(word: &[u8]) -> bool {
    // Most words are moves or move numbers: one byte tells nearly all of them apart.
    matches!(word.first(), Some(b'0' | b'1' | b'*'))
        && matches!(word, b"1-0" | b"0-1" | b"1/2-1/2" | b"*")
}

/// Reads games from a stream one at a time, driving a [`Visitor`] through each; a bad game
/// gives an error and reading goes on with the next one.
pub struct Parser<R> {
    input: Input<R>,
    game_no: usize,
    /// The lines of play being read (kept to reuse their memory).
    stack: Vec<Frame>,
}

/// How far the splitter's tokens took a game.
enum Progress {
    Reading,
    Failed(PgnError),
    /// The lexer reads on from this token.
    Lex(Raw),
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
                buf: String::new(),
                partial: Vec::new(),
                kept: 0,
                start: 0,
                line: 1,
                eof: false,
                started: false,
                game: (0, 0),
                rest: Vec::new(),
            },
            game_no: 0,
            stack: Vec::new(),
        }
    }

    /// Reads the next game through `visitor`: its output, an error, or `None` at the end.
    pub fn read_game<V: Visitor>(
        &mut self,
        visitor: &mut V,
    ) -> Option<Result<V::Output, PgnError>> {
        let game_no = self.game_no + 1;
        let mut game = GameState::new(std::mem::take(&mut self.stack));
        let mut progress = Progress::Reading;
        let mut begun = false;
        let found = self.input.next_game(
            #[inline(always)]
            |text, from, raw| {
                if !begun {
                    begun = true;
                    visitor.begin_game();
                }
                let Some(token) = token(text, from, raw) else {
                    progress = Progress::Lex(raw);
                    return false;
                };
                match game.feed(token, visitor) {
                    Ok(()) => true,
                    Err(kind) => {
                        let game_text = text.get(from..from + raw.end).unwrap_or_default();
                        progress = Progress::Failed(error_at(game_text, raw, kind, game_no));
                        false
                    }
                }
            },
        );
        if found.is_none() {
            self.stack = game.stack;
            return None;
        }
        self.game_no = game_no;
        if !begun {
            visitor.begin_game();
        }
        let output = match progress {
            Progress::Reading => {
                let line = self.input.line;
                game.finish(visitor).map_err(|kind| PgnError {
                    game: game_no,
                    line,
                    column: 1,
                    kind,
                })
            }
            Progress::Failed(error) => Err(error),
            Progress::Lex(from) => {
                // The lexer reads the rest of the game, with the splitter's tokens where they
                // serve (the lexer's own tokens throughout, only faster).
                let input = &mut self.input;
                input.rest.retain(|r| r.kind != RawKind::TagLine);
                let tokens = Tokens::new(input.game_text(), from.line, from.start, &input.rest);
                read_lexed(tokens, &mut game, game_no, visitor)
            }
        };
        self.stack = game.stack;
        Some(output)
    }
}

/// Feeds `game` the rest of its tokens from `tokens`.
fn read_lexed<V: Visitor>(
    mut tokens: Tokens,
    game: &mut GameState,
    game_no: usize,
    visitor: &mut V,
) -> Result<V::Output, PgnError> {
    while let Some(token) = tokens.next() {
        if token == Token::Error {
            let kind = tokens
                .lexer
                .failure
                .take()
                .expect("the lexer says what is wrong");
            return Err(tokens.error(kind, game_no));
        }
        if let Err(kind) = game.feed(token, visitor) {
            return Err(tokens.error(kind, game_no));
        }
    }
    let lexer = &tokens.lexer;
    let text = lexer.text;
    let end = Loc {
        line: lexer.line,
        line_start: lexer.pos.min(text.len()),
        at: lexer.pos.min(text.len()),
    };
    game.finish(visitor)
        .map_err(|kind| lexer.error(end, kind, game_no))
}

/// The token the splitter saw as `raw` in a game that begins at `text[from..]`, or `None`
/// where the lexer must read it.
#[inline(always)]
fn token(text: &str, from: usize, raw: Raw) -> Option<Token<'_>> {
    let text = text.get(from + raw.start..from + raw.end)?;
    let bytes = text.as_bytes();
    Some(match raw.kind {
        // "½-½" is the one marker the splitter leaves a word.
        RawKind::Word if bytes.first() != Some(&0xc2) => Token::Symbol(text),
        RawKind::Word | RawKind::Result => match result_marker(bytes) {
            Some(result) => Token::Result(result),
            None => Token::Symbol(text),
        },
        RawKind::Comment => Token::Comment(crate::notation::trim(text.get(1..text.len() - 1)?)),
        RawKind::Open => Token::Open,
        RawKind::Close => Token::Close,
        RawKind::TagLine => plain_tag(text)?,
        // A glyph standing alone ("$14") is the one such word read here.
        RawKind::Lex => match bytes {
            [b'$', digits @ ..] if (1..=3).contains(&digits.len()) => {
                let mut n = 0u32;
                for &d in digits {
                    if !d.is_ascii_digit() {
                        return None;
                    }
                    n = n * 10 + u32::from(d - b'0');
                }
                Token::Nag(n)
            }
            _ => return None,
        },
    })
}

/// An error at the token `raw` in the game's `text`.
fn error_at(text: &str, raw: Raw, kind: PgnErrorKind, game: usize) -> PgnError {
    let loc = Loc {
        line: raw.line,
        line_start: LINE_START_UNKNOWN,
        at: raw.start,
    };
    loc.error(text, kind, game)
}

/// The termination marker `word` spells.
fn result_marker(word: &[u8]) -> Option<&'static str> {
    Some(match word {
        b"1-0" => "1-0",
        b"0-1" => "0-1",
        b"1/2-1/2" => "1/2-1/2",
        b"*" => "*",
        [0xc2, 0xbd, b'-', 0xc2, 0xbd] => "½-½",
        _ => return None,
    })
}

/// A tag line holding a well-formed tag pair and nothing else (white space aside), as the
/// lexer reads it; `None` for anything else, which the lexer then reads (and reports).
#[inline]
fn plain_tag(line: &str) -> Option<Token<'_>> {
    let line = line
        .trim_ascii_end()
        .trim_start_matches([' ', '\t', '\r', '\x0c']);
    if let Some(tag) = simple_tag(line) {
        return Some(tag);
    }
    let (end, settled) = tag_end(line.as_bytes(), 0)?;
    if !settled || end + 1 != line.len() {
        return None;
    }
    let (name, value) = tag_pair(&line[1..end]).ok()?;
    Some(Token::Tag(name, value))
}

/// The commonest tag line, `[Name "value"]` with a plain name and one space, read in one
/// pass (what the lexer reads it as, without its general search).
#[inline]
fn simple_tag(line: &str) -> Option<Token<'_>> {
    let b = line.as_bytes();
    let name_len = b
        .iter()
        .skip(1)
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
        .count();
    let open = 1 + name_len;
    if b.first() != Some(&b'[') || name_len == 0 || b.get(open..open + 2) != Some(b" \"") {
        return None;
    }
    // The value runs to the first quote not escaped, which must close the line with `]`.
    let mut k = open + 2;
    while k < b.len() {
        match b[k] {
            b'\\' => k += 2,
            b'"' => break,
            _ => k += 1,
        }
    }
    if k + 2 != b.len() || b[k + 1] != b']' {
        return None;
    }
    Some(Token::Tag(line.get(1..open)?, line.get(open + 2..k)?))
}

/// A token; where it begins is kept beside it (`Tokens::loc`), so that tokens stay small.
#[derive(Debug, PartialEq)]
enum Token<'a> {
    /// A tag pair: its name and its value, still escaped.
    Tag(&'a str, &'a str),
    Comment(&'a str),
    Open,
    Close,
    /// A glyph, `$0` to `$999` (the standard's go to `$255`).
    Nag(u32),
    Result(&'static str),
    Symbol(&'a str),
    /// Malformed text; what is wrong is `Lexer::failure`.
    Error,
}

/// `Loc::line_start` when it is to be found only if needed (for an error).
const LINE_START_UNKNOWN: usize = usize::MAX;

/// Where the line holding byte `at` of `text` begins.
fn line_start(text: &str, at: usize) -> usize {
    let before = &text.as_bytes()[..at.min(text.len())];
    memchr::memrchr(b'\n', before).map_or(0, |n| n + 1)
}

/// Where a token starts: its line, and the byte offsets of that line and of the token (the
/// column in characters is only counted for an error).
#[derive(Clone, Copy, Default)]
struct Loc {
    line: usize,
    line_start: usize,
    at: usize,
}

impl Loc {
    /// An error here in `text`, its column counted in characters.
    fn error(self, text: &str, kind: PgnErrorKind, game: usize) -> PgnError {
        let line_start = if self.line_start == LINE_START_UNKNOWN {
            line_start(text, self.at)
        } else {
            self.line_start
        };
        let before = text.get(line_start..self.at).unwrap_or_default();
        PgnError {
            game,
            line: self.line,
            column: before.chars().count() + 1,
            kind,
        }
    }
}

struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    /// Where the last token began.
    loc: Loc,
    /// What was wrong, after a [`Token::Error`].
    failure: Option<PgnErrorKind>,
    line: usize,
    line_start: usize,
}

impl<'a> Lexer<'a> {
    fn error(&self, loc: Loc, kind: PgnErrorKind, game: usize) -> PgnError {
        loc.error(self.text, kind, game)
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
            ($kind:expr) => {{
                self.failure = Some($kind);
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
                    err!(PgnErrorKind::UnclosedComment);
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
                let Some((end, _)) = tag_end(bytes, start) else {
                    self.pos = bytes.len();
                    err!(PgnErrorKind::UnclosedTag);
                };
                self.bump_lines(start, end);
                self.pos = end + 1;
                match tag_pair(&self.text[start + 1..end]) {
                    Ok((name, value)) => Token::Tag(name, value),
                    Err(kind) => err!(kind),
                }
            }
            b'$' => {
                let end = bytes[start + 1..]
                    .iter()
                    .position(|b| !b.is_ascii_digit())
                    .map_or(bytes.len(), |e| start + 1 + e);
                self.pos = end;
                match self.text[start + 1..end].parse::<u32>() {
                    Ok(n) if n <= 999 => Token::Nag(n),
                    _ => {
                        err!(PgnErrorKind::BadGlyph(self.text[start..end].to_string()));
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
                    err!(PgnErrorKind::Unexpected(c));
                }
                let word = &self.text[start..end];
                match result_marker(word.as_bytes()) {
                    Some(result) => Token::Result(result),
                    None => Token::Symbol(word),
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

/// Where the tag opened with `[` at `bytes[start]` closes: the first `]`, or the first after
/// the quoted value when there is one (a `]` inside the value does not close the tag). Also
/// whether the value was closed and a `]` found after it (else more text could move the end).
fn tag_end(bytes: &[u8], start: usize) -> Option<(usize, bool)> {
    if bytes.get(start) != Some(&b'[') {
        return None;
    }
    let first_close = start + bytes[start..].iter().position(|&b| b == b']')?;
    let inner = &bytes[start + 1..];
    let Some(quote) = inner.iter().position(|&b| b == b'"') else {
        return Some((first_close, false));
    };
    let mut i = quote + 1;
    while i < inner.len() {
        match inner[i] {
            b'\\' => i += 2,
            b'"' => {
                return Some(match inner[i..].iter().position(|&b| b == b']') {
                    Some(close) => (start + 1 + i + close, true),
                    None => (first_close, false),
                });
            }
            _ => i += 1,
        }
    }
    Some((first_close, false))
}

/// A tag's name and (still escaped) value from what stands between its brackets.
fn tag_pair(body: &str) -> Result<(&str, &str), PgnErrorKind> {
    let body = body.trim();
    let (name, rest) = body.split_at(
        body.find(|c: char| c.is_whitespace() || c == '"')
            .unwrap_or(body.len()),
    );
    let rest = rest.trim();
    if name.is_empty() || !rest.starts_with('"') || !rest.ends_with('"') || rest.len() < 2 {
        return Err(PgnErrorKind::MalformedTag(body.to_string()));
    }
    Ok((name, &rest[1..rest.len() - 1]))
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
    /// The tokens of a game's `text` from byte `at` (on line `line`) on, with the splitter's
    /// `raw` tokens (empty: the lexer reads it all). The lexer reads first.
    fn new(text: &'a str, line: usize, at: usize, raw: &'r [Raw]) -> Tokens<'a, 'r> {
        Tokens {
            lexer: Lexer {
                text,
                pos: at,
                line,
                line_start: line_start(text, at),
                loc: Loc::default(),
                failure: None,
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
                RawKind::Word | RawKind::Result => {
                    let word = &text[r.start..r.end];
                    match result_marker(word.as_bytes()) {
                        Some(result) => Token::Result(result),
                        None => Token::Symbol(word),
                    }
                }
                RawKind::Comment => {
                    Token::Comment(crate::notation::trim(&text[r.start + 1..r.end - 1]))
                }
                RawKind::Open => Token::Open,
                RawKind::Close => Token::Close,
                RawKind::Lex | RawKind::TagLine => {
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
    fn error(&self, kind: PgnErrorKind, game: usize) -> PgnError {
        self.lexer.error(self.loc(), kind, game)
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
    let bytes = word.as_bytes();
    // The common cases at a glance: a plain move, and a plain move number.
    match (bytes.first(), bytes.last()) {
        (
            Some(b'a'..=b'z' | b'A'..=b'Z'),
            Some(b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z' | b'+' | b'#'),
        ) => (word, None),
        (Some(b'1'..=b'9'), Some(b'.'))
            if bytes
                .iter()
                .skip_while(|b| b.is_ascii_digit())
                .all(|&b| b == b'.') =>
        {
            ("", None)
        }
        _ => split_symbol_fully(word),
    }
}

/// [`split_symbol`] for any word.
fn split_symbol_fully(word: &str) -> (&str, Option<u8>) {
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

/// A line of play being read. Its last move is played only when the next one comes: until
/// then `pos` is where a variation on it starts, so no position is copied per move.
struct Frame {
    pos: Position,
    /// The last move read, not yet played.
    last: Option<Move>,
}

impl Frame {
    /// The position after every move read.
    #[inline]
    fn catch_up(&mut self) -> &Position {
        if let Some(m) = self.last.take() {
            self.pos.play_or_pass(m);
        }
        &self.pos
    }
}

/// The start position named by the `FEN` and `Variant` tags, and whether it is Chess960.
pub(super) fn start_position(
    fen: Option<&str>,
    variant: Option<&str>,
) -> Result<(Position, bool), PgnErrorKind> {
    let variant_960 = variant.is_some_and(|v| {
        let v = v.to_ascii_lowercase();
        v.contains("960") || v.contains("fischer")
    });
    if let Some(v) = variant {
        let lower = v.to_ascii_lowercase();
        if !(variant_960 || lower == "standard" || lower.is_empty() || lower == "from position") {
            return Err(PgnErrorKind::UnsupportedVariant(v.to_string()));
        }
    }
    let pos = match fen {
        Some(fen) => Position::from_fen(fen).map_err(|source| PgnErrorKind::BadFen {
            fen: fen.to_string(),
            source,
        })?,
        None => Position::new(),
    };
    let chess960 = variant_960 || pos.is_chess960();
    Ok((pos, chess960))
}

/// A game being read, token by token: its tags so far and the lines of play entered.
struct GameState {
    fen: Option<String>,
    variant: Option<String>,
    result_tag: Option<&'static str>,
    /// Entered lines of play, the main line first.
    stack: Vec<Frame>,
    /// The open parentheses of a skipped variation.
    skipping: usize,
    /// Whether the movetext has begun.
    started: bool,
    result: Option<&'static str>,
}

impl GameState {
    /// A new game, reusing the memory of `stack`.
    fn new(mut stack: Vec<Frame>) -> GameState {
        stack.clear();
        GameState {
            fen: None,
            variant: None,
            result_tag: None,
            stack,
            skipping: 0,
            started: false,
            result: None,
        }
    }

    /// Takes the next token; what is wrong with it, if anything.
    #[inline(always)]
    fn feed<V: Visitor>(&mut self, tok: Token<'_>, visitor: &mut V) -> Result<(), PgnErrorKind> {
        if self.result.is_some() {
            // Anything after the termination marker belongs to no game; a later game's tags
            // are split off, so only stray text can be here.
            return Err(PgnErrorKind::TextAfterResult);
        }
        if let Token::Tag(name, value) = tok {
            let value = unescape(value);
            if self.started {
                return Err(PgnErrorKind::TagAfterMoves(name.to_string()));
            }
            // The first of each counts.
            if name.eq_ignore_ascii_case("FEN") && self.fen.is_none() {
                self.fen = Some(value.to_string());
            } else if name.eq_ignore_ascii_case("Variant") && self.variant.is_none() {
                self.variant = Some(value.to_string());
            } else if name == "Result" && self.result_tag.is_none() {
                self.result_tag = result_marker(value.as_bytes()).filter(|&r| r != "½-½");
            }
            visitor.tag(name, &value);
            return Ok(());
        }
        if !self.started {
            self.begin_moves(visitor)?;
        }
        if self.skipping > 0 {
            match tok {
                Token::Open if self.stack.len() + self.skipping > super::MAX_VARIATION_DEPTH => {
                    return Err(PgnErrorKind::TooDeep);
                }
                Token::Open => self.skipping += 1,
                Token::Close => self.skipping -= 1,
                Token::Result(r) => return Err(PgnErrorKind::ResultInVariation(r)),
                _ => {}
            }
            return Ok(());
        }
        // The main line is the stack's first frame.
        let depth = self.stack.len() - 1;
        let frame = self.stack.last_mut().expect("a frame while reading moves");
        match tok {
            Token::Tag(..) | Token::Error => unreachable!("handled before"),
            Token::Comment(c) => visitor.comment(c),
            // A glyph past the standard's $255 (some tools write them) is dropped.
            Token::Nag(n) => {
                if let Ok(n) = u8::try_from(n) {
                    if frame.last.is_none() {
                        return Err(PgnErrorKind::GlyphBeforeMove(n));
                    }
                    visitor.nag(n);
                }
            }
            Token::Open => {
                if frame.last.is_none() {
                    return Err(PgnErrorKind::VariationBeforeMove);
                }
                if depth >= super::MAX_VARIATION_DEPTH {
                    return Err(PgnErrorKind::TooDeep);
                }
                match visitor.begin_variation() {
                    Variation::Enter => {
                        let pos = frame.pos.clone();
                        self.stack.push(Frame { pos, last: None });
                    }
                    Variation::Skip => self.skipping = 1,
                }
            }
            Token::Close => {
                if self.stack.len() < 2 {
                    return Err(PgnErrorKind::UnmatchedClose);
                }
                self.stack.pop();
                visitor.end_variation();
            }
            Token::Result(r) => {
                if self.stack.len() > 1 {
                    return Err(PgnErrorKind::ResultInVariation(r));
                }
                self.result = Some(if r == "½-½" { "1/2-1/2" } else { r });
            }
            Token::Symbol(word) => {
                let (san, nag) = split_symbol(word);
                if san.is_empty() {
                    // A move number such as "12." or "12...", or a glyph standing apart ("!?").
                    if let Some(n) = nag
                        && frame.last.is_some()
                    {
                        visitor.nag(n);
                    }
                    return Ok(());
                }
                // "exd6 e.p.": the marker written apart from its capture.
                if (san == "e.p." || san == "ep") && frame.last.is_some() {
                    return Ok(());
                }
                let pos = frame.catch_up();
                let m = if san == "--" || san == "Z0" {
                    if pos.is_check() {
                        return Err(PgnErrorKind::NullMoveInCheck(san.to_string()));
                    }
                    Move::NULL
                } else {
                    match pos.parse_san_lenient(san) {
                        Ok(m) => m,
                        Err(e) => return Err(PgnErrorKind::Move(e)),
                    }
                };
                visitor.play(pos, m);
                frame.last = Some(m);
                if let Some(n) = nag {
                    visitor.nag(n);
                }
            }
        }
        Ok(())
    }

    /// The movetext begins: the start position from the tags.
    fn begin_moves<V: Visitor>(&mut self, visitor: &mut V) -> Result<(), PgnErrorKind> {
        self.started = true;
        let (pos, chess960) = start_position(self.fen.as_deref(), self.variant.as_deref())?;
        visitor.begin_moves(&pos, chess960);
        self.stack.push(Frame { pos, last: None });
        Ok(())
    }

    /// The game's text has ended.
    fn finish<V: Visitor>(&mut self, visitor: &mut V) -> Result<V::Output, PgnErrorKind> {
        if self.stack.len() > 1 || self.skipping > 0 {
            return Err(PgnErrorKind::UnclosedVariation);
        }
        if !self.started {
            self.begin_moves(visitor)?;
        }
        Ok(visitor.end_game(self.result.or(self.result_tag)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::GameBuilder;

    /// Every game of `text` read as the parser reads it, and again by the lexer alone.
    fn both_ways(text: &[u8]) -> [Vec<String>; 2] {
        let mut parser = Parser::new(text);
        let mut builder = GameBuilder::default();
        let mut fast = Vec::new();
        while let Some(game) = parser.read_game(&mut builder) {
            fast.push(format!("{game:?}"));
        }
        let mut input = Parser::new(text).input;
        let mut lexed = Vec::new();
        while let Some(first_line) = input.next_game(|_, _, _| false) {
            let tokens = Tokens::new(input.game_text(), first_line, 0, &[]);
            let mut game = GameState::new(Vec::new());
            builder.begin_game();
            let game = read_lexed(tokens, &mut game, lexed.len() + 1, &mut builder);
            lexed.push(format!("{game:?}"));
        }
        [fast, lexed]
    }

    #[test]
    fn move_symbols_split_alike_at_a_glance_and_in_full() {
        for word in [
            "e4", "Nf3+", "Qxh7#", "O-O", "0-0", "e8=Q", "e8Q", "exd6e.p.", "12.", "12...", "1.e4",
            "1.2.", "12.Nf3!?", "Nf3!", "1...", "!?", "9", "a", ".", "12.!!", "Ke2??",
        ] {
            assert_eq!(split_symbol(word), split_symbol_fully(word), "{word}");
        }
    }

    #[test]
    fn plain_tags_read_at_a_glance_as_the_lexer_reads_them() {
        for line in [
            "[Event \"x\"]",
            "[White \"A \\\"B\\\" \\\\ C\"]",
            "[Site \"a]b\"]",
            "[Round \"\"]",
            "[FEN \"8/8/8/8/8/8/8/K1k5 w - - 0 1\"]",
            "[A \"x\\\"]",
            "[A \"x\" y\"]",
            "[A  \"x\"]",
            "[A_1 \"\u{4e2d}\"]",
        ] {
            let lexed = Lexer {
                text: line,
                pos: 0,
                loc: Loc::default(),
                failure: None,
                line: 1,
                line_start: 0,
            }
            .next();
            if let Some(tag) = simple_tag(line) {
                assert_eq!(Some(tag), lexed, "{line}");
            }
        }
        assert!(simple_tag("[Event \"x\"]").is_some());
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
        let specials = b"{}()[];$%\n \"*1-0!?.\t\r\x0b";
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
        for (k, text) in inputs.iter().enumerate() {
            let [fast, lexed] = both_ways(text);
            assert_eq!(fast, lexed, "{:?}", String::from_utf8_lossy(text));
            if k % 20 == 0 {
                assert_eq!(trickled(text), fast, "{:?}", String::from_utf8_lossy(text));
            }
        }
    }

    /// A stream that gives one byte per read.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let Some((&b, rest)) = self.0.split_first() else {
                return Ok(0);
            };
            buf[0] = b;
            self.0 = rest;
            Ok(1)
        }
    }

    /// Every game of `text` read from a stream that gives it a byte at a time.
    fn trickled(text: &[u8]) -> Vec<String> {
        let mut parser = Parser::new(Trickle(text));
        let mut builder = GameBuilder::default();
        let mut games = Vec::new();
        while let Some(game) = parser.read_game(&mut builder) {
            games.push(format!("{game:?}"));
        }
        games
    }

    /// `text` as the reader decodes it: UTF-8, and each byte that is not valid UTF-8 as Latin-1.
    fn decode(mut text: &[u8]) -> String {
        let mut out = String::new();
        while !text.is_empty() {
            match std::str::from_utf8(text) {
                Ok(valid) => {
                    out.push_str(valid);
                    text = &[];
                }
                Err(e) => {
                    let (valid, rest) = text.split_at(e.valid_up_to());
                    out.push_str(std::str::from_utf8(valid).unwrap());
                    let bad = e.error_len().unwrap_or(rest.len());
                    out.extend(rest[..bad].iter().map(|&b| char::from(b)));
                    text = &rest[bad..];
                }
            }
        }
        out
    }

    #[test]
    fn latin1_bytes_read_as_latin1_however_the_stream_is_cut() {
        let text = b"[Event \"caf\xe9\"]\n\n1. e4 {\xf0\x9f\x98 x} e5 {\xe2\x82} 2. Nf3 *\n1. d4 \xc2\xbd-\xc2\xbd\n1. c4 {\xf0\x9f";
        let lossy = decode(text);
        let mut whole = Parser::new(lossy.as_bytes());
        let mut builder = GameBuilder::default();
        let mut expected = Vec::new();
        while let Some(game) = whole.read_game(&mut builder) {
            expected.push(format!("{game:?}"));
        }
        assert_eq!(expected.len(), 2);
        // A Latin-1 file's "café" stays "café".
        assert!(expected[0].contains("café"), "{}", expected[0]);
        assert_eq!(trickled(text), expected);
        let [fast, _] = both_ways(text);
        assert_eq!(fast, expected);
    }

    #[test]
    fn an_apart_en_passant_marker_and_a_glyph_past_255_keep_the_game() {
        let text = "1. e4 Nf6 2. e5 d5 3. exd6 e.p. $256 cxd6 $1 *";
        let games = crate::pgn::read_str(text);
        let game = games[0].as_ref().expect("the game is kept");
        assert_eq!(game.ply_count(), 6);
        let written = crate::pgn::write(game);
        assert!(written.contains("3. exd6 cxd6 $1 *"), "{written}");
    }
}
