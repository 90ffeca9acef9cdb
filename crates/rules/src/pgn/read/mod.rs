//! Reading PGN in one pass. The stream becomes text as it is read (invalid UTF-8 replaced);
//! the splitter ([`Input`]) cuts it into games a line at a time and hands each token it finds
//! straight to the game being read ([`GameState`]), which resolves and plays the moves and
//! reports each step to a [`Visitor`]. Where the splitter meets something it does not take
//! apart (a tag line that is not one plain pair, a glyph glued to a move, a stray brace) the
//! lexer reads the rest of that game. Nothing is copied or allocated per move unless the
//! visitor wants it.

mod build;
mod lex;
mod split;
mod visitor;

use std::io::Read;

use build::{Frame, GameState};
use lex::{LINE_START_UNKNOWN, Loc, Token, Tokens, plain_tag, result_marker};
use split::{Input, Raw, RawKind};
pub use visitor::{Variation, Visitor};

use crate::pgn::{PgnError, PgnErrorKind};

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

#[cfg(test)]
mod tests;
