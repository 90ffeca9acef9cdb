//! `vizier datagen OUT`: self-play positions with scores and results, the training data of the
//! neural evaluation (`vizier train`). Appends to OUT, so runs with other seeds add up.

use std::fs::OpenOptions;
use std::io::BufWriter;
use std::process::ExitCode;
use std::time::Instant;

use std::sync::Arc;

use vizier_engine::eval::{Classical, Evaluator};
use vizier_train::datagen::{Settings, run as generate};

#[derive(clap::Args)]
pub struct Args {
    /// File the positions are appended to (`FEN;SCORE;RESULT` lines, White's point of view).
    out: String,
    /// Games to play.
    #[arg(long, default_value_t = 1_000)]
    games: usize,
    /// Nodes searched for each move.
    #[arg(long, default_value_t = 5_000)]
    nodes: u64,
    /// Random moves from the start before the engine plays.
    #[arg(long, default_value_t = 8)]
    random_plies: usize,
    /// Seed of the random openings: give each run its own.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Play with this neural network (a `vizier train` file) instead of the classical
    /// evaluation: the next generation's data.
    #[arg(long)]
    eval_file: Option<String>,
}

pub fn run(args: Args) -> ExitCode {
    let file = match OpenOptions::new().create(true).append(true).open(&args.out) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{}: {e}", args.out);
            return ExitCode::FAILURE;
        }
    };
    let settings = Settings {
        games: args.games,
        nodes: args.nodes,
        random_plies: args.random_plies,
        seed: args.seed,
        ..Settings::default()
    };
    let Ok(network) = crate::read_network(args.eval_file.as_deref()) else {
        return ExitCode::FAILURE;
    };
    let eval: Arc<dyn Evaluator> = match network {
        Some(net) => Arc::new(net),
        None => Arc::new(Classical::default()),
    };
    let started = Instant::now();
    let progress = |games: usize, positions: usize| {
        let secs = started.elapsed().as_secs_f64().max(0.001);
        eprint!(
            "\rgames {games}/{}  positions {positions}  ({:.0}/s)   ",
            args.games,
            positions as f64 / secs
        );
    };
    let mut out = BufWriter::new(file);
    match generate(eval, &settings, args.threads, &mut out, &progress) {
        Ok(n) => {
            eprintln!(
                "\n{n} positions in {:.0} s",
                started.elapsed().as_secs_f64()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("\n{}: {e}", args.out);
            ExitCode::FAILURE
        }
    }
}
