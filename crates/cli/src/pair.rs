//! `vizier pair FILE.trf`: the next round of a Swiss tournament by the FIDE Dutch system,
//! in the pairing engines' common output (what checkers and arbiters feed TRF files to);
//! `vizier pair --tiebreaks LIST FILE.trf`: the standings with the FIDE tie-breaks;
//! `vizier pair --norms FILE.trf`: each player's title norm results.

use std::process::ExitCode;

use vizier_pairing::dutch;
use vizier_pairing::field::Field;
use vizier_pairing::norm;
use vizier_pairing::tiebreak;
use vizier_pairing::trf::Trf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Edition {
    /// C.04.3 applied from 1 February 2026.
    #[value(name = "2026")]
    E2026,
    /// C.04.3 of Baku 2016 with the Goynuk 2017 additions, until 31 January 2026.
    #[value(name = "2017")]
    E2017,
}

#[derive(clap::Args)]
pub struct Args {
    /// The tournament so far: a TRF-2026 or TRF-16 file, with the number of rounds (`142`
    /// or `XXR`). Absences from the next round are its column, `240` records or `XXZ`.
    file: std::path::PathBuf,
    /// Which edition of the Dutch system pairs.
    #[arg(long, value_enum, default_value = "2026")]
    edition: Edition,
    /// Print the standings instead: points, then these tie-breaks in order, by their C.07
    /// acronyms with modifiers, separated by commas or spaces (`"BH/C1,BH,SB,DE"`). An empty
    /// list takes the file's own (`212`, else `202`).
    #[arg(long, value_name = "LIST")]
    tiebreaks: Option<String>,
    /// Print each player's title norm results instead (FIDE B.01): games, points, and for
    /// every norm above their title the opponents' average (Ra), the performance (Rp) and
    /// `yes` or the first condition not met. The file's titles, sexes and federations are
    /// read; a Swiss names its host federation in `032`.
    #[arg(long, conflicts_with = "tiebreaks")]
    norms: bool,
}

/// Exit status: 0 paired, 1 no pairing satisfies the absolute criteria, 3 the file is not
/// a valid tournament, 5 it cannot be read.
pub fn run(args: Args) -> ExitCode {
    let name = args.file.display();
    let text = match std::fs::read(&args.file) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(_) => {
                eprintln!("vizier pair: {name}: not UTF-8 text");
                return ExitCode::from(3);
            }
        },
        Err(e) => {
            eprintln!("vizier pair: {name}: {e}");
            return ExitCode::from(5);
        }
    };
    let trf = match Trf::parse(&text) {
        Ok(trf) => trf,
        Err(e) => {
            eprintln!("vizier pair: {name}: {e}");
            return ExitCode::from(3);
        }
    };
    if args.norms {
        return match norm::norms(&trf) {
            Ok(report) => {
                print!("{report}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("vizier pair: {name}: {e}");
                ExitCode::from(3)
            }
        };
    }
    if let Some(list) = &args.tiebreaks {
        return standings(&trf, list, &name.to_string());
    }
    let field = match Field::for_next_round(&trf) {
        Ok(field) => field,
        Err(e) => {
            eprintln!("vizier pair: {name}: {e}");
            return ExitCode::from(3);
        }
    };
    let edition = match args.edition {
        Edition::E2026 => dutch::Edition::E2026,
        Edition::E2017 => dutch::Edition::E2017,
    };
    match dutch::pair_edition(&field, edition) {
        Ok(boards) => {
            print!("{}", dutch::engine_output(&field, &boards));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!(
                "vizier pair: {name}: round {}: {e}",
                field.played_rounds + 1
            );
            ExitCode::from(match e {
                dutch::PairError::NoPairing => 1,
                dutch::PairError::TooLarge => 3,
            })
        }
    }
}

/// Exit status: 0 printed, 2 the list names no valid tie-breaks, 3 the file's results are
/// inconsistent.
fn standings(trf: &Trf, list: &str, name: &str) -> ExitCode {
    let list = if list.trim().is_empty() {
        let own = ["212", "202"]
            .iter()
            .find_map(|tag| trf.records.iter().find(|(t, _)| t == tag));
        match own {
            Some((_, text)) => text.as_str(),
            None => {
                eprintln!("vizier pair: {name}: no tie-breaks given and the file lists none");
                return ExitCode::from(2);
            }
        }
    } else {
        list
    };
    let tiebreaks = match tiebreak::parse_list(list) {
        Ok(tiebreaks) => tiebreaks,
        Err(e) => {
            eprintln!("vizier pair: --tiebreaks: {e}");
            return ExitCode::from(2);
        }
    };
    match tiebreak::standings(trf, &tiebreaks) {
        Ok(table) => {
            print!("{table}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("vizier pair: {name}: {e}");
            ExitCode::from(3)
        }
    }
}
