//! `vizier perft DEPTH [--fen FEN] [--divide]`

use std::process::ExitCode;
use std::time::Instant;
use vizier_rules::{Position, perft, perft_full};

#[derive(clap::Args)]
pub struct Args {
    /// Depth in plies.
    depth: u32,
    /// Start position as FEN, X-FEN or Shredder-FEN (default: the standard start).
    #[arg(long)]
    fen: Option<String>,
    /// Print the count below each legal move first.
    #[arg(long)]
    divide: bool,
    /// Play every leaf move instead of counting leaves in bulk.
    #[arg(long)]
    no_bulk: bool,
    /// Print the result as one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> ExitCode {
    let pos = match args
        .fen
        .as_deref()
        .map(Position::from_fen_relaxed)
        .transpose()
    {
        Ok(pos) => pos.unwrap_or_default(),
        Err(e) => {
            eprintln!("vizier perft: bad FEN: {e}");
            return ExitCode::from(2);
        }
    };
    let count = |p: &Position, d: u32| {
        if args.no_bulk {
            perft_full(p, d)
        } else {
            perft(p, d)
        }
    };
    let start = Instant::now();
    let mut divide = serde_json::Map::new();
    let nodes = if args.divide && args.depth > 0 {
        let chess960 = pos.is_chess960();
        let mut total = 0;
        for &m in pos.legal_moves().iter() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let n = count(&child, args.depth - 1);
            let uci = pos.uci(m, vizier_rules::UciCastling::for_chess960(chess960));
            if args.json {
                divide.insert(uci, n.into());
            } else {
                crate::out::line(format_args!("{uci}: {n}"));
            }
            total += n;
        }
        if !args.json {
            crate::out::line("");
        }
        total
    } else {
        count(&pos, args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    let nps = nodes as f64 / secs.max(1e-9);
    if args.json {
        let mut json = serde_json::json!({
            "fen": pos.fen(),
            "depth": args.depth,
            "nodes": nodes,
            "seconds": secs,
            "nps": nps,
        });
        if args.divide {
            json["divide"] = divide.into();
        }
        crate::out::line(json);
        return ExitCode::SUCCESS;
    }
    eprintln!("Time: {:.3} s, {:.1} Mnps", secs, nps / 1e6);
    crate::out::line(format_args!("Nodes searched: {nodes}"));
    ExitCode::SUCCESS
}
