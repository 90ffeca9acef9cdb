//! The archive: finished (and live) games as their players, ratings and openings describe
//! them — the PGN every export gives, and the JSON of lichess's game export.

use serde_json::{Value, json};
use vizier_arbiter::{Game, Tags};
use vizier_play::ids::GameId;
use vizier_rules::{Color, Language, PieceStyle};

use vizier_store::record::{self, GameRecord, Kind, Seat};
use vizier_store::{GameRatingRow, GameRow, Store, StoreError};

/// What a game's PGN and JSON say besides its moves.
#[derive(Clone, Debug)]
pub struct Described {
    pub id: GameId,
    pub kind: Option<Kind>,
    pub seats: Option<[Seat; 2]>,
    /// The accounts' names, White's then Black's.
    pub names: [Option<String>; 2],
    /// Each side's rating before the game, when known.
    pub ratings: [Option<i64>; 2],
    /// What a rated game did to each side's rating.
    pub diffs: [Option<i64>; 2],
    pub rated: bool,
    pub speed: Option<String>,
    pub eco: Option<String>,
    pub opening: Option<String>,
    pub started_at: Option<u64>,
    /// Where the server is (`https://chess.example`), for the `Site` tag.
    pub site: Option<String>,
}

impl Described {
    /// How the archive describes a game going on, from its round as it stands; `site` is
    /// where the server is.
    pub fn of_round(
        round: &vizier_play::round::Snapshot,
        site: Option<String>,
        now: vizier_arbiter::Millis,
    ) -> Described {
        let table = &round.table;
        let players = &round.players;
        let changes = &players.changes;
        let opening = round.opening;
        Described {
            id: table.id.clone(),
            kind: Some(table.kind),
            seats: Some(round.seats.clone()),
            names: players.names.clone(),
            ratings: Color::ALL.map(|c| match &changes[c.index()] {
                Some(change) => Some(change.shown_before()),
                None => players.shown_rating(c, now).map(|(r, _)| i64::from(r)),
            }),
            diffs: Color::ALL.map(|c| changes[c.index()].as_ref().map(|r| r.shown_diff())),
            rated: table.rated,
            speed: vizier_rating::Class::of_control(&table.setup.control)
                .map(|c| c.key().to_string()),
            eco: opening.map(|o| o.eco.to_string()),
            opening: opening.map(|o| o.name.to_string()),
            started_at: round.started_at,
            site,
        }
    }

    fn name(&self, c: Color) -> String {
        if let Some(name) = &self.names[c.index()] {
            return name.clone();
        }
        match self.seats.as_ref().map(|s| &s[c.index()]) {
            Some(Seat::Computer { level, .. }) => format!("Vizier level {level}"),
            Some(Seat::Open) => "?".into(),
            _ => "Anonymous".into(),
        }
    }

    fn elo(&self, c: Color) -> String {
        if let Some(r) = self.ratings[c.index()] {
            return r.to_string();
        }
        match self.seats.as_ref().map(|s| &s[c.index()]) {
            Some(Seat::Computer { level, .. }) => {
                crate::levels::elo(*level).map_or("?".into(), |e| e.to_string())
            }
            _ => "?".into(),
        }
    }

    fn event(&self) -> String {
        let speed = self.speed.as_deref().unwrap_or("unlimited");
        match self.kind {
            Some(Kind::Computer) => "Game against the computer".into(),
            Some(Kind::Local) => "Game on one device".into(),
            _ if self.rated => format!("Rated {speed} game"),
            _ => format!("Casual {speed} game"),
        }
    }

    /// The game in PGN, with its tags: the Seven Tag Roster, then `WhiteElo`, `BlackElo`,
    /// `ECO`, `Opening`, `TimeControl`, `Termination` and more.
    pub fn pgn(&self, game: &Game) -> String {
        self.pgn_styled(game, PieceStyle::Letters(Language::English))
    }

    /// The game in PGN as [`Described::pgn`] writes it, the pieces named in `style`.
    pub fn pgn_styled(&self, game: &Game, style: PieceStyle) -> String {
        self.pgn_annotated(game, style, &[])
    }

    /// The game in PGN as [`Described::pgn_styled`] writes it, with each move's annotations
    /// (a review's evaluations and judgements).
    pub fn pgn_annotated(
        &self,
        game: &Game,
        style: PieceStyle,
        annotations: &[vizier_arbiter::Annotation],
    ) -> String {
        let mut extra = vec![
            ("WhiteElo".to_string(), self.elo(Color::White)),
            ("BlackElo".to_string(), self.elo(Color::Black)),
        ];
        for (c, tag) in [
            (Color::White, "WhiteRatingDiff"),
            (Color::Black, "BlackRatingDiff"),
        ] {
            if let Some(d) = self.diffs[c.index()] {
                extra.push((tag.into(), format!("{d:+}")));
            }
        }
        extra.push(("ECO".into(), self.eco.clone().unwrap_or_else(|| "?".into())));
        extra.push((
            "Opening".into(),
            self.opening.clone().unwrap_or_else(|| "?".into()),
        ));
        if let Some(at) = self.started_at {
            let t = time::OffsetDateTime::from_unix_timestamp((at / 1000) as i64)
                .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
            extra.push(("UTCDate".into(), crate::date::pgn_date(at)));
            extra.push((
                "UTCTime".into(),
                format!("{:02}:{:02}:{:02}", t.hour(), t.minute(), t.second()),
            ));
        }
        game.pgn_annotated(
            &Tags {
                event: self.event(),
                site: match &self.site {
                    Some(origin) => format!("{origin}/{}", self.id),
                    None => "Vizier".into(),
                },
                date: self
                    .started_at
                    .map(crate::date::pgn_date)
                    .unwrap_or_else(|| "????.??.??".into()),
                round: "-".into(),
                white: self.name(Color::White),
                black: self.name(Color::Black),
                extra,
            },
            style,
            annotations,
        )
    }

