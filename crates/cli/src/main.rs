//! `vizier`: the one binary.

mod perft;
mod pgn;

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
    /// Count the leaf nodes of the legal move tree (move generator test and benchmark).
    Perft(perft::Args),
    /// Read PGN games and write them back in export format (or count them with --stats).
    Pgn(pgn::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Perft(args) => perft::run(args),
        Command::Pgn(args) => pgn::run(args),
    }
}
