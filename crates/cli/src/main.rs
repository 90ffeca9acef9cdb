//! `vizier`: the one binary.

mod datagen;
mod dead;
mod matches;
mod out;
mod pair;
mod perft;
mod pgn;
mod serve;
mod train;
mod tune;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "vizier", version, about = "Vizier: chess under the FIDE Laws")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the web app: play the computer or a friend in the browser.
    Serve(serve::Args),
    /// Count the leaf nodes of the legal move tree (move generator test and benchmark).
    Perft(perft::Args),
    /// Read PGN games and write them back in export format (or count them with --stats).
    Pgn(pgn::Args),
    /// Speak UCI on stdin/stdout: the engine for any chess GUI (CECP when the first
    /// command is `xboard`).
    Uci,
    /// Speak CECP (the xboard/WinBoard protocol, version 2) on stdin/stdout.
    Xboard,
    /// Play engines against each other: Elo with a 95% interval, optional SPRT.
    Match(matches::Args),
    /// Fit the evaluation's weights to game results (the Texel tuner).
    Tune(tune::Args),
    /// Self-play positions with scores and results: training data for the neural evaluation.
    Datagen(datagen::Args),
    /// Fit the neural evaluation to `datagen` positions and write the network.
    Train(train::Args),
    /// Who can still checkmate: one FEN a line in, `W`/`B`/`-`/`?` for each side out.
    Dead(dead::Args),
    /// Pair the next round of a Swiss tournament (FIDE Dutch system) from its TRF file.
    Pair(pair::Args),
    /// Search fixed positions to a fixed depth: a node-count signature and a speed figure.
    Bench {
        /// Search depth (1 or more).
        #[arg(default_value_t = vizier_engine::bench::DEFAULT_DEPTH,
              value_parser = clap::value_parser!(i32).range(1..=64))]
        depth: i32,
        /// Print the signature and speed as one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Evaluate with this network file instead of the built-in evaluation (the
        /// environment variable `VIZIER_SIMD=baseline|avx2|avx512` picks a narrower
        /// instruction set to measure).
        #[arg(long)]
        eval_file: Option<String>,
    },
}

/// The network file at `path`, when one is given; `Err` after saying why it cannot be read.
fn read_network(path: Option<&str>) -> Result<Option<vizier_engine::nnue::Network>, ()> {
    path.map(vizier_engine::nnue::Network::read)
        .transpose()
        .map_err(|e| eprintln!("{}: {e}", path.unwrap_or_default()))
}

/// The input file at `path`, buffered; `Err` after saying why it cannot be opened.
fn open_input(path: &str) -> Result<std::io::BufReader<std::fs::File>, ()> {
    std::fs::File::open(path)
        .map(|f| std::io::BufReader::with_capacity(1 << 16, f))
        .map_err(|e| eprintln!("{path}: {e}"))
}

/// The CECP engine on stdin and stdout.
fn xboard() -> ExitCode {
    let engine = vizier_engine::xboard::Engine::new(Box::new(std::io::stdout()));
    engine.run(std::io::BufReader::new(std::io::stdin()));
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Serve(args) => serve::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Pgn(args) => pgn::run(args),
        Command::Match(args) => matches::run(args),
        Command::Tune(args) => tune::run(args),
        Command::Datagen(args) => datagen::run(args),
        Command::Train(args) => train::run(args),
        Command::Dead(args) => dead::run(args),
        Command::Pair(args) => pair::run(args),
        Command::Uci => {
            // Hosts that speak CECP start with `xboard`: answer them in kind.
            let mut first = String::new();
            if std::io::stdin().read_line(&mut first).is_ok() && first.trim() == "xboard" {
                return xboard();
            }
            let mut engine = vizier_engine::uci::Engine::new(Box::new(std::io::stdout()));
            if engine.command(first.trim()) {
                engine.run(std::io::stdin().lock());
            }
            ExitCode::SUCCESS
        }
        Command::Xboard => xboard(),
        Command::Bench {
            depth,
            json,
            eval_file,
        } => {
            let Ok(network) = read_network(eval_file.as_deref()) else {
                return ExitCode::FAILURE;
            };
            if !json {
                vizier_engine::bench::run(depth, network.as_ref(), &mut |line| out::line(line));
                return ExitCode::SUCCESS;
            }
            let start = std::time::Instant::now();
            let nodes = vizier_engine::bench::run(depth, network.as_ref(), &mut |_| {});
            let secs = start.elapsed().as_secs_f64();
            out::line(serde_json::json!({
                "depth": depth,
                "nodes": nodes,
                "seconds": secs,
                "nps": nodes as f64 / secs.max(1e-9),
            }));
            ExitCode::SUCCESS
        }
    }
}