    /// The game as lichess's game export gives it in JSON.
    pub fn json(&self, game: &Game, row: &GameRow) -> Value {
        let sans: Vec<String> = game.plies().iter().map(|p| p.san.to_string()).collect();
        let player = |c: Color| {
            let mut p = json!({});
            match (
                &self.names[c.index()],
                self.seats.as_ref().map(|s| &s[c.index()]),
            ) {
                (Some(name), _) => p["user"] = json!({"name": name, "id": name.to_lowercase()}),
                (None, Some(Seat::Computer { level, .. })) => p["aiLevel"] = json!(level),
                _ => {}
            }
            if let Some(r) = self.ratings[c.index()] {
                p["rating"] = json!(r);
            }
            if let Some(d) = self.diffs[c.index()] {
                p["ratingDiff"] = json!(d);
            }
            p
        };
        let mut v = json!({
            "id": self.id,
            "rated": self.rated,
            "variant": if game.is_chess960() { "chess960" } else { "standard" },
            "speed": self.speed.as_deref().unwrap_or("unlimited"),
            "perf": self.speed.as_deref().unwrap_or("unlimited"),
            "createdAt": row.created_at,
            "lastMoveAt": row.ended_at.unwrap_or(row.created_at),
            "status": row.reason.as_deref().unwrap_or("started"),
            "players": { "white": player(Color::White), "black": player(Color::Black) },
            "moves": sans.join(" "),
            "timeControl": game.setup().control.to_pgn(),
        });
        match row.result.as_deref() {
            Some("1-0") => v["winner"] = json!("white"),
            Some("0-1") => v["winner"] = json!("black"),
            _ => {}
        }
        if let (Some(eco), Some(name)) = (&self.eco, &self.opening) {
            v["opening"] = json!({"eco": eco, "name": name});
            if let Some(zh) = vizier_play::opening::chinese(name) {
                v["opening"]["zh"] = json!(zh);
            }
        }
        v
    }
}

/// A stored game, replayed, with what describes it.
pub struct Archived {
    pub row: GameRow,
    pub game: Game,
    pub described: Described,
}

/// Why a stored game could not be shown.
#[derive(Debug)]
pub enum ArchiveError {
    Store(StoreError),
    /// It does not read or replay (the message says which).
    Corrupt(String),
}

impl From<StoreError> for ArchiveError {
    fn from(e: StoreError) -> ArchiveError {
        ArchiveError::Store(e)
    }
}

impl std::fmt::Display for ArchiveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArchiveError::Store(e) => e.fmt(f),
            ArchiveError::Corrupt(e) => f.write_str(e),
        }
    }
}

/// The stored game `row`, replayed and described.
pub async fn load(
    store: &Store,
    row: GameRow,
    site: Option<&str>,
) -> Result<Archived, ArchiveError> {
    let record = GameRecord::from_row(&row).map_err(|e| ArchiveError::Corrupt(e.to_string()))?;
    let commands = store.commands_of(&row).await?;
    let log = record::read_commands(&commands).map_err(|e| ArchiveError::Corrupt(e.to_string()))?;
    let game = Game::replay(
        record.setup.clone(),
        record.started_at.unwrap_or(record.created_at),
        &log,
    )
    .map_err(|(i, e)| ArchiveError::Corrupt(format!("command {i} does not replay: {e}")))?;
    let ids: Vec<&str> = record
        .seats
        .iter()
        .filter_map(|s| match s {
            Seat::Player(id) => Some(id.as_str()),
            _ => None,
        })
        .collect();
    let names = store.names(&ids).await?;
    let changes = if row.rated {
        store.game_ratings(&row.id).await?
    } else {
        Vec::new()
    };
    let change = |c: Color| -> Option<&GameRatingRow> {
        changes.iter().find(|r| r.color == c.fold("white", "black"))
    };
    let described = Described {
        id: GameId::stored(row.id.clone()),
        kind: Some(record.kind),
        names: Color::ALL.map(|c| match &record.seats[c.index()] {
            Seat::Player(id) => names.get(id.as_str()).cloned(),
            _ => None,
        }),
        ratings: Color::ALL.map(|c| change(c).map(GameRatingRow::shown_before)),
        diffs: Color::ALL.map(|c| change(c).map(GameRatingRow::shown_diff)),
        seats: Some(record.seats.clone()),
        rated: row.rated,
        speed: row.speed.clone(),
        eco: row.eco.clone(),
        opening: row.opening.clone(),
        started_at: record.started_at,
        site: site.map(str::to_string),
    };
    Ok(Archived {
        row,
        game,
        described,
    })
}
