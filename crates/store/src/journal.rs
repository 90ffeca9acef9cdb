//! The journal: the writer commits commands at the end of one table, in the order they come,
//! and folds them into `commands` within [`FOLD_EVERY`], sorted by game. `commands` is indexed
//! by game, so a commit of a hundred games' moves there touched a hundred pages; in the journal
//! it touches two, and the fold touches each game's page once for all its moves since the last
//! fold. This keeps what the writer tracks: which commands are in the journal only, the
//! fold under way, and each game's last stored command number.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use sqlx::{AnyPool, Connection};

use crate::CommandRow;
use crate::conn::{Conn, Value};
use crate::error::{StoreError, err};
use crate::insert::insert_commands;

/// How long commands wait in the journal before a fold takes them (a fold touches each live
/// game's page once, so the longer the wait the more moves a touch brings; the waiting
/// commands are also held in memory)...
pub(super) const FOLD_EVERY: Duration = Duration::from_secs(16);
/// ...unless this many are waiting.
const FOLD_ROWS: usize = 160_000;
/// Most rows copied into `commands` by one statement of a fold.
const FOLD_SLICE: usize = 128;
/// The share of the time between folds over which a fold's slices are spread, so that their
/// stalls on the writer's path come one at a time rather than back to back, and the fold still
/// ends before the next is taken.
const SPREAD: f64 = 0.75;
/// Most journal rows one delete removes.
const DELETE_SLICE: i64 = 1_024;
/// How long the fold waits after a failure.
const RETRY_AFTER: Duration = Duration::from_secs(1);

/// Copies whatever the journal holds into `commands` and deletes what it copied: at start-up,
/// before the writer runs, so that a killed server's journal is folded before anyone reads it.
/// Rows another store on the database journals meanwhile are left to it.
pub(super) async fn fold_all(pool: &AnyPool) -> Result<(), StoreError> {
    let mut conn = pool.acquire().await.map_err(err("folding the journal"))?;
    let mut tx = conn.begin().await.map_err(err("folding the journal"))?;
    // `WHERE true` tells SQLite's parser that ON CONFLICT belongs to the INSERT. Of two rows
    // with one number (a write that failed but committed, then the one that was acknowledged)
    // the later is kept.
    sqlx::query(
        "INSERT INTO commands (game_id, seq, at_ms, command) \
         SELECT game_id, seq, at_ms, command FROM journal WHERE true \
         ORDER BY game_id, seq, pos DESC ON CONFLICT (game_id, seq) DO NOTHING",
    )
    .execute(&mut *tx)
    .await
    .map_err(err("folding the journal"))?;
    sqlx::query(
        "DELETE FROM journal WHERE EXISTS (SELECT 1 FROM commands c \
         WHERE c.game_id = journal.game_id AND c.seq = journal.seq)",
    )
    .execute(&mut *tx)
    .await
    .map_err(err("emptying the journal"))?;
    tx.commit().await.map_err(err("folding the journal"))
}

/// The writer's view of the journal.
pub(super) struct Journal {
    /// This writer's mark on its rows: the positions are its own, and so are the rows a fold
    /// deletes.
    writer: i64,
    /// The position the next journal row gets.
    next_pos: i64,
    /// Each game's last stored command number, for games this writer has written to.
    last_seq: HashMap<String, i64>,
    /// Commands committed to the journal since the last fold was taken, by game (in order, so
    /// that taking a fold is a swap, not a sort on the writer's path).
    filling: BTreeMap<String, Vec<CommandRow>>,
    filled: usize,
    since: Instant,
    /// What is left of the fold under way: games leave it as they reach `commands`, a slice
    /// at a time, so that no step frees a whole fold's strings at once.
    folding: BTreeMap<String, Vec<CommandRow>>,
    /// Journal rows up to this position are in `folding`; those up to `deleted` are gone.
    fold_upto: i64,
    deleted: i64,
    /// No fold work before this, after a failure.
    paused_until: Option<Instant>,
    /// When the last slice of the fold went into `commands`, and the time to leave between
    /// two slices.
    sliced: Instant,
    slice_gap: Duration,
    /// How long commands wait before a fold takes them.
    every: Duration,
}

