//! The lexer: tokens of a game's text wherever the splitter did not take it apart — tags,
//! glyphs glued to moves, anything odd — and the stream of tokens the builder reads, the
//! splitter's and the lexer's handing over where a token begins.

use std::borrow::Cow;

use super::split::{ENDS_WORD, Raw, RawKind};
use crate::pgn::{PgnError, PgnErrorKind};

/// A tag line holding a well-formed tag pair and nothing else (white space aside), as the
/// lexer reads it; `None` for anything else, which the lexer then reads (and reports).
#[inline]
pub(super) fn plain_tag(line: &str) -> Option<Token<'_>> {
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
pub(super) fn simple_tag(line: &str) -> Option<Token<'_>> {
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
pub(super) enum Token<'a> {
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
pub(super) const LINE_START_UNKNOWN: usize = usize::MAX;

/// Where the line holding byte `at` of `text` begins.
pub(super) fn line_start(text: &str, at: usize) -> usize {
    let before = &text.as_bytes()[..at.min(text.len())];
    memchr::memrchr(b'\n', before).map_or(0, |n| n + 1)
}

/// Where a token starts: its line, and the byte offsets of that line and of the token (the
/// column in characters is only counted for an error).
#[derive(Clone, Copy, Default)]
pub(super) struct Loc {
    pub(super) line: usize,
    pub(super) line_start: usize,
    pub(super) at: usize,
}

impl Loc {
    /// An error here in `text`, its column counted in characters.
    pub(super) fn error(self, text: &str, kind: PgnErrorKind, game: usize) -> PgnError {
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

pub(super) struct Lexer<'a> {
    pub(super) text: &'a str,
    pub(super) pos: usize,
    /// Where the last token began.
    pub(super) loc: Loc,
    /// What was wrong, after a [`Token::Error`].
    pub(super) failure: Option<PgnErrorKind>,
    pub(super) line: usize,
    pub(super) line_start: usize,
}

impl<'a> Lexer<'a> {
    pub(super) fn error(&self, loc: Loc, kind: PgnErrorKind, game: usize) -> PgnError {
        loc.error(self.text, kind, game)
    }

    /// Steps over white space and `;` comments; returns where the next token begins.
    pub(super) fn skip_space(&mut self) -> usize {
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

    pub(super) fn bump_lines(&mut self, from: usize, to: usize) {
        for (i, b) in self.text.as_bytes()[from..to].iter().enumerate() {
            if *b == b'\n' {
                self.line += 1;
                self.line_start = from + i + 1;
            }
        }
    }

    /// The next token (its place in `self.loc`).
    pub(super) fn next(&mut self) -> Option<Token<'a>> {
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
pub(super) fn unescape(raw: &str) -> Cow<'_, str> {
    if raw.contains('\\') {
        Cow::Owned(raw.replace("\\\"", "\"").replace("\\\\", "\\"))
    } else {
        Cow::Borrowed(raw)
    }
}

/// Where the tag opened with `[` at `bytes[start]` closes: the first `]`, or the first after
/// the quoted value when there is one (a `]` inside the value does not close the tag). Also
/// whether the value was closed and a `]` found after it (else more text could move the end).
pub(super) fn tag_end(bytes: &[u8], start: usize) -> Option<(usize, bool)> {
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
pub(super) fn tag_pair(body: &str) -> Result<(&str, &str), PgnErrorKind> {
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
pub(super) struct Tokens<'a, 'r> {
    pub(super) lexer: Lexer<'a>,
    pub(super) raw: &'r [Raw],
    /// The next splitter token to use (or, while lexing, to resume at).
    pub(super) next_raw: usize,
    pub(super) lexing: bool,
}

impl<'a, 'r> Tokens<'a, 'r> {
    /// The tokens of a game's `text` from byte `at` (on line `line`) on, with the splitter's
    /// `raw` tokens (empty: the lexer reads it all). The lexer reads first.
    pub(super) fn new(text: &'a str, line: usize, at: usize, raw: &'r [Raw]) -> Tokens<'a, 'r> {
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
    pub(super) fn next(&mut self) -> Option<Token<'a>> {
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
    pub(super) fn loc(&self) -> Loc {
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
    pub(super) fn error(&self, kind: PgnErrorKind, game: usize) -> PgnError {
        self.lexer.error(self.loc(), kind, game)
    }

    /// The lexer reads on from where `r` begins.
    pub(super) fn lex_from(&mut self, r: Raw) {
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
pub(super) fn split_symbol(word: &str) -> (&str, Option<u8>) {
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
pub(super) fn split_symbol_fully(word: &str) -> (&str, Option<u8>) {
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

/// The termination marker `word` spells.
pub(super) fn result_marker(word: &[u8]) -> Option<&'static str> {
    Some(match word {
        b"1-0" => "1-0",
        b"0-1" => "0-1",
        b"1/2-1/2" => "1/2-1/2",
        b"*" => "*",
        [0xc2, 0xbd, b'-', 0xc2, 0xbd] => "½-½",
        _ => return None,
    })
}
