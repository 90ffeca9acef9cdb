//! The builder: a game being read, resolving and playing each move and reporting each step to
//! the visitor.

use super::lex::{Token, result_marker, split_symbol, unescape};
use super::visitor::{Variation, Visitor};
use crate::pgn::PgnErrorKind;
use crate::{Move, Position};

/// A line of play being read. Its last move is played only when the next one comes: until
/// then `pos` is where a variation on it starts, so no position is copied per move.
pub(super) struct Frame {
    pub(super) pos: Position,
    /// The last move read, not yet played.
    pub(super) last: Option<Move>,
}

impl Frame {
    /// The position after every move read.
    #[inline]
    pub(super) fn catch_up(&mut self) -> &Position {
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
pub(super) struct GameState {
    pub(super) fen: Option<String>,
    pub(super) variant: Option<String>,
    pub(super) result_tag: Option<&'static str>,
    /// Entered lines of play, the main line first.
    pub(super) stack: Vec<Frame>,
    /// The open parentheses of a skipped variation.
    pub(super) skipping: usize,
    /// Whether the movetext has begun.
    pub(super) started: bool,
    pub(super) result: Option<&'static str>,
}

impl GameState {
    /// A new game, reusing the memory of `stack`.
    pub(super) fn new(mut stack: Vec<Frame>) -> GameState {
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
    pub(super) fn feed<V: Visitor>(
        &mut self,
        tok: Token<'_>,
        visitor: &mut V,
    ) -> Result<(), PgnErrorKind> {
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
                Token::Open
                    if self.stack.len() + self.skipping > crate::pgn::MAX_VARIATION_DEPTH =>
                {
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
                if depth >= crate::pgn::MAX_VARIATION_DEPTH {
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
    pub(super) fn begin_moves<V: Visitor>(&mut self, visitor: &mut V) -> Result<(), PgnErrorKind> {
        self.started = true;
        let (pos, chess960) = start_position(self.fen.as_deref(), self.variant.as_deref())?;
        visitor.begin_moves(&pos, chess960);
        self.stack.push(Frame { pos, last: None });
        Ok(())
    }

    /// The game's text has ended.
    pub(super) fn finish<V: Visitor>(
        &mut self,
        visitor: &mut V,
    ) -> Result<V::Output, PgnErrorKind> {
        if self.stack.len() > 1 || self.skipping > 0 {
            return Err(PgnErrorKind::UnclosedVariation);
        }
        if !self.started {
            self.begin_moves(visitor)?;
        }
        Ok(visitor.end_game(self.result.or(self.result_tag)))
    }
}
