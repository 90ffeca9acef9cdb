//! Emits random playouts with everything vizier-rules says about each position, for
//! `tools/difftest.py` to check against python-chess.
//!
//! `cargo run --release -p vizier-rules --example difftest -- GAMES MAX_PLIES SEED | python3 tools/difftest.py`
//!
//! Output, one record a line:
//! `G <chess960 0|1> <fen>` starts a game;
//! `P <fen>\t<legal moves in UCI, sorted>\t<their SAN in that order, or ->\t<flags>` describes a position;
//! `M <uci> <san>` is the move played from it.

use std::io::{BufWriter, Write};
use vizier_rules::{Color, History, Move, Piece, Position, Role, Square};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn perft_fens() -> Vec<String> {
    let mut fens = Vec::new();
    for file in ["standard.perft", "chess960-middlegame.perft"] {
        let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        fens.extend(
            text.lines()
                .filter_map(|l| l.strip_prefix("epd "))
                .map(str::to_string),
        );
    }
    fens
}

/// A random legal position: both kings and a handful of random pieces, any clock value.
fn random_placement(rng: &mut Rng) -> Position {
    loop {
        let mut board = [None::<Piece>; 64];
        let mut place = |rng: &mut Rng, piece: Piece| loop {
            let sq = rng.below(64);
            if board[sq].is_none() {
                board[sq] = Some(piece);
                break;
            }
        };
        place(rng, Piece::new(Color::White, Role::King));
        place(rng, Piece::new(Color::Black, Role::King));
        for _ in 0..rng.below(12) {
            let role = [
                Role::Pawn,
                Role::Pawn,
                Role::Knight,
                Role::Bishop,
                Role::Rook,
                Role::Queen,
            ][rng.below(6)];
            let color = if rng.below(2) == 0 {
                Color::White
            } else {
                Color::Black
            };
            place(rng, Piece::new(color, role));
        }
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match board[Square::from_coords(file, rank).index()] {
                    Some(p) => {
                        if empty > 0 {
                            fen.push_str(&empty.to_string());
                            empty = 0;
                        }
                        fen.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        let turn = if rng.below(2) == 0 { 'w' } else { 'b' };
        let halfmoves = [0, 0, 90, 98, 99, 140, 147, 148, 149][rng.below(9)];
        if let Ok(pos) = Position::from_fen(&format!("{fen} {turn} - - {halfmoves} 60")) {
            return pos;
        }
    }
}

fn flags(h: &History) -> String {
    let pos = h.position();
    let mut f = String::new();
    for (on, c) in [
        (pos.is_check(), 'C'),
        (pos.is_checkmate(), 'M'),
        (pos.is_stalemate(), 'S'),
        (pos.is_insufficient_material(), 'I'),
        (pos.has_insufficient_material(Color::White), 'W'),
        (pos.has_insufficient_material(Color::Black), 'B'),
        (h.repetitions() >= 2, '2'),
        (h.can_claim_threefold(), '3'),
        (h.is_fivefold(), '5'),
        (h.can_claim_threefold_any(), 'T'),
        (h.can_claim_fifty_any(), 'F'),
        (h.is_seventy_five(), 'X'),
    ] {
        if on {
            f.push(c);
        }
    }
    f.push(' ');
    // python-chess knows dead positions by material only; those found by search
    // (vizier_rules::mate, tested against exact labels there) are left out here.
    let outcome = h.outcome().filter(|o| {
        o.termination != vizier_rules::Termination::DeadPosition || pos.is_insufficient_material()
    });
    f.push_str(outcome.map_or("*", |o| o.result()));
    f
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers"))
        .collect();
    let (games, max_plies, seed) = (args[0], args[1] as usize, args.get(2).copied().unwrap_or(1));
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let fens = perft_fens();
    let mut out = BufWriter::new(std::io::stdout().lock());
    for g in 0..games {
        let start = match g % 4 {
            0 => Position::chess960((g / 4 % 960) as u16).unwrap(),
            1 => Position::from_fen_relaxed(&fens[rng.below(fens.len())]).unwrap(),
            2 => random_placement(&mut rng),
            _ => Position::new(),
        };
        let chess960 = start.is_chess960() || g % 4 == 0;
        writeln!(out, "G {} {}", chess960 as u8, start.fen()).unwrap();
        let mut h = History::new(start);
        let plies = 1 + rng.below(max_plies);
        let mut last_two: Vec<Move> = Vec::new();
        for ply in 0..=plies {
            let pos = h.position().clone();
            let mut moves: Vec<(String, Move)> = pos
                .legal_moves()
                .iter()
                .map(|&m| {
                    (
                        pos.uci(m, vizier_rules::UciCastling::for_chess960(chess960)),
                        m,
                    )
                })
                .collect();
            moves.sort_by(|a, b| a.0.cmp(&b.0));
            let ucis: Vec<&str> = moves.iter().map(|(u, _)| u.as_str()).collect();
            let sans = if ply % 3 == 0 {
                moves
                    .iter()
                    .map(|&(_, m)| pos.san(m))
                    .collect::<Vec<_>>()
                    .join(" ")
            } else {
                "-".to_string()
            };
            writeln!(
                out,
                "P {}\t{}\t{}\t{}",
                pos.fen(),
                ucis.join(" "),
                sans,
                flags(&h)
            )
            .unwrap();
            if moves.is_empty() || ply == plies || h.outcome().is_some() {
                break;
            }
            // Half the time, undo our own previous move when we can: random play rarely
            // repeats, and repetitions are what the claims and fivefold rule are about.
            let undo = last_two.first().and_then(|prev| {
                moves
                    .iter()
                    .find(|(_, m)| !m.is_castle() && m.from() == prev.to() && m.to() == prev.from())
            });
            let (uci, m) = match undo {
                Some(choice) if rng.below(2) == 0 => choice.clone(),
                _ => moves[rng.below(moves.len())].clone(),
            };
            writeln!(out, "M {uci} {}", pos.san(m)).unwrap();
            h.push(m).unwrap();
            last_two.push(m);
            if last_two.len() > 2 {
                last_two.remove(0);
            }
        }
    }
}