impl Journal {
    /// An empty journal, as [`fold_all`] leaves it, folded `every` so often.
    pub(super) fn new(every: Duration) -> Journal {
        Journal {
            // Not 0, which marks rows from before writers had marks.
            writer: rand::random_range(1..=i64::MAX),
            next_pos: 1,
            last_seq: HashMap::new(),
            filling: BTreeMap::new(),
            filled: 0,
            since: Instant::now(),
            folding: BTreeMap::new(),
            fold_upto: 0,
            deleted: 0,
            paused_until: None,
            sliced: Instant::now(),
            slice_gap: Duration::ZERO,
            every,
        }
    }

    /// The mark this writer's rows carry.
    pub(super) fn writer(&self) -> i64 {
        self.writer
    }

    /// Positions for `n` journal rows, never given again: a write that fails may have
    /// committed all the same (a connection lost during COMMIT). Rows at positions whose write
    /// failed are in no fold and go with the journal's front.
    pub(super) fn reserve(&mut self, n: usize) -> i64 {
        let first = self.next_pos;
        self.next_pos += n as i64;
        first
    }

    /// `game`'s last stored command number (-1 before its first), when this writer knows it.
    pub(super) fn last_seq(&self, game: &str) -> Option<i64> {
        self.last_seq.get(game).copied()
    }

    /// Learns `game`'s last stored command number from `commands`: every command this writer
    /// did not journal itself is there.
    pub(super) async fn learn(&mut self, conn: &mut Conn, game: &str) -> Result<i64, StoreError> {
        const DOING: &str = "reading a game's last command";
        let row = conn
            .fetch_optional(
                DOING,
                "SELECT MAX(seq) FROM commands WHERE game_id = $1",
                &[game.into()],
            )
            .await?;
        let last = match row {
            Some(row) => row.opt_int(0).map_err(err(DOING))?,
            None => None,
        }
        .unwrap_or(-1);
        self.last_seq.insert(game.to_string(), last);
        Ok(last)
    }

    /// `game`'s commands that are in the journal but not yet in `commands`.
    pub(super) fn unfolded(&self, game: &str) -> impl Iterator<Item = &CommandRow> {
        let folding = self.folding.get(game);
        let filling = self.filling.get(game);
        folding.into_iter().chain(filling).flatten()
    }

    /// A new game was committed: it has no commands.
    pub(super) fn created(&mut self, game: &str) {
        self.last_seq.insert(game.to_string(), -1);
    }

    /// `rows` were committed to the journal, at positions [reserved](Journal::reserve) for them.
    pub(super) fn journaled(&mut self, game: &str, rows: &[CommandRow]) {
        let Some(last) = rows.last() else { return };
        self.filled += rows.len();
        // Most games are known already: look up before allocating a key.
        match self.filling.get_mut(game) {
            Some(waiting) => waiting.extend_from_slice(rows),
            None => {
                self.filling.insert(game.to_string(), rows.to_vec());
            }
        }
        match self.last_seq.get_mut(game) {
            Some(seq) => *seq = last.seq,
            None => {
                self.last_seq.insert(game.to_string(), last.seq);
            }
        }
    }

    /// `game` ended: all its commands were committed to `commands`, and it takes no more.
    pub(super) fn ended(&mut self, game: &str) {
        if let Some(rows) = self.filling.remove(game) {
            self.filled -= rows.len();
        }
        self.last_seq.remove(game);
    }

