//! The scoresheet as PGN: every move with its clock, draw offers "(=)", the arbiter's notes,
//! and tags for the time control and how the game ended.

use crate::{Game, Millis};
use vizier_rules::{Language, PieceStyle, pgn};

/// What an analysis says about one move, for the PGN: annotation glyphs (NAGs: 2 `?`,
/// 4 `??`, 6 `?!`) and comment text set before the clock (`[%eval 0.31]`, "Blunder. Nf3 was
/// best.").
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotation {
    pub nags: Vec<u8>,
    pub comments: Vec<String>,
}

/// The players and event for the PGN header (the Seven Tag Roster's other tags come from the
/// game itself).
///
/// ```
/// let tags = vizier_arbiter::Tags { white: "Anna".into(), ..Default::default() };
/// assert_eq!(tags.black, "?");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tags {
    /// Event name.
    pub event: String,
    /// Where it was played.
    pub site: String,
    /// Date as YYYY.MM.DD.
    pub date: String,
    /// Round.
    pub round: String,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// More tags, after the ones the game gives (`WhiteElo`, `ECO`, …).
    pub extra: Vec<(String, String)>,
}

impl Default for Tags {
    fn default() -> Tags {
        let q = || "?".to_string();
        Tags {
            event: q(),
            site: q(),
            date: "????.??.??".into(),
            round: q(),
            white: q(),
            black: q(),
            extra: Vec::new(),
        }
    }
}

/// `[%clk h:mm:ss]`, with tenths when they are not zero.
fn clk(ms: Millis) -> String {
    let tenths = (ms % 1000) / 100;
    let s = ms / 1000;
    let base = format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
    if tenths > 0 {
        format!("[%clk {base}.{tenths}]")
    } else {
        format!("[%clk {base}]")
    }
}

impl Game {
    /// The game as PGN.
    ///
    /// ```
    /// use vizier_arbiter::{Command, Game, Setup, Tags, TimeControl};
    /// use vizier_rules::Color::{Black, White};
    /// let setup = Setup { control: TimeControl::sudden_death(300_000, 0), ..Setup::default() };
    /// let mut game = Game::new(setup, 0).unwrap();
    /// game.apply(1_000, Command::Move { by: White, mv: "e4".into() }).unwrap();
    /// game.apply(1_500, Command::OfferDraw { by: White }).unwrap_err(); // Black has not moved
    /// game.apply(3_000, Command::Move { by: Black, mv: "e5".into() }).unwrap();
    /// game.apply(3_500, Command::OfferDraw { by: Black }).unwrap();
    /// game.apply(4_000, Command::AcceptDraw { by: White }).unwrap();
    /// let pgn = game.pgn(&Tags::default());
    /// assert!(pgn.contains("[Result \"1/2-1/2\"]"));
    /// assert!(pgn.contains("[TimeControl \"300\"]"));
    /// assert!(pgn.contains("1. e4 {[%clk 0:04:59]} 1... e5 {[%clk 0:04:58] (=)} {½–½ · draw by agreement ·\nArt. 9.1} 1/2-1/2"), "{pgn}");
    /// ```
    pub fn pgn(&self, tags: &Tags) -> String {
        self.pgn_styled(tags, PieceStyle::Letters(Language::English))
    }

    /// The game as PGN with the pieces named in `style` (figurines, or another language's
    /// initials: Appendix C.3).
    ///
    /// ```
    /// use vizier_arbiter::{Command, Game, Setup, Tags};
    /// use vizier_rules::{Color::White, Language, PieceStyle};
    /// let mut game = Game::new(Setup::default(), 0).unwrap();
    /// game.apply(1, Command::Move { by: White, mv: "Nf3".into() }).unwrap();
    /// let pgn = game.pgn_styled(&Tags::default(), PieceStyle::Letters(Language::Chinese));
    /// assert!(pgn.contains("1. 马f3 *"), "{pgn}");
    /// ```
    pub fn pgn_styled(&self, tags: &Tags, style: PieceStyle) -> String {
        self.pgn_annotated(tags, style, &[])
    }

