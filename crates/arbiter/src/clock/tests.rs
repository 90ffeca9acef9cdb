use super::*;

#[test]
fn time_controls_are_read_strictly() {
    for good in [
        "300+3",
        "180",
        "2.5+0.5",
        "40/5400+30:1800+30",
        "300d5",
        "-",
    ] {
        assert!(TimeControl::parse_pgn(good).is_ok(), "{good}");
    }
    let TimeControl::Clock(p) = TimeControl::parse_pgn("2.5+0.125").unwrap() else {
        panic!("a clock")
    };
    assert_eq!((p[0].base_ms, p[0].increment_ms), (2_500, 125));
    for bad in [
        "3e2",
        "300++3",
        "+300",
        "300+-3",
        "300 +3",
        "inf",
        "NaN",
        "1.",
        ".5",
        "1.2345",
        "300+3e0",
        "0x10",
        "9999999999999",
    ] {
        assert!(TimeControl::parse_pgn(bad).is_err(), "{bad}");
    }
}
