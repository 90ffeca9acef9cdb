//! PGN reading speed side by side with the `pgn-reader` crate (with shakmaty validating every
//! SAN), on the same file, best of several runs each: our visitor doing the same work (every
//! main-line move resolved and played, variations skipped), and our whole-game reader
//! (variations, comments and tags kept).
//!
//! `cargo bench -p vizier-rules --bench pgn -- FILE.pgn`
//! (make a file with `python3 tools/pgn_roundtrip.py target/fast/vizier 100000 FILE.pgn`).

use std::ops::ControlFlow;
use std::time::Instant;

use pgn_reader::{RawTag, SanPlus, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position as _};
use vizier_rules::pgn;

/// Plays every main-line SAN with shakmaty, as pgn-reader's own validating example does.
struct Validate {
    plies: u64,
    errors: u64,
}

impl Visitor for Validate {
    type Tags = Option<Chess>;
    type Movetext = Chess;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), Option<Chess>> {
        ControlFlow::Continue(None)
    }

    fn tag(&mut self, tags: &mut Option<Chess>, name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
        if name == b"FEN" {
            match Fen::from_ascii(value.as_bytes())
                .ok()
                .and_then(|f| f.into_position(CastlingMode::Chess960).ok())
            {
                Some(pos) => *tags = Some(pos),
                None => {
                    self.errors += 1;
                    return ControlFlow::Break(());
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Option<Chess>) -> ControlFlow<(), Chess> {
        ControlFlow::Continue(tags.unwrap_or_default())
    }

    fn san(&mut self, pos: &mut Chess, san: SanPlus) -> ControlFlow<()> {
        match san.san.to_move(pos) {
            Ok(m) => {
                pos.play_unchecked(m);
                self.plies += 1;
                ControlFlow::Continue(())
            }
            Err(_) => {
                self.errors += 1;
                ControlFlow::Break(())
            }
        }
    }

    fn end_game(&mut self, _pos: Chess) {}
}

/// The same work with our parser: every main-line move resolved and played.
struct Plies(u64);

impl pgn::Visitor for Plies {
    type Output = ();

    fn play(&mut self, _before: &vizier_rules::Position, _mv: vizier_rules::Move) {
        self.0 += 1;
    }

    fn end_game(&mut self, _result: Option<&str>) {}
}

fn main() {
    let path = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .expect("usage: pgn FILE.pgn");
    let data = std::fs::read(&path).expect("readable file");
    // `PGN_BENCH_ONLY=visitor` (or `whole`, `pgn-reader`) runs one reader alone, for profiling.
    let only = std::env::var("PGN_BENCH_ONLY").ok();
    let runs_this = |name: &str| only.as_deref().is_none_or(|o| o == name);
    let runs = 3;
    let (mut t_ours, mut t_theirs, mut t_visit) = (f64::INFINITY, f64::INFINITY, f64::INFINITY);
    let (mut visit_games, mut visit_plies, mut visit_rejected) = (0, 0, 0);
    let (mut games, mut plies, mut rejected) = (0, 0, 0);
    let (mut their_games, mut their_plies, mut their_errors) = (0, 0, 0);
    for _ in 0..runs {
        if runs_this("whole") {
            let t = Instant::now();
            (games, plies, rejected) = (0, 0, 0);
            for game in pgn::Reader::new(&data[..]) {
                match game {
                    Ok(g) => {
                        games += 1;
                        plies += g.ply_count();
                    }
                    Err(_) => rejected += 1,
                }
            }
            t_ours = t_ours.min(t.elapsed().as_secs_f64());
        }

        if runs_this("visitor") {
            let t = Instant::now();
            let mut parser = pgn::Parser::new(&data[..]);
            let mut visitor = Plies(0);
            (visit_games, visit_rejected) = (0, 0);
            while let Some(game) = parser.read_game(&mut visitor) {
                match game {
                    Ok(()) => visit_games += 1,
                    Err(_) => visit_rejected += 1,
                }
            }
            visit_plies = visitor.0;
            t_visit = t_visit.min(t.elapsed().as_secs_f64());
        }
        if runs_this("pgn-reader") {
            let t = Instant::now();
            let mut reader = pgn_reader::Reader::new(&data[..]);
            let mut v = Validate {
                plies: 0,
                errors: 0,
            };
            their_games = 0;
            while reader.read_game(&mut v).expect("in-memory read").is_some() {
                their_games += 1;
            }
            (their_plies, their_errors) = (v.plies, v.errors);
            t_theirs = t_theirs.min(t.elapsed().as_secs_f64());
        }
    }
    println!("file: {path} ({:.1} MB)", data.len() as f64 / 1e6);
    println!(
        "vizier-rules visitor: {visit_games} games, {visit_plies} main-line plies, {visit_rejected} rejected: {:.3} s, {:.0} games/s",
        t_visit,
        visit_games as f64 / t_visit
    );
    println!(
        "vizier-rules whole games: {games} games, {plies} plies (variations included), {rejected} rejected: {:.3} s, {:.0} games/s",
        t_ours,
        games as f64 / t_ours
    );
    println!(
        "pgn-reader+shakmaty: {their_games} games, {their_plies} main-line plies, {their_errors} errors: {:.3} s, {:.0} games/s",
        t_theirs,
        their_games as f64 / t_theirs
    );
    println!(
        "ratio, same work (pgn-reader time / vizier visitor time): {:.2}x",
        t_theirs / t_visit
    );
    println!(
        "ratio, whole games (pgn-reader time / vizier whole-game time): {:.2}x",
        t_theirs / t_ours
    );
}