    /// When [`Journal::step`] has work: now, at a time to come, or never (nothing journaled).
    pub(super) fn due(&self) -> Option<Instant> {
        if let Some(until) = self.paused_until {
            return Some(until);
        }
        if !self.folding.is_empty() {
            return Some(self.sliced + self.slice_gap);
        }
        if self.deleted < self.fold_upto {
            return Some(Instant::now());
        }
        if self.filling.is_empty() {
            return None;
        }
        if self.filled >= FOLD_ROWS {
            return Some(Instant::now());
        }
        Some(self.since + self.every)
    }

    /// After a failure: no fold work for a while, so that a database that is down does not
    /// hold the writer, which has batches to fail quickly.
    pub(super) fn pause(&mut self) {
        self.paused_until = Some(Instant::now() + RETRY_AFTER);
    }

    /// Does one short piece of the fold on `conn`: copies a slice into `commands`, deletes a
    /// slice of folded rows, or, when it is due, takes the commands waiting as the next fold.
    /// For the writer to call when it is [due](Journal::due). A failure leaves everything as
    /// it was, to be tried again after a [pause](Journal::pause).
    pub(super) async fn step(&mut self, conn: &mut Conn) -> Result<(), StoreError> {
        self.paused_until = None;
        let now = Instant::now();
        if !self.folding.is_empty() {
            let mut slice = Vec::new();
            let mut rows = 0;
            while let Some(entry) = self.folding.first_entry() {
                if rows > 0 && rows + entry.get().len() > FOLD_SLICE {
                    break;
                }
                rows += entry.get().len();
                slice.push(entry.remove_entry());
            }
            let flat: Vec<(&str, &CommandRow)> = slice
                .iter()
                .flat_map(|(game, commands)| commands.iter().map(|c| (game.as_str(), c)))
                .collect();
            let inserted = insert_commands(conn, &flat).await;
            drop(flat);
            self.sliced = Instant::now();
            if inserted.is_err() {
                self.folding.extend(slice);
            }
            return inserted;
        }
        if self.deleted < self.fold_upto {
            let upto = (self.deleted + DELETE_SLICE).min(self.fold_upto);
            conn.execute(
                "deleting folded commands",
                "DELETE FROM journal WHERE writer = $1 AND pos > $2 AND pos <= $3",
                &[
                    Value::Int(self.writer),
                    Value::Int(self.deleted),
                    Value::Int(upto),
                ],
            )
            .await?;
            self.deleted = upto;
            return Ok(());
        }
        if self.due().is_some_and(|due| due <= now) {
            // Each game's commands are in order already.
            self.folding = std::mem::take(&mut self.filling);
            let slices = self.filled.div_ceil(FOLD_SLICE).max(1);
            self.slice_gap = self.every.mul_f64(SPREAD) / slices as u32;
            self.filled = 0;
            self.since = now;
            // Every row journaled so far is in this fold, or in `commands` already.
            self.fold_upto = self.next_pos - 1;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use crate::health::Checkpoints;
    use crate::testing::{command, game, rows_of, sqlite_in_temp};
    use crate::{Store, StoreError};

    /// A game's moves go to the journal first; loading a game going on finds them there, and
    /// the writer folds them into `commands` on its own (the store at `url` folds every 50 ms).
    async fn journal_folds(url: &str) {
        let fast = Duration::from_millis(50);
        let store = Store::open_with(url, Checkpoints::DEFAULT, fast)
            .await
            .unwrap();
        let id = format!("j{}", rand::random::<u32>());
        store.insert_game(&game(&id)).await.unwrap();
        for seq in 0..5 {
            store.append(&id, &[command(seq)], None).await.unwrap();
        }
        let loaded = store.load(&id).await.unwrap().unwrap().1;
        assert_eq!(loaded, (0..5).map(command).collect::<Vec<_>>());
        // A command numbered like one in the journal is refused as well.
        let again = store.append(&id, &[command(4)], None).await;
        assert!(
            matches!(again, Err(StoreError::Duplicate { .. })),
            "{again:?}"
        );
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while rows_of(&store, &id).await != (5, 0) {
            assert!(std::time::Instant::now() < deadline, "never folded");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(store.load(&id).await.unwrap().unwrap().1.len(), 5);
        // Its last move, once folded, says how long it has been idle...
        let idle = store.idle_games(i64::MAX).await.unwrap();
        assert!(
            idle.iter().any(|g| g.id == id && g.last == 1_004),
            "{idle:?}"
        );
        // ...and so does a newer one, in the journal or folded.
        store.append(&id, &[command(5)], None).await.unwrap();
        let idle = store.idle_games(i64::MAX).await.unwrap();
        assert!(
            idle.iter().any(|g| g.id == id && g.last == 1_005),
            "{idle:?}"
        );
        let idle = store.idle_games(1_005).await.unwrap();
        assert!(!idle.iter().any(|g| g.id == id), "{idle:?}");
    }

    /// The commit that ends a game puts all its moves in `commands`, those still waiting in
    /// the journal included; a restart folds whatever the journal holds before anything else.
    #[tokio::test]
    async fn a_game_that_ends_or_a_restart_leaves_nothing_in_the_journal() {
        let (dir, url) = sqlite_in_temp("journal");
        let never = Duration::from_secs(3_600);
        let store = Store::open_with(&url, Checkpoints::DEFAULT, never)
            .await
            .unwrap();
        let (ends, goes_on) = ("ends", "goes-on");
        for id in [ends, goes_on] {
            store.insert_game(&game(id)).await.unwrap();
            store
                .append(id, &[command(0), command(1)], None)
                .await
                .unwrap();
        }
        assert_eq!(rows_of(&store, ends).await, (0, 2));
        store
            .append(ends, &[command(2)], Some(("1-0", "resignation", 5)))
            .await
            .unwrap();
        assert_eq!(rows_of(&store, ends).await.0, 3);
        assert_eq!(store.load(ends).await.unwrap().unwrap().1.len(), 3);
        assert_eq!(rows_of(&store, goes_on).await, (0, 2));
        // A game's last command in the journal says how long it has been idle.
        let idle = store.idle_games(i64::MAX).await.unwrap();
        assert!(
            idle.iter().any(|g| g.id == goes_on && g.last == 1_001),
            "{idle:?}"
        );
        let idle = store.idle_games(1_001).await.unwrap();
        assert!(!idle.iter().any(|g| g.id == goes_on), "{idle:?}");
        // A write that failed yet committed, before the one acknowledged: the later one wins.
        sqlx::query("INSERT INTO journal VALUES (0, -1, $1, 1, 0, 'never acknowledged')")
            .bind(goes_on)
            .execute(&store.pool)
            .await
            .unwrap();
        // A write that fails (no such game) leaves the journal as usable as before.
        assert!(store.append("nowhere", &[command(0)], None).await.is_err());
        store.append(goes_on, &[command(2)], None).await.unwrap();
        store.close().await;
        let store = Store::open_with(&url, Checkpoints::DEFAULT, never)
            .await
            .unwrap();
        assert_eq!(rows_of(&store, goes_on).await, (3, 0));
        // The restarted writer learns the game's last command from `commands`.
        let again = store.append(goes_on, &[command(2)], None).await;
        assert!(
            matches!(again, Err(StoreError::Duplicate { .. })),
            "{again:?}"
        );
        store.append(goes_on, &[command(3)], None).await.unwrap();
        let loaded = store.load(goes_on).await.unwrap().unwrap().1;
        assert_eq!(loaded, (0..4).map(command).collect::<Vec<_>>());
        store.close().await;
        std::fs::remove_dir_all(dir).ok();
    }

    /// A fold of many games goes a slice at a time; while it does, every game loads whole,
    /// whether its moves are still in the journal, in the fold under way or in `commands`.
    #[tokio::test]
    async fn a_fold_of_many_games_loses_and_repeats_nothing() {
        let (dir, url) = sqlite_in_temp("slices");
        let store = Store::open_with(&url, Checkpoints::DEFAULT, Duration::from_millis(30))
            .await
            .unwrap();
        let ids: Vec<String> = (0..24).map(|i| format!("s{i:02}")).collect();
        for id in &ids {
            store.insert_game(&game(id)).await.unwrap();
        }
        for seq in 0..30 {
            for id in &ids {
                store.append(id, &[command(seq)], None).await.unwrap();
            }
            for id in ids.iter().step_by(7) {
                let loaded = store.load(id).await.unwrap().unwrap().1;
                assert_eq!(loaded, (0..=seq).map(command).collect::<Vec<_>>(), "{id}");
            }
        }
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        for id in &ids {
            while rows_of(&store, id).await != (30, 0) {
                assert!(std::time::Instant::now() < deadline, "{id} never folded");
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            let loaded = store.load(id).await.unwrap().unwrap().1;
            assert_eq!(loaded, (0..30).map(command).collect::<Vec<_>>(), "{id}");
        }
        store.close().await;
        std::fs::remove_dir_all(dir).ok();
    }

    /// Two stores on one database, each folding often, and a third opening meanwhile (its
    /// start-up fold): no store takes another's positions or deletes its moves.
    async fn stores_side_by_side_keep_each_others_moves(url: &str) {
        let fast = Duration::from_millis(20);
        let open = || Store::open_with(url, Checkpoints::DEFAULT, fast);
        let stores = [open().await.unwrap(), open().await.unwrap()];
        let tag = rand::random::<u32>();
        let ids: Vec<Vec<String>> = (0..2)
            .map(|s| (0..4).map(|g| format!("w{tag}-{s}-{g}")).collect())
            .collect();
        for (store, ids) in stores.iter().zip(&ids) {
            for id in ids {
                store.insert_game(&game(id)).await.unwrap();
            }
        }
        for seq in 0..40 {
            for (store, ids) in stores.iter().zip(&ids) {
                for id in ids {
                    store.append(id, &[command(seq)], None).await.unwrap();
                }
            }
            if seq == 20 {
                open().await.unwrap().close().await;
            }
            if seq % 5 == 4 {
                tokio::time::sleep(fast).await;
            }
            for (store, ids) in stores.iter().zip(&ids) {
                let loaded = store.load(&ids[0]).await.unwrap().unwrap().1;
                assert_eq!(loaded, (0..=seq).map(command).collect::<Vec<_>>());
            }
        }
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        for (store, ids) in stores.iter().zip(&ids) {
            for id in ids {
                while rows_of(store, id).await != (40, 0) {
                    assert!(std::time::Instant::now() < deadline, "{id} never folded");
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                let loaded = store.load(id).await.unwrap().unwrap().1;
                assert_eq!(loaded, (0..40).map(command).collect::<Vec<_>>(), "{id}");
            }
        }
        for store in stores {
            store.close().await;
        }
    }

    #[tokio::test]
    async fn sqlite_stores_side_by_side_keep_each_others_moves() {
        let (dir, url) = sqlite_in_temp("side-by-side");
        stores_side_by_side_keep_each_others_moves(&url).await;
        std::fs::remove_dir_all(dir).ok();
    }

    #[tokio::test]
    #[ignore = "needs PostgreSQL: VIZIER_TEST_POSTGRES (scripts/test.sh starts one)"]
    async fn postgres_stores_side_by_side_keep_each_others_moves() {
        let url = crate::testing::postgres_url();
        stores_side_by_side_keep_each_others_moves(&url).await;
    }

    #[tokio::test]
    async fn sqlite_journal_folds() {
        let (dir, url) = sqlite_in_temp("fold");
        journal_folds(&url).await;
        std::fs::remove_dir_all(dir).ok();
    }

    #[tokio::test]
    #[ignore = "needs PostgreSQL: VIZIER_TEST_POSTGRES (scripts/test.sh starts one)"]
    async fn postgres_journal_folds() {
        let url = crate::testing::postgres_url();
        journal_folds(&url).await;
    }
}
