//! The documents' promises about the tree: every file named in docs/architecture.md's "where is
//! X" table exists, and the README stays a short user's guide.

use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .parent()
        .unwrap()
}

#[test]
fn where_is_x_names_files_that_exist() {
    let doc = std::fs::read_to_string(root().join("docs/architecture.md")).unwrap();
    let table = doc
        .split("## Where is X")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("docs/architecture.md has a \"Where is X\" section");
    let mut checked = 0;
    for row in table.lines().filter(|l| l.starts_with('|')).skip(2) {
        let place = row.rsplit('|').nth(1).unwrap_or("");
        // A bare file name lies beside the path before it in the same cell.
        let mut dir = String::new();
        for name in place.split('`').skip(1).step_by(2) {
            let name = name.split_whitespace().next().unwrap_or(name);
            let path = if name.contains('/') {
                let p = name.trim_end_matches('/');
                dir = match name.rfind('/') {
                    Some(i) if !name.ends_with('/') => name[..i].to_string(),
                    _ => p.to_string(),
                };
                p.to_string()
            } else if name.ends_with(".rs") || name.ends_with(".ts") {
                format!("{dir}/{name}")
            } else {
                continue; // an item's name, e.g. `ENDINGS`
            };
            assert!(root().join(&path).exists(), "{path} (row: {row})");
            checked += 1;
        }
    }
    assert!(checked > 40, "only {checked} paths checked");
}

#[test]
fn the_readme_is_a_short_guide() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let words = readme.split_whitespace().count();
    assert!(words <= 1_100, "README.md has {words} words");
    for doc in [
        "architecture",
        "operations",
        "protocol",
        "engine",
        "testing",
    ] {
        assert!(
            readme.contains(&format!("docs/{doc}.md")),
            "README links docs/{doc}.md"
        );
        assert!(root().join(format!("docs/{doc}.md")).exists());
    }
}
