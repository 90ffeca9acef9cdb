//! Writes random games as PGN (export format) for benchmarks and round-trip checks:
//! `cargo run --release -p vizier-rules --example gen_pgn -- GAMES SEED > games.pgn`

use std::io::{BufWriter, Write};
use vizier_rules::Position;
use vizier_rules::pgn::{self, Game, Line, Node};

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

fn main() {
    let mut args = std::env::args()
        .skip(1)
        .map(|a| a.parse::<u64>().expect("numbers"));
    let games = args.next().unwrap_or(1000);
    let mut rng = Rng(args.next().unwrap_or(1).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut out = BufWriter::new(std::io::stdout().lock());
    for g in 0..games {
        let chess960 = g % 10 == 0;
        let start = if chess960 {
            Position::chess960(rng.below(960) as u16).unwrap()
        } else {
            Position::new()
        };
        let mut pos = start.clone();
        let mut nodes = Vec::new();
        let mut clock = [300_000u64; 2];
        for ply in 0..20 + rng.below(100) {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.is_insufficient_material() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            let mut comments = Vec::new();
            let side = ply % 2;
            clock[side] = clock[side].saturating_sub(rng.below(8_000) as u64) + 2_000;
            let s = clock[side] / 1000;
            comments.push(format!(
                "[%clk {}:{:02}:{:02}]",
                s / 3600,
                s / 60 % 60,
                s % 60
            ));
            if rng.below(20) == 0 {
                comments.push("a quiet move, 平稳的一步".into());
            }
            let mut variations = Vec::new();
            if rng.below(25) == 0 && moves.len() > 1 {
                let alt = moves[(moves.iter().position(|x| *x == m).unwrap() + 1) % moves.len()];
                variations.push(Line {
                    comments: Vec::new(),
                    nodes: vec![Node {
                        mv: alt,
                        nags: vec![],
                        comments: vec![],
                        variations: vec![],
                    }],
                });
            }
            let nags = if rng.below(30) == 0 {
                vec![1 + rng.below(6) as u8]
            } else {
                vec![]
            };
            nodes.push(Node {
                mv: m,
                nags,
                comments,
                variations,
            });
            pos.play_unchecked(m);
        }
        let result = match pos.outcome() {
            Some(o) => o.result().to_string(),
            None => ["1-0", "0-1", "1/2-1/2", "*"][rng.below(4)].to_string(),
        };
        let mut tags = vec![
            ("Event".to_string(), format!("Generated {g}")),
            ("White".to_string(), format!("Player {}", rng.below(1000))),
            ("Black".to_string(), format!("Player {}", rng.below(1000))),
            ("TimeControl".to_string(), "300+2".to_string()),
        ];
        if chess960 {
            tags.push(("Variant".into(), "Chess960".into()));
            tags.push(("SetUp".into(), "1".into()));
            tags.push(("FEN".into(), start.fen()));
        }
        let game = Game {
            tags,
            start,
            chess960,
            mainline: Line {
                comments: vec![],
                nodes,
            },
            result,
        };
        out.write_all(pgn::write(&game).as_bytes()).unwrap();
    }
}
