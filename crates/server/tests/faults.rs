//! Storage under faults: a disk that fills up and is freed again; PostgreSQL stopped and started. Every append the store said
//! was stored must be in the database when it is opened afresh; nothing it refused may be.
//!
//! The disk test needs a small tmpfs, so root; the PostgreSQL test a cluster of its own that it
//! may stop (`scripts/postgres-faults.sh`). Both are ignored unless asked for, and fail rather
//! than pass where what they need is missing: `scripts/test.sh` provides it and runs them.

use std::path::{Path, PathBuf};
use std::process::Command;

use vizier_store::{CommandRow, GameRow, Store};

struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(size: &str) -> Option<Tmpfs> {
        let dir = std::env::temp_dir().join(format!("vizier-full-{}", std::process::id()));
        std::fs::create_dir_all(&dir).ok()?;
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&dir)
            .status()
            .is_ok_and(|s| s.success());
        ok.then_some(Tmpfs(dir))
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
        let _ = std::fs::remove_dir(&self.0);
    }
}

/// Fills the file system holding `dir` with a filler file; returns its path.
fn fill(dir: &Path) -> PathBuf {
    use std::io::Write;
    let path = dir.join("filler");
    let mut f = std::fs::File::create(&path).unwrap();
    let block = vec![7u8; 4096];
    while f.write_all(&block).and_then(|_| f.flush()).is_ok() {}
    let _ = f.sync_all();
    path
}

fn game(id: &str) -> GameRow {
    GameRow {
        id: id.into(),
        kind: "local".into(),
        created_at: 1,
        started_at: Some(1),
        setup: r#"{"time_control":"-"}"#.into(),
        white: "p:a".into(),
        black: "p:a".into(),
        invite: None,
        seed: 1,
        ..GameRow::default()
    }
}

fn command(seq: i64) -> CommandRow {
    // Long enough that a full disk cannot hide many of them in free pages.
    CommandRow {
        seq,
        at_ms: seq,
        command: format!("{{\"c\":\"check-flag\",\"pad\":\"{}\"}}", "x".repeat(2000)),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs root, to mount a small tmpfs (scripts/test.sh runs it as root)"]
async fn a_full_disk_loses_no_acknowledged_move() {
    let fs = Tmpfs::mount("3m").expect("this test needs root, to mount a tmpfs");
    let data = fs.0.join("data");
    let store = Store::sqlite(&data).await.unwrap();
    store.insert_game(&game("g")).await.unwrap();
    let mut acked = Vec::new();
    let mut refused = 0;
    let mut seq = 0;
    let append = async |store: &Store, seq: &mut i64, acked: &mut Vec<i64>| {
        let ok = store.append("g", &[command(*seq)], None).await.is_ok();
        if ok {
            acked.push(*seq);
            *seq += 1;
        }
        ok
    };
    for _ in 0..4 {
        assert!(
            append(&store, &mut seq, &mut acked).await,
            "before the disk filled up"
        );
    }
    let filler = fill(&fs.0);
    for _ in 0..40 {
        if !append(&store, &mut seq, &mut acked).await {
            refused += 1;
        }
    }
    assert!(refused > 0, "the full disk refused nothing");
    assert!(store.health().await.is_err(), "healthy while writes fail");
    std::fs::remove_file(filler).unwrap();
    let mut after = 0;
    for _ in 0..10 {
        if append(&store, &mut seq, &mut acked).await {
            after += 1;
        }
    }
    assert_eq!(after, 10, "once space is free, appends work again");
    assert!(
        store.health().await.is_ok(),
        "writes work again, but unhealthy"
    );

    store.close().await;

    let again = Store::sqlite(&data).await.unwrap();
    let (_, stored) = again.load("g").await.unwrap().unwrap();
    let stored: Vec<i64> = stored.iter().map(|c| c.seq).collect();
    assert_eq!(
        stored, acked,
        "every acknowledged append, and nothing else, is stored"
    );
    again.close().await;
}

/// `VIZIER_TEST_POSTGRES_FAULTS` as `scripts/postgres-faults.sh` prints it: the database's URL,
/// then the Debian cluster's version and name (it is stopped and started again).
/// Unset, the test fails rather than pass without testing anything.
fn postgres_faults() -> (String, String, String) {
    let spec = std::env::var("VIZIER_TEST_POSTGRES_FAULTS")
        .expect("VIZIER_TEST_POSTGRES_FAULTS is not set: this test needs a PostgreSQL cluster");
    let mut words = spec.split_whitespace().map(str::to_string);
    let mut next = || {
        words
            .next()
            .expect("VIZIER_TEST_POSTGRES_FAULTS: URL VERSION CLUSTER")
    };
    (next(), next(), next())
}

fn pg_ctl(version: &str, cluster: &str, action: &str) {
    let ok = Command::new("pg_ctlcluster")
        .args([version, cluster, action, "-m", "fast"])
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "pg_ctlcluster {version} {cluster} {action}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a PostgreSQL cluster to stop: VIZIER_TEST_POSTGRES_FAULTS (scripts/test.sh starts one)"]
async fn a_postgres_outage_fails_fast_and_loses_no_acknowledged_move() {
    let (url, version, cluster) = postgres_faults();
    let store = Store::open(&url).await.unwrap();
    let id = format!("pg{}", std::process::id());
    store.insert_game(&game(&id)).await.unwrap();
    let mut acked = Vec::new();
    let mut seq = 0;
    for _ in 0..3 {
        store.append(&id, &[command(seq)], None).await.unwrap();
        acked.push(seq);
        seq += 1;
    }
    pg_ctl(&version, &cluster, "stop");
    for _ in 0..3 {
        let started = std::time::Instant::now();
        assert!(
            store.append(&id, &[command(seq)], None).await.is_err(),
            "stored while down"
        );
        let took = started.elapsed();
        assert!(
            took < std::time::Duration::from_secs(8),
            "a refusal took {took:?}"
        );
    }
    assert!(
        store.health().await.is_err(),
        "healthy while the database is down"
    );
    pg_ctl(&version, &cluster, "start");
    // The store comes back by itself: broken connections are dropped as they fail.
    let mut back = false;
    for _ in 0..40 {
        if store.health().await.is_ok() {
            back = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    }
    assert!(back, "the store did not recover");
    for _ in 0..3 {
        let mut stored = false;
        for _ in 0..5 {
            if store.append(&id, &[command(seq)], None).await.is_ok() {
                stored = true;
                break;
            }
        }
        assert!(stored, "appends fail after the database came back");
        acked.push(seq);
        seq += 1;
    }
    store.close().await;
    let again = Store::open(&url).await.unwrap();
    let (_, rows) = again.load(&id).await.unwrap().unwrap();
    let stored: Vec<i64> = rows.iter().map(|c| c.seq).collect();
    assert_eq!(
        stored, acked,
        "every acknowledged append, and nothing else, is stored"
    );
    again.close().await;
}
