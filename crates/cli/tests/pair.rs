//! `vizier pair` as a checker runs it: the output format and the exit statuses.

use std::process::Command;

fn vizier_pair(text: &str) -> (i32, String, String) {
    let dir =
        std::env::temp_dir().join(format!("vizier-pair-{}-{}", std::process::id(), text.len()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("t.trf");
    std::fs::write(&file, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_vizier"))
        .arg("pair")
        .arg(&file)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

const PLAYED: &str = "001    1      A                                 2700                             1.0    1     2 w 1\r\
001    2      B                                 2600                             0.0    2     1 b 0\r\
001    3      C                                 2500                             1.0    3  0000 - U\r";

#[test]
fn prints_pairs_then_the_bye() {
    let (code, out, _) = vizier_pair(&format!("XXR 3\r{PLAYED}"));
    assert_eq!(code, 0);
    // 1 and 3 lead on a point; 2 gets the bye; 3 had no game and takes White from 1.
    assert_eq!(out, "2\n3 1\n2 0\n");
}

#[test]
fn no_pairing_exits_1_with_a_reason() {
    let text = "XXR 2\r\
001    1      A                                 2700                             1.0    1     2 w 1\r\
001    2      B                                 2600                             0.0    2     1 b 0\r";
    let (code, out, err) = vizier_pair(text);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.contains("absolute criteria"), "{err}");
}

#[test]
fn a_bad_file_exits_3_naming_the_line() {
    let (code, _, err) = vizier_pair("XXR 3\r001 1 broken\r");
    assert_eq!(code, 3);
    assert!(err.contains("line 2"), "{err}");
    let (code, _, err) = vizier_pair(PLAYED);
    assert_eq!(code, 3);
    assert!(err.contains("number of rounds"), "{err}");
}
