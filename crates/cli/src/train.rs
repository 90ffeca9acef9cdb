//! `vizier train DATA…`: fits the neural evaluation to self-play positions (`vizier datagen`)
//! and writes the quantised network (`crates/engine/src/nnue/vizier.nnue` is the one shipped).

use std::io::BufRead;
use std::process::ExitCode;
use std::time::Instant;

use vizier_train::nnue::{Dataset, FloatNet, Settings, Shape, loss, train};

/// The network shapes `vizier train` makes.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum ShapeArg {
    /// 128 hidden values over 768 piece-square inputs (file version 2).
    Plain,
    /// 256 hidden values over piece-square inputs by the region of the side's own king,
    /// the board mirrored to put that king on files e–h (file version 3).
    KingBuckets,
}

impl ShapeArg {
    fn shape(self) -> Shape {
        match self {
            ShapeArg::Plain => Shape::PLAIN,
            ShapeArg::KingBuckets => Shape::KING_BUCKETS,
        }
    }
}

#[derive(clap::Args)]
pub struct Args {
    /// Files of `FEN;SCORE;RESULT` lines.
    #[arg(required = true)]
    files: Vec<String>,
    /// Passes over the data.
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    /// Positions per step.
    #[arg(long, default_value_t = 16_384)]
    batch: usize,
    /// Adam's step size (falls tenfold over the last 40% of the epochs).
    #[arg(long, default_value_t = 0.001)]
    rate: f32,
    /// Weight of the game's result in the target; the rest is the search's score.
    #[arg(long, default_value_t = 0.3)]
    wdl: f32,
    /// Threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Seed of the initial weights and the shuffling.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The step size of the king buckets' own rows as a fraction of --rate (the rows
    /// shared by all buckets take the full rate).
    #[arg(long, default_value_t = 1.0)]
    bucket_rate: f32,
    /// Do not mirror positions left to right at random.
    #[arg(long)]
    no_mirror: bool,
    /// Train a correction of the classical evaluation instead of a whole evaluation.
    #[arg(long)]
    residual: bool,
    /// Start from this network (a `vizier train` file) instead of random weights: training
    /// it further on new data, with what it learned from the old kept.
    #[arg(long)]
    init: Option<String>,
    /// The network's shape: that of `--init` by default (given another, the `--init`
    /// network is grown into it: plain into king buckets), else king buckets.
    #[arg(long, value_enum)]
    shape: Option<ShapeArg>,
    /// Write the network here.
    #[arg(long)]
    out: String,
}

pub fn run(args: Args) -> ExitCode {
    let started = Instant::now();
    let Ok(init) = crate::read_network(args.init.as_deref()) else {
        return ExitCode::FAILURE;
    };
    let mut init = init.as_ref().map(FloatNet::from_network);
    let shape = match (&mut init, args.shape) {
        (None, asked) => asked.unwrap_or(ShapeArg::KingBuckets).shape(),
        (Some(saved), Some(asked)) if asked.shape() != saved.net.shape() => {
            let Some(grown) = saved.net.widened(asked.shape(), args.seed) else {
                eprintln!(
                    "cannot grow a {:?} network into {asked:?}",
                    saved.net.shape()
                );
                return ExitCode::FAILURE;
            };
            saved.net = grown;
            asked.shape()
        }
        (Some(saved), _) => saved.net.shape(),
    };
    if init
        .as_ref()
        .is_some_and(|saved| saved.residual != args.residual)
    {
        eprintln!("--residual must match the network being trained further (--init)");
        return ExitCode::FAILURE;
    }
    let mut data = if args.residual {
        Dataset::residual(shape.layout)
    } else {
        Dataset::new(shape.layout)
    };
    let mut rejected = 0usize;
    for path in &args.files {
        let Ok(file) = crate::open_input(path) else {
            return ExitCode::FAILURE;
        };
        for (n, line) in file.lines().enumerate() {
            let line = match line {
                Ok(l) => l,
                Err(e) => {
                    eprintln!("{path}:{}: {e}", n + 1);
                    return ExitCode::FAILURE;
                }
            };
            if let Err(e) = data.add_line(&line) {
                if rejected < 5 {
                    eprintln!("{path}:{}: {e}", n + 1);
                }
                rejected += 1;
            }
        }
    }
    let held_out = data.split_off();
    if data.is_empty() || held_out.is_empty() {
        eprintln!(
            "too few positions to train on ({})",
            data.len() + held_out.len()
        );
        return ExitCode::FAILURE;
    }
    let fitted = data.fit_scale();
    // A network trained further keeps its scale, so that its evaluations keep their meaning
    // in centipawns (the search's margins are in centipawns).
    let scale = init.as_ref().map_or(fitted, |saved| saved.scale);
    println!(
        "{} positions ({} held out, {rejected} lines refused) read in {:.0} s; scale K = {scale} \
         (fitted to these results: {fitted})",
        data.len(),
        held_out.len(),
        started.elapsed().as_secs_f64()
    );
    let settings = Settings {
        epochs: args.epochs,
        batch: args.batch,
        rate: args.rate,
        wdl: args.wdl,
        threads: args.threads,
        seed: args.seed,
        mirror: !args.no_mirror,
        bucket_rate: args.bucket_rate,
    };
    let mut net = init.map_or_else(|| FloatNet::random(shape, args.seed), |saved| saved.net);
    println!("shape: {shape:?}");
    println!(
        "start: held-out loss {:.6}; the classical evaluation's {:.6}",
        loss(&net, &held_out, scale, args.wdl),
        held_out.classical_loss(scale, args.wdl)
    );
    train(
        &mut net,
        &data,
        scale,
        &settings,
        &mut |epoch, train_loss, net| {
            println!(
                "epoch {epoch}: loss {train_loss:.6}, held-out {:.6} ({:.0} s)",
                loss(net, &held_out, scale, args.wdl),
                started.elapsed().as_secs_f64()
            );
        },
    );
    if let Err(e) = std::fs::write(&args.out, net.to_bytes(scale, args.residual)) {
        eprintln!("{}: {e}", args.out);
        return ExitCode::FAILURE;
    }
    println!("wrote {}", args.out);
    ExitCode::SUCCESS
}
