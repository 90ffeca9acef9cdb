//! `vizier tune GAMES.pgn…`: the Texel tuner. Fits the evaluation's weights to the results of
//! the games and writes them as Rust source (`crates/engine/src/eval/weights.rs`).

use std::process::ExitCode;
use std::time::Instant;

use vizier_engine::eval::weights::WEIGHTS;
use vizier_rules::pgn;
use vizier_train::tune::{
    Dataset, Settings, Skipped, held_out_game, source, to_floats, to_pairs, tune,
};

#[derive(clap::Args)]
pub struct Args {
    /// PGN files of finished games (each game counted once, however often it appears).
    #[arg(required = true)]
    files: Vec<String>,
    /// Passes of Adam over all positions.
    #[arg(long, default_value_t = 400)]
    epochs: usize,
    /// Adam's step size in centipawns.
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// Penalty on the squared distance from the current weights (per centipawn²).
    #[arg(long, default_value_t = 1e-7)]
    l2: f64,
    /// Write the tuned weights here (Rust source); without it, only report the error.
    #[arg(long)]
    out: Option<String>,
}

pub fn run(args: Args) -> ExitCode {
    let started = Instant::now();
    // About one game in eight is held out to show whether the fit generalises.
    let mut data = Dataset::new();
    let mut held_out = Dataset::new();
    let (mut games, mut duplicates, mut unfinished, mut rejected) = (0, 0, 0, 0);
    for path in &args.files {
        let Ok(file) = crate::open_input(path) else {
            return ExitCode::FAILURE;
        };
        for game in pgn::Reader::new(file) {
            let set = if game.as_ref().is_ok_and(held_out_game) {
                &mut held_out
            } else {
                &mut data
            };
            match game.map(|g| set.add_game(&g)) {
                Ok(Ok(_)) => games += 1,
                Ok(Err(Skipped::Duplicate)) => duplicates += 1,
                Ok(Err(Skipped::NoResult)) => unfinished += 1,
                Err(e) => {
                    eprintln!("{path}: {e}");
                    rejected += 1;
                }
            }
        }
    }
    eprintln!(
        "{games} games ({duplicates} duplicates, {unfinished} without a result, {rejected} \
         unreadable), {} quiet positions to fit, {} held out, read in {:.1} s",
        data.len(),
        held_out.len(),
        started.elapsed().as_secs_f64()
    );
    if data.is_empty() {
        eprintln!("no positions to tune on");
        return ExitCode::FAILURE;
    }
    let start = to_floats(&WEIGHTS);
    let k = data.fit_k(&start);
    let before = data.error(&start, k);
    let held_before = held_out.error(&start, k);
    eprintln!("K = {k:.6} per centipawn, error {before:.6} (held out {held_before:.6})");
    let settings = Settings {
        epochs: args.epochs,
        rate: args.rate,
        l2: args.l2,
    };
    let tuned = tune(&data, &WEIGHTS, k, &settings, &mut |epoch, error| {
        eprintln!("epoch {epoch}: error {error:.6}");
    });
    let weights = to_pairs(&tuned);
    let after = data.error(&to_floats(&weights), k);
    let held_after = held_out.error(&to_floats(&weights), k);
    eprintln!(
        "error {before:.6} -> {after:.6}, held out {held_before:.6} -> {held_after:.6}, in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    if let Some(out) = args.out {
        let provenance = format!(
            "Last run: {games} games, {} positions, K = {k:.6}, {} epochs at rate {}, l2 {}: \
             error {before:.6} -> {after:.6} (held-out games: {held_before:.6} -> {held_after:.6}).",
            data.len(),
            args.epochs,
            args.rate,
            args.l2
        );
        if let Err(e) = std::fs::write(&out, source(&weights, &provenance)) {
            eprintln!("{out}: {e}");
            return ExitCode::FAILURE;
        }
        eprintln!("wrote {out}");
    }
    ExitCode::SUCCESS
}