    /// The game as PGN with each move's `annotations` (by ply, from 0; missing ones are
    /// empty), in the same comment as its clock as lichess writes them.
    ///
    /// ```
    /// use vizier_arbiter::{Annotation, Command, Game, Setup, Tags};
    /// use vizier_rules::{Color::{Black, White}, Language, PieceStyle};
    /// let mut game = Game::new(Setup::default(), 0).unwrap();
    /// game.apply(1, Command::Move { by: White, mv: "f3".into() }).unwrap();
    /// game.apply(2, Command::Move { by: Black, mv: "e5".into() }).unwrap();
    /// let notes = [
    ///     Annotation { nags: vec![6], comments: vec!["[%eval -0.4]".into()] },
    ///     Annotation { nags: vec![], comments: vec!["[%eval -0.3]".into()] },
    /// ];
    /// let pgn = game.pgn_annotated(&Tags::default(), PieceStyle::Letters(Language::English), &notes);
    /// assert!(pgn.contains("1. f3 $6 {[%eval -0.4]} 1... e5 {[%eval -0.3]} *"), "{pgn}");
    /// ```
    pub fn pgn_annotated(
        &self,
        tags: &Tags,
        style: PieceStyle,
        annotations: &[Annotation],
    ) -> String {
        let result = self.outcome().map_or("*", |o| o.result.pgn()).to_string();
        let mut t: Vec<(String, String)> = [
            ("Event", &tags.event),
            ("Site", &tags.site),
            ("Date", &tags.date),
            ("Round", &tags.round),
            ("White", &tags.white),
            ("Black", &tags.black),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
        t.push(("Result".into(), result.clone()));
        if self.start_position() != &vizier_rules::Position::new() {
            t.push(("SetUp".into(), "1".into()));
            t.push(("FEN".into(), self.start_position().fen()));
        }
        if self.is_chess960() {
            t.push(("Variant".into(), "Chess960".into()));
        }
        let control = &self.setup().control;
        t.push(("TimeControl".into(), control.to_pgn_standard()));
        if let Some(delay) = control.pgn_delay() {
            t.push(("Delay".into(), delay));
        }
        if let Some(o) = self.outcome() {
            t.push(("Termination".into(), o.reason.pgn_termination().into()));
        }
        t.extend(tags.extra.iter().cloned());

        let mut nodes = Vec::new();
        let mut trailing: Vec<String> = Vec::new();
        for (i, ply) in self.plies().iter().enumerate() {
            let mut comments = Vec::new();
            let mut text = Vec::new();
            let note = annotations.get(i);
            if let Some(note) = note {
                text.extend(note.comments.iter().cloned());
            }
            if let Some(ms) = ply.clock_ms {
                text.push(clk(ms));
            }
            if ply.draw_offer {
                text.push("(=)".into());
            }
            for side in &ply.peeks {
                text.push(format!(
                    "{} peeked at the board",
                    side.fold("White", "Black")
                ));
            }
            text.extend(ply.notes.iter().cloned());
            if self.dead_after() == Some(i + 1) {
                text.push(
                    "dead position from here: neither side can checkmate (Art. 5.2.2)".into(),
                );
            }
            if ply.irregular || !trailing.is_empty() {
                // PGN cannot carry an illegal move: what follows it goes into a comment.
                trailing.push(ply.san.to_string());
                continue;
            }
            if !text.is_empty() {
                comments.push(text.join(" "));
            }
            nodes.push(pgn::Node {
                mv: ply.mv,
                nags: note.map(|n| n.nags.clone()).unwrap_or_default(),
                comments,
                variations: Vec::new(),
            });
        }
        let mut last_words = Vec::new();
        if !trailing.is_empty() {
            last_words.push(format!("then (illegal move stood): {}", trailing.join(" ")));
        }
        if let Some(o) = self.outcome() {
            last_words.push(o.to_string());
        }
        let mut mainline = pgn::Line {
            comments: Vec::new(),
            nodes,
        };
        if !last_words.is_empty() {
            match mainline.nodes.last_mut() {
                Some(n) => n.comments.push(last_words.join("; ")),
                None => mainline.comments.push(last_words.join("; ")),
            }
        }
        let game = pgn::Game {
            tags: t,
            start: self.start_position().clone(),
            chess960: self.is_chess960(),
            mainline,
            result,
        };
        pgn::write_styled(&game, style)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Command, CommandError, Game, Setup, Tags, TimeControl};
    use vizier_rules::Color::{Black, White};

    #[test]
    fn a_blindfold_peek_is_noted_after_the_last_move_once_per_side() {
        let mut game = Game::new(Setup::default(), 0).unwrap();
        assert_eq!(
            game.apply(1, Command::Peek { by: White }),
            Err(CommandError::NoMoveYet)
        );
        game.apply(
            2,
            Command::Move {
                by: White,
                mv: "e4".into(),
            },
        )
        .unwrap();
        game.apply(3, Command::Peek { by: Black }).unwrap();
        game.apply(4, Command::Peek { by: Black }).unwrap();
        game.apply(
            5,
            Command::Move {
                by: Black,
                mv: "e5".into(),
            },
        )
        .unwrap();
        assert_eq!(game.plies()[0].peeks.as_slice(), [Black]);
        let pgn = game.pgn(&Tags::default());
        assert!(
            pgn.contains("1. e4 {Black peeked at the board} 1... e5 *"),
            "{pgn}"
        );
    }

    #[test]
    fn a_delay_goes_to_its_own_tag_and_time_control_stays_standard() {
        for (control, standard, delay) in [
            ("180d5", "180", Some("d5")),
            ("40/5400b30:1800+30", "40/5400:1800+30", Some("b30:-")),
            ("300+2", "300+2", None),
        ] {
            let setup = Setup {
                control: TimeControl::parse_pgn(control).unwrap(),
                ..Setup::default()
            };
            let pgn = Game::new(setup, 0).unwrap().pgn(&Tags::default());
            assert!(
                pgn.contains(&format!("[TimeControl \"{standard}\"]")),
                "{pgn}"
            );
            match delay {
                Some(d) => assert!(pgn.contains(&format!("[Delay \"{d}\"]")), "{pgn}"),
                None => assert!(!pgn.contains("[Delay "), "{pgn}"),
            }
        }
    }
}
