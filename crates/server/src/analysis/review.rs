//! A game's review: every position analysed at one budget, each move judged by how much it
//! lowered its player's winning chances, and an accuracy per player. The mapping from the
//! engine's centipawns to winning chances and from lost chances to accuracy are lichess's
//! published ones (docs/analysis.md).

use serde::{Deserialize, Serialize};
use vizier_engine::analyst::{Analyst, Budget, Eval};
use vizier_rules::{Color, History, Move, UciCastling};

/// One position's verdict, from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Centipawns for White.
    Cp(i32),
    /// White mates in this many moves (negative: Black does).
    Mate(i32),
    /// The game is over on the board: checkmate (the winner), or a draw (none).
    Over(Option<Color>),
}

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Judgement {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Judgement {
    /// The PGN annotation glyph: `?!` (6), `?` (2), `??` (4).
    pub fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    /// The word for it in a PGN comment.
    pub fn word(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        }
    }
}

/// One analysed position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PositionReview {
    pub verdict: Verdict,
    /// The engine's move here (UCI), where there is a legal move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best: Option<String>,
    /// The same in SAN.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_san: Option<String>,
}

/// One move's judgement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MoveReview {
    /// The mover's winning chances before and after, in Win% (0–100).
    pub win_before: f64,
    pub win_after: f64,
    /// Lichess's move accuracy, 0–100.
    pub accuracy: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judgement: Option<Judgement>,
}

/// A whole game's review.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Review {
    /// Nodes searched per position.
    pub nodes: u64,
    /// The positions, from the start to after the last move (one more than the moves).
    pub positions: Vec<PositionReview>,
    pub moves: Vec<MoveReview>,
    /// The mean of each player's move accuracies (none without a move).
    pub accuracy: Accuracy,
}

/// Each player's accuracy.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Accuracy {
    pub white: Option<f64>,
    pub black: Option<f64>,
}

/// White's Win% (0–100) in a position of this verdict: lichess's logistic curve over
/// centipawns, capped at ±1000; a mate counts as a decisive advantage.
///
/// ```
/// use vizier_server::analysis::review::{Verdict, win_percent};
/// assert_eq!(win_percent(Verdict::Cp(0)), 50.0);
/// assert!((win_percent(Verdict::Cp(100)) - 59.1).abs() < 0.1);
/// assert!(win_percent(Verdict::Mate(-3)) < 1.0);
/// ```
pub fn win_percent(v: Verdict) -> f64 {
    let cp = match v {
        Verdict::Cp(cp) => cp.clamp(-1_000, 1_000),
        Verdict::Mate(n) => (21 - n.abs().min(10)) * 100 * n.signum(),
        Verdict::Over(Some(Color::White)) => return 100.0,
        Verdict::Over(Some(Color::Black)) => return 0.0,
        Verdict::Over(None) => return 50.0,
    };
    50.0 + 50.0 * (2.0 / (1.0 + (-0.003_682_08 * f64::from(cp)).exp()) - 1.0)
}

/// Lichess's accuracy of a move that took the mover from `before` to `after` Win%.
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    let lost = (before - after).max(0.0);
    (103.166_8 * (-0.043_54 * lost).exp() - 3.166_9).clamp(0.0, 100.0)
}

/// The judgement of a move that lost `lost` Win% points: 5, 10 and 15 points (0.1, 0.2 and
/// 0.3 on lichess's −1…1 scale of winning chances).
pub fn judge(lost: f64) -> Option<Judgement> {
    if lost >= 15.0 {
        Some(Judgement::Blunder)
    } else if lost >= 10.0 {
        Some(Judgement::Mistake)
    } else if lost >= 5.0 {
        Some(Judgement::Inaccuracy)
    } else {
        None
    }
}

/// Judges the moves between `positions` (the first player to move being `first`) and sums up.
pub fn judge_game(nodes: u64, positions: Vec<PositionReview>, first: Color) -> Review {
    let mut moves = Vec::new();
    let mut sums = [(0.0, 0usize); 2];
    let mut mover = first;
    for pair in positions.windows(2) {
        let white_before = win_percent(pair[0].verdict);
        let white_after = win_percent(pair[1].verdict);
        let (before, after) = match mover {
            Color::White => (white_before, white_after),
            Color::Black => (100.0 - white_before, 100.0 - white_after),
        };
        let accuracy = move_accuracy(before, after);
        sums[mover.index()].0 += accuracy;
        sums[mover.index()].1 += 1;
        moves.push(MoveReview {
            win_before: round1(before),
            win_after: round1(after),
            accuracy: round1(accuracy),
            judgement: judge(before - after),
        });
        mover = !mover;
    }
    let mean = |(sum, n): (f64, usize)| (n > 0).then(|| round1(sum / n as f64));
    Review {
        nodes,
        positions,
        moves,
        accuracy: Accuracy {
            white: mean(sums[0]),
            black: mean(sums[1]),
        },
    }
}

