//! `vizier dead [--limit NODES] [--quick]`: who can still checkmate, one position a line.

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::Instant;
use vizier_rules::{Color, MateVerdict, Position};

#[derive(clap::Args)]
pub struct Args {
    /// Positions to search per side before answering `?` (beyond 200,000 only where those
    /// leave the answer open).
    #[arg(long, default_value_t = vizier_rules::DEEP_NODES, value_parser = clap::value_parser!(u64).range(1..))]
    limit: u64,
    /// Only the quick stage: the static proofs and forced moves, no search. It proves
    /// `-` in microseconds and answers `?` where it proves nothing, as it does for most
    /// positions where a side can mate.
    #[arg(long)]
    quick: bool,
    /// Print the counts and the time per position on standard error at the end.
    #[arg(long)]
    stats: bool,
}

pub fn run(args: Args) -> ExitCode {
    let stdin = std::io::stdin().lock();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut failed = false;
    let (mut count, mut undecided, start) = (0u64, 0u64, Instant::now());
    for (number, line) in stdin.lines().enumerate() {
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                eprintln!("vizier dead: standard input: {e}");
                return ExitCode::FAILURE;
            }
        };
        let fen = line.trim();
        if fen.is_empty() {
            continue;
        }
        let pos = match Position::from_fen_relaxed(fen) {
            Ok(pos) => pos,
            Err(e) => {
                eprintln!("vizier dead: line {}: bad FEN: {e}", number + 1);
                failed = true;
                continue;
            }
        };
        let mut label = String::with_capacity(2);
        for (color, letter) in [(Color::White, 'W'), (Color::Black, 'B')] {
            let verdict = if args.quick {
                pos.quick_verdict(color)
            } else {
                pos.mate_verdict(color, args.limit)
            };
            label.push(match verdict {
                MateVerdict::Can(_) => letter,
                MateVerdict::Cannot => '-',
                MateVerdict::Undecided => {
                    undecided += 1;
                    '?'
                }
            });
        }
        count += 1;
        if writeln!(out, "{label} {fen}").is_err() {
            return ExitCode::SUCCESS;
        }
    }
    if out.flush().is_err() {
        return ExitCode::SUCCESS;
    }
    if args.stats {
        let secs = start.elapsed().as_secs_f64();
        eprintln!(
            "{count} positions, {undecided} answers undecided, {:.1} µs a position",
            secs * 1e6 / count.max(1) as f64
        );
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
