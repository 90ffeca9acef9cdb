//! The splitter: cuts the byte stream into games a line at a time, and each game into the
//! tokens it can take apart itself ([`Raw`]); what it cannot (a tag line that is not one
//! plain pair, a glyph glued to a move, a stray brace) it leaves to the lexer.

use std::io::Read;

pub(super) const fn byte_set(bytes: &[u8]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < bytes.len() {
        t[bytes[i] as usize] = true;
        i += 1;
    }
    t
}

/// Bytes where the splitter looks again: ASCII white space, comments and variations.
pub(super) const SPLITTER_STOPS: [bool; 256] = byte_set(b" \t\n\r\x0c{}();");
/// Bytes that end a word for the lexer: the splitter's and tag brackets and NAG marks.
pub(super) const ENDS_WORD: [bool; 256] = byte_set(b" \t\n\r\x0c{}();[]$");
/// Bytes that the splitter leaves inside a word but the lexer does not: such a word is the
/// lexer's to read.
pub(super) const LEXER_ONLY: [bool; 256] = byte_set(b"[]$");

/// How far the word at the start of `bytes` runs (to a splitter stop or the end), and whether
/// it holds a byte that only the lexer reads.
#[inline]
pub(super) fn scan_word(bytes: &[u8]) -> (usize, bool) {
    let mut odd = false;
    for (k, &b) in bytes.iter().enumerate() {
        if SPLITTER_STOPS[b as usize] {
            return (k, odd);
        }
        odd |= LEXER_ONLY[b as usize];
    }
    (bytes.len(), odd)
}

/// Cuts a byte stream into games: a game ends with the line of its termination marker
/// (outside comments and variations) or where a tag line follows movetext. Each token is
/// handed to the parser the moment it is found, so the text is read once.
pub(super) struct Input<R> {
    pub(super) reader: R,
    /// The text read and not yet dropped.
    pub(super) buf: String,
    /// Where the stream is read into before it becomes text.
    pub(super) partial: Vec<u8>,
    /// How many bytes at the start of `partial` are left from the last read: the start of
    /// a character cut by its end.
    pub(super) kept: usize,
    /// Start of the unread part of `buf`.
    pub(super) start: usize,
    /// The line number at `start`.
    pub(super) line: usize,
    pub(super) eof: bool,
    /// Whether reading has begun (a byte-order mark is looked for first).
    pub(super) started: bool,
    /// The text of the game cut out last: where it begins and ends in `buf`.
    pub(super) game: (usize, usize),
    /// The game's tokens from where its reader stopped taking them.
    pub(super) rest: Vec<Raw>,
}

/// What the splitter saw of a token: the parser turns it into a [`Token`]. Anything the
/// splitter does not take apart itself (a glyph glued to a move, a stray brace) becomes
/// [`RawKind::Lex`]: the lexer takes over from there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Raw {
    pub(super) kind: RawKind,
    /// Offsets from the game's first byte.
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) line: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RawKind {
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
    pub(super) fn fill(&mut self) -> (bool, usize) {
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
    pub(super) fn next_game(
        &mut self,
        mut take: impl FnMut(&str, usize, Raw) -> bool,
    ) -> Option<usize> {
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
    pub(super) fn game_text(&self) -> &str {
        self.buf.get(self.game.0..self.game.1).unwrap_or_default()
    }
}

#[inline]
pub(super) fn is_result(word: &[u8]) -> bool {
    // Most words are moves or move numbers: one byte tells nearly all of them apart.
    matches!(word.first(), Some(b'0' | b'1' | b'*'))
        && matches!(word, b"1-0" | b"0-1" | b"1/2-1/2" | b"*")
}
