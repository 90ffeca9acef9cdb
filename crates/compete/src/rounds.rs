//! Who plays whom next: the Berger table's round for a round robin, the FIDE Dutch system
//! for a Swiss (over the tournament's own TRF, exactly as `vizier pair` pairs a file).

use core::fmt;

use vizier_pairing::dutch::{self, Edition};
use vizier_pairing::field::Field;

use crate::model::{Board, BoardResult, Bye, ByeKind, Format, HostColour, Tournament};

/// Why the next round cannot be paired.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PairingError {
    /// Fewer than two players are left to pair.
    TooFewPlayers,
    /// Every round has been paired.
    NoRoundsLeft,
    /// The Dutch system finds no pairing (C.04.3's absolute criteria).
    NoPairing(String),
}

impl fmt::Display for PairingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PairingError::TooFewPlayers => write!(f, "fewer than two players are left to pair"),
            PairingError::NoRoundsLeft => write!(f, "every round has been paired"),
            PairingError::NoPairing(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for PairingError {}

/// The next round's boards (a board where a withdrawn player sits is already scored as a
/// forfeit) and its byes.
pub fn next_round(t: &Tournament) -> Result<(Vec<Board>, Vec<Bye>), PairingError> {
    if t.rounds.len() as u32 >= t.total_rounds() {
        return Err(PairingError::NoRoundsLeft);
    }
    match t.format {
        Format::RoundRobin { double } => Ok(round_robin(t, double)),
        Format::Swiss { edition2017, .. } => swiss(t, edition2017),
        Format::Arena { .. } => Err(PairingError::NoRoundsLeft),
        Format::Simul { host_colour } => simul(t, host_colour),
    }
}

/// The host against every other player still in, one board each.
fn simul(t: &Tournament, colour: HostColour) -> Result<(Vec<Board>, Vec<Bye>), PairingError> {
    let host = t.host_number().ok_or(PairingError::TooFewPlayers)?;
    let boards: Vec<Board> = (1..=t.players.len() as u32)
        .filter(|&n| n != host && !t.players[n as usize - 1].withdrawn)
        .map(|n| {
            let host_white = match colour {
                HostColour::White => true,
                HostColour::Black => false,
                HostColour::Random => rand::random(),
            };
            let (white, black) = if host_white { (host, n) } else { (n, host) };
            Board {
                white,
                black,
                game: None,
                result: None,
                corrected: false,
            }
        })
        .collect();
    if boards.is_empty() {
        return Err(PairingError::TooFewPlayers);
    }
    Ok((boards, Vec::new()))
}

fn round_robin(t: &Tournament, double: bool) -> (Vec<Board>, Vec<Bye>) {
    let n = t.players.len() as u32;
    let schedule = vizier_pairing::berger::schedule(n, double);
    let pairs = &schedule[t.rounds.len()];
    let mut boards = Vec::new();
    let mut byes = Vec::new();
    for &(white, black) in pairs {
        if black > n {
            byes.push(Bye {
                player: white,
                kind: ByeKind::Absent,
            });
            continue;
        }
        if white > n {
            byes.push(Bye {
                player: black,
                kind: ByeKind::Absent,
            });
            continue;
        }
        let gone = |p: u32| t.entrant(p).is_some_and(|e| e.withdrawn);
        let result = match (gone(white), gone(black)) {
            (true, true) => Some(BoardResult::BothForfeit),
            (true, false) => Some(BoardResult::WhiteForfeits),
            (false, true) => Some(BoardResult::BlackForfeits),
            (false, false) => None,
        };
        boards.push(Board {
            white,
            black,
            game: None,
            result,
            corrected: false,
        });
    }
    (boards, byes)
}

fn swiss(t: &Tournament, edition2017: bool) -> Result<(Vec<Board>, Vec<Bye>), PairingError> {
    let active = (t.players.iter())
        .filter(|e| !e.withdrawn && !e.bye_next && !e.zero_bye_next)
        .count();
    if active < 2 {
        return Err(PairingError::TooFewPlayers);
    }
    let trf = crate::report::to_trf(t, false);
    let field =
        Field::for_next_round(&trf).map_err(|e| PairingError::NoPairing(format!("{e:?}")))?;
    let edition = if edition2017 {
        Edition::E2017
    } else {
        Edition::E2026
    };
    let paired =
        dutch::pair_edition(&field, edition).map_err(|e| PairingError::NoPairing(e.to_string()))?;
    let mut boards = Vec::new();
    let mut byes: Vec<Bye> = t
        .players
        .iter()
        .enumerate()
        .filter(|(_, e)| e.withdrawn || e.bye_next || e.zero_bye_next)
        .map(|(i, e)| Bye {
            player: i as u32 + 1,
            kind: if e.bye_next && !e.withdrawn {
                ByeKind::Half
            } else {
                ByeKind::Absent
            },
        })
        .collect();
    for b in paired {
        let white = field.players[b.white].id;
        match b.black {
            Some(black) => boards.push(Board {
                white,
                black: field.players[black].id,
                game: None,
                result: None,
                corrected: false,
            }),
            None => byes.push(Bye {
                player: white,
                kind: ByeKind::Pairing,
            }),
        }
    }
    Ok((boards, byes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Round;

    /// Players rated 2000, 1990, 1980…
    fn tournament(format: Format, players: usize) -> Tournament {
        let ratings: Vec<i32> = (0..players as i32).map(|i| 2000 - 10 * i).collect();
        Tournament::sample(format, &ratings)
    }

    fn play(t: &mut Tournament, result: BoardResult) {
        let (mut boards, byes) = next_round(t).unwrap();
        for b in &mut boards {
            b.result.get_or_insert(result);
        }
        t.rounds.push(Round {
            number: t.rounds.len() as u32 + 1,
            started_at: 0,
            boards,
            byes,
        });
    }

    #[test]
    fn a_round_robin_of_five_rests_one_player_a_round() {
        let mut t = tournament(Format::RoundRobin { double: false }, 5);
        assert_eq!(t.total_rounds(), 5);
        let mut met = std::collections::HashSet::new();
        for _ in 0..5 {
            play(&mut t, BoardResult::Draw);
            let round = t.rounds.last().unwrap();
            assert_eq!(round.boards.len(), 2);
            assert_eq!(round.byes.len(), 1);
            for b in &round.boards {
                assert!(met.insert((b.white.min(b.black), b.white.max(b.black))));
            }
        }
        assert_eq!(met.len(), 10);
        assert_eq!(next_round(&t), Err(PairingError::NoRoundsLeft));
        // Everyone drew four games and rested once: 2 points each.
        for n in 1..=5 {
            assert_eq!(t.halves_of(n), 4);
        }
    }

    #[test]
    fn a_withdrawn_player_forfeits_the_rest_of_a_round_robin() {
        let mut t = tournament(Format::RoundRobin { double: false }, 4);
        play(&mut t, BoardResult::WhiteWins);
        t.players[0].withdrawn = true;
        let (boards, _) = next_round(&t).unwrap();
        let with_one = boards
            .iter()
            .find(|b| b.white == 1 || b.black == 1)
            .unwrap();
        let expected = if with_one.white == 1 {
            BoardResult::WhiteForfeits
        } else {
            BoardResult::BlackForfeits
        };
        assert_eq!(with_one.result, Some(expected));
    }

    #[test]
    fn a_swiss_of_seven_gives_one_bye_a_round_and_never_a_rematch() {
        let mut t = tournament(
            Format::Swiss {
                rounds: 5,
                edition2017: false,
            },
            7,
        );
        let mut met = std::collections::HashSet::new();
        let mut byes = std::collections::HashSet::new();
        for r in 0..5 {
            play(
                &mut t,
                if r % 2 == 0 {
                    BoardResult::WhiteWins
                } else {
                    BoardResult::Draw
                },
            );
            let round = t.rounds.last().unwrap();
            assert_eq!(round.boards.len(), 3);
            assert_eq!(round.byes.len(), 1);
            assert!(byes.insert(round.byes[0].player), "a second bye");
            for b in &round.boards {
                assert!(met.insert((b.white.min(b.black), b.white.max(b.black))));
            }
        }
        // Round 1 by the Dutch system: the top half meets the bottom half, 1 White.
        let first = &t.rounds[0];
        assert_eq!((first.boards[0].white, first.boards[0].black), (1, 4));
    }

    #[test]
    fn a_simul_host_meets_everyone_at_once() {
        let mut t = tournament(
            Format::Simul {
                host_colour: HostColour::Black,
            },
            4,
        );
        t.created_by = "p2".into();
        let (boards, byes) = next_round(&t).unwrap();
        assert!(byes.is_empty());
        assert_eq!(boards.len(), 3);
        assert!(boards.iter().all(|b| b.black == 3 && b.white != 3));
        assert_eq!(t.total_rounds(), 1);
    }

    #[test]
    fn a_requested_bye_gives_half_a_point_and_no_game() {
        let mut t = tournament(
            Format::Swiss {
                rounds: 3,
                edition2017: false,
            },
            6,
        );
        play(&mut t, BoardResult::WhiteWins);
        t.players[2].bye_next = true;
        let (boards, byes) = next_round(&t).unwrap();
        assert!(boards.iter().all(|b| b.white != 3 && b.black != 3));
        assert!(byes.contains(&Bye {
            player: 3,
            kind: ByeKind::Half
        }));
        // Five left to pair: one pairing-allocated bye as well.
        assert_eq!(boards.len(), 2);
        t.rounds.push(Round {
            number: 2,
            started_at: 0,
            boards,
            byes,
        });
        let before = t.rounds[0].boards.iter().any(|b| b.white == 3) as u32 * 2;
        assert_eq!(t.halves_of(3), before + 1);
        let trf = crate::report::to_trf(&t, true);
        assert!(
            trf.write(vizier_pairing::trf::Version::Trf2026)
                .contains(" H")
        );
    }

    #[test]
    fn a_withdrawn_player_is_not_paired_in_a_swiss() {
        let mut t = tournament(
            Format::Swiss {
                rounds: 3,
                edition2017: false,
            },
            6,
        );
        play(&mut t, BoardResult::Draw);
        t.players[5].withdrawn = true;
        let (boards, byes) = next_round(&t).unwrap();
        assert!(boards.iter().all(|b| b.white != 6 && b.black != 6));
        assert!(byes.contains(&Bye {
            player: 6,
            kind: ByeKind::Absent
        }));
        assert!(byes.iter().any(|b| b.kind == ByeKind::Pairing));
    }
}
