//! `vizier pgn FILE… [--stats]`: reads games, writes them back in PGN export format.

use std::io::{BufReader, BufWriter, Write};
use std::process::ExitCode;
use std::time::Instant;
use vizier_rules::pgn;

#[derive(clap::Args)]
pub struct Args {
    /// PGN files to read ("-" for standard input).
    #[arg(required = true)]
    files: Vec<String>,
    /// Print counts (games, moves, errors, speed) instead of the games.
    #[arg(long)]
    stats: bool,
    /// With --stats: the counts as one JSON object.
    #[arg(long, requires = "stats")]
    json: bool,
}

/// Counts the moves of a game, variations included.
struct Count(u64);

impl pgn::Visitor for Count {
    type Output = u64;

    fn begin_game(&mut self) {
        self.0 = 0;
    }

    fn play(&mut self, _before: &vizier_rules::Position, _mv: vizier_rules::Move) {
        self.0 += 1;
    }

    fn begin_variation(&mut self) -> pgn::Variation {
        pgn::Variation::Enter
    }

    fn end_game(&mut self, _result: Option<&str>) -> u64 {
        self.0
    }
}

pub fn run(args: Args) -> ExitCode {
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let (mut games, mut plies, mut rejected) = (0u64, 0u64, 0u64);
    let start = Instant::now();
    for path in &args.files {
        let input: Box<dyn std::io::BufRead> = if path == "-" {
            Box::new(BufReader::new(std::io::stdin()))
        } else {
            match crate::open_input(path) {
                Ok(file) => Box::new(file),
                Err(()) => {
                    rejected += 1;
                    continue;
                }
            }
        };
        if args.stats {
            // Counting needs no game tree: every move is still resolved and checked.
            let mut parser = pgn::Parser::new(input);
            let mut count = Count(0);
            while let Some(result) = parser.read_game(&mut count) {
                match result {
                    Ok(n) => {
                        games += 1;
                        plies += n;
                    }
                    Err(e) => {
                        rejected += 1;
                        eprintln!("{path}: {e}");
                    }
                }
            }
            continue;
        }
        for result in pgn::Reader::new(input) {
            match result {
                Ok(game) => {
                    games += 1;
                    plies += game.ply_count() as u64;
                    if let Some(tag) = game.tag("Result")
                        && tag != game.result
                    {
                        eprintln!(
                            "{path}: game {games}: the Result tag says \"{tag}\" but the moves end \"{}\"; written as the moves say",
                            game.result
                        );
                    }
                    if out.write_all(pgn::write(&game).as_bytes()).is_err() {
                        return ExitCode::FAILURE; // stdout closed
                    }
                }
                Err(e) => {
                    rejected += 1;
                    eprintln!("{path}: {e}");
                }
            }
        }
    }
    let _ = out.flush();
    if args.stats {
        let secs = start.elapsed().as_secs_f64().max(1e-9);
        if args.json {
            crate::out::line(serde_json::json!({
                "games": games,
                "moves": plies,
                "rejected": rejected,
                "seconds": secs,
                "games_per_second": games as f64 / secs,
            }));
            return ExitCode::SUCCESS;
        }
        crate::out::line(format_args!("games: {games}"));
        crate::out::line(format_args!("moves: {plies}"));
        crate::out::line(format_args!("rejected: {rejected}"));
        crate::out::line(format_args!("seconds: {secs:.3}"));
        crate::out::line(format_args!("games/s: {:.0}", games as f64 / secs));
    }
    if rejected > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