impl Review {
    /// The review as PGN annotations, one per move: the evaluation after it (`[%eval 0.31]`,
    /// `[%eval #-2]`) and, for a marked move, its glyph and "Blunder. Qh4# was best."
    /// `played` is each move in UCI, to tell whether the engine's move was the one played.
    pub fn annotations(&self, played: &[String]) -> Vec<vizier_arbiter::Annotation> {
        self.moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let mut note = vizier_arbiter::Annotation::default();
                match self.positions.get(i + 1).map(|p| p.verdict) {
                    Some(Verdict::Cp(cp)) => note
                        .comments
                        .push(format!("[%eval {:.2}]", f64::from(cp) / 100.0)),
                    Some(Verdict::Mate(n)) => note.comments.push(format!("[%eval #{n}]")),
                    _ => {}
                }
                if let Some(j) = m.judgement {
                    note.nags.push(j.nag());
                    let before = self.positions.get(i);
                    let best = before.and_then(|p| p.best.as_deref().zip(p.best_san.as_deref()));
                    match best {
                        Some((uci, san)) if played.get(i).map(String::as_str) != Some(uci) => {
                            note.comments.push(format!("{}. {san} was best.", j.word()));
                        }
                        _ => note.comments.push(format!("{}.", j.word())),
                    }
                }
                note
            })
            .collect()
    }
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// Analyses one position for a review: the verdict from White's side, and the best move.
pub fn review_position(
    analyst: &Analyst,
    game: &History,
    nodes: u64,
    castling: UciCastling,
) -> PositionReview {
    let pos = game.position();
    if pos.legal_moves().is_empty() {
        let verdict = if pos.is_check() {
            Verdict::Over(Some(match pos.turn() {
                Color::White => Color::Black,
                Color::Black => Color::White,
            }))
        } else {
            Verdict::Over(None)
        };
        return PositionReview {
            verdict,
            best: None,
            best_san: None,
        };
    }
    let budget = Budget {
        nodes,
        ms: 0,
        lines: 1,
    };
    let lines = analyst.analyse(game, budget, &mut |_| {});
    let Some(line) = lines.first() else {
        return PositionReview {
            verdict: Verdict::Cp(0),
            best: None,
            best_san: None,
        };
    };
    let eval = match pos.turn() {
        Color::White => line.eval,
        Color::Black => line.eval.flip(),
    };
    let best: Move = line.pv[0];
    PositionReview {
        verdict: match eval {
            Eval::Cp(cp) => Verdict::Cp(cp),
            Eval::Mate(n) => Verdict::Mate(n),
        },
        best: Some(pos.uci(best, castling).to_string()),
        best_san: Some(pos.san(best).to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(verdict: Verdict) -> PositionReview {
        PositionReview {
            verdict,
            best: None,
            best_san: None,
        }
    }

    #[test]
    fn win_percent_follows_lichess_curve() {
        assert!((win_percent(Verdict::Cp(300)) - 75.1).abs() < 0.1);
        assert!((win_percent(Verdict::Cp(-300)) - 24.9).abs() < 0.1);
        assert_eq!(
            win_percent(Verdict::Cp(5_000)),
            win_percent(Verdict::Cp(1_000))
        );
        assert!(win_percent(Verdict::Mate(1)) > win_percent(Verdict::Cp(1_000)));
        assert!(win_percent(Verdict::Mate(1)) > win_percent(Verdict::Mate(9)));
    }

    #[test]
    fn accuracy_is_full_for_no_loss_and_falls_with_it() {
        assert!((move_accuracy(60.0, 60.0) - 100.0).abs() < 0.01);
        assert!(
            (move_accuracy(60.0, 65.0) - 100.0).abs() < 0.01,
            "gains count as none"
        );
        let a10 = move_accuracy(60.0, 50.0);
        assert!((a10 - 63.5).abs() < 0.5, "{a10}");
        assert_eq!(move_accuracy(100.0, 0.0), 0.0);
    }

    #[test]
    fn moves_are_judged_from_their_players_side() {
        // 1. White keeps equality; 1... Black drops a piece (+300 for White); 2. White gives
        // it back and more (−400); 2... Black finds the best move.
        let positions = vec![
            at(Verdict::Cp(20)),
            at(Verdict::Cp(25)),
            at(Verdict::Cp(300)),
            at(Verdict::Cp(-400)),
            at(Verdict::Cp(-380)),
        ];
        let r = judge_game(1_000, positions, Color::White);
        let judged: Vec<_> = r.moves.iter().map(|m| m.judgement).collect();
        assert_eq!(
            judged,
            [
                None,
                Some(Judgement::Blunder),
                Some(Judgement::Blunder),
                None
            ]
        );
        // One perfect move and one blunder each, less than perfect play by far.
        for a in [r.accuracy.white.unwrap(), r.accuracy.black.unwrap()] {
            assert!((40.0..75.0).contains(&a), "{:?}", r.accuracy);
        }
        // A small slip is an inaccuracy, a bigger one a mistake.
        assert_eq!(judge(6.0), Some(Judgement::Inaccuracy));
        assert_eq!(judge(12.0), Some(Judgement::Mistake));
        assert_eq!(judge(4.9), None);
    }

    #[test]
    fn checkmate_on_the_board_is_a_win_and_a_game_from_black_starts_with_black() {
        let positions = vec![at(Verdict::Mate(-1)), at(Verdict::Over(Some(Color::Black)))];
        let r = judge_game(1, positions, Color::Black);
        assert_eq!(r.moves[0].judgement, None);
        assert_eq!(r.accuracy.white, None);
        assert_eq!(r.accuracy.black, Some(100.0));
    }

    #[test]
    fn a_review_reads_back_from_its_json() {
        let r = judge_game(
            10,
            vec![at(Verdict::Cp(0)), at(Verdict::Mate(2))],
            Color::White,
        );
        let json = serde_json::to_string(&r).unwrap();
        assert!(json.contains(r#""verdict":{"mate":2}"#), "{json}");
        assert_eq!(serde_json::from_str::<Review>(&json).unwrap(), r);
    }
}
