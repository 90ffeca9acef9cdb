//! `/metrics` on a server nothing has happened on yet: every family is there, at zero. (A test
//! binary of its own: the recorder is the process's.)

mod common;

#[tokio::test]
async fn the_first_scrape_lists_every_family() {
    let addr = common::start(vizier_server::Limits::default()).await;
    let r = reqwest::get(format!("http://{addr}/metrics"))
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let text = r.text().await.unwrap();
    for family in [
        "vizier_games_live",
        "vizier_sockets_open",
        "vizier_engine_searches",
        "vizier_moves_total",
        "vizier_store_failures_total",
        "vizier_refused_total",
        "vizier_ack_seconds",
        "vizier_store_append_seconds",
        "vizier_store_checkpoint_seconds",
    ] {
        let typed = format!("# TYPE {family} ");
        assert!(text.contains(&typed), "{family} missing from:\n{text}");
    }
    assert!(
        text.contains("vizier_refused_total{code=\"illegal-move\"} 0"),
        "refusals are counted from zero by code:\n{text}"
    );
}
