use super::lex::{Lexer, simple_tag, split_symbol, split_symbol_fully};
use super::*;
use crate::pgn::GameBuilder;

/// Every game of `text` read as the parser reads it, and again by the lexer alone.
fn both_ways(text: &[u8]) -> [Vec<String>; 2] {
    let mut parser = Parser::new(text);
    let mut builder = GameBuilder::default();
    let mut fast = Vec::new();
    while let Some(game) = parser.read_game(&mut builder) {
        fast.push(format!("{game:?}"));
    }
    let mut input = Parser::new(text).input;
    let mut lexed = Vec::new();
    while let Some(first_line) = input.next_game(|_, _, _| false) {
        let tokens = Tokens::new(input.game_text(), first_line, 0, &[]);
        let mut game = GameState::new(Vec::new());
        builder.begin_game();
        let game = read_lexed(tokens, &mut game, lexed.len() + 1, &mut builder);
        lexed.push(format!("{game:?}"));
    }
    [fast, lexed]
}

#[test]
fn move_symbols_split_alike_at_a_glance_and_in_full() {
    for word in [
        "e4", "Nf3+", "Qxh7#", "O-O", "0-0", "e8=Q", "e8Q", "exd6e.p.", "12.", "12...", "1.e4",
        "1.2.", "12.Nf3!?", "Nf3!", "1...", "!?", "9", "a", ".", "12.!!", "Ke2??",
    ] {
        assert_eq!(split_symbol(word), split_symbol_fully(word), "{word}");
    }
}

#[test]
fn plain_tags_read_at_a_glance_as_the_lexer_reads_them() {
    for line in [
        "[Event \"x\"]",
        "[White \"A \\\"B\\\" \\\\ C\"]",
        "[Site \"a]b\"]",
        "[Round \"\"]",
        "[FEN \"8/8/8/8/8/8/8/K1k5 w - - 0 1\"]",
        "[A \"x\\\"]",
        "[A \"x\" y\"]",
        "[A  \"x\"]",
        "[A_1 \"\u{4e2d}\"]",
    ] {
        let lexed = Lexer {
            text: line,
            pos: 0,
            loc: Loc::default(),
            failure: None,
            line: 1,
            line_start: 0,
        }
        .next();
        if let Some(tag) = simple_tag(line) {
            assert_eq!(Some(tag), lexed, "{line}");
        }
    }
    assert!(simple_tag("[Event \"x\"]").is_some());
}

#[test]
fn splitter_tokens_read_as_the_lexer_reads() {
    let base = concat!(
        "[Event \"a \\\"b\\\" ]c\"]\n[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n\n",
        "{start} 1. a8=Q+ $1 {x\n y} (1. Kd2 ; note\n Kd7) 1... Kd7!? 2. Qb7+ Ke6 1-0\n\n",
        "[Event \"b\"]\n% escape\n1. e4 e5$2 2. Nf3 (2. f4 (2. d4) exd4) Nc6 { [%clk 0:01:00] } *\n",
        "1. d4 ½-½\n\u{3000}[Event \"c\"]\n1. c4 {open\n",
        "}\n\n[Event \"d\"]\r\n[Variant \"Chess960\"]\r\n",
        "[FEN \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\"]\r\n\r\n",
        "9. e4!! $18 {[%clk 0:01:00]} ( 9. g3 ) 9... Nxe4 10. dxe4 Qc7 0-1\r\n",
    );
    // The text itself reads mostly well (the mutations then break it in every way).
    let [games, _] = both_ways(base.as_bytes());
    assert_eq!(
        games.iter().filter(|g| g.starts_with("Ok")).count(),
        3,
        "{games:?}"
    );
    let specials = b"{}()[];$%\n \"*1-0!?.\t\r\x0b";
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut random = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut inputs = vec![base.as_bytes().to_vec()];
    for _ in 0..6000 {
        let mut text = base.as_bytes().to_vec();
        for _ in 0..1 + random(3) {
            let at = random(text.len());
            if random(3) == 0 {
                text.remove(at);
            } else {
                text.insert(at, specials[random(specials.len())]);
            }
        }
        inputs.push(text);
    }
    for (k, text) in inputs.iter().enumerate() {
        let [fast, lexed] = both_ways(text);
        assert_eq!(fast, lexed, "{:?}", String::from_utf8_lossy(text));
        if k % 20 == 0 {
            assert_eq!(trickled(text), fast, "{:?}", String::from_utf8_lossy(text));
        }
    }
}

/// A stream that gives one byte per read.
struct Trickle<'a>(&'a [u8]);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let Some((&b, rest)) = self.0.split_first() else {
            return Ok(0);
        };
        buf[0] = b;
        self.0 = rest;
        Ok(1)
    }
}

/// Every game of `text` read from a stream that gives it a byte at a time.
fn trickled(text: &[u8]) -> Vec<String> {
    let mut parser = Parser::new(Trickle(text));
    let mut builder = GameBuilder::default();
    let mut games = Vec::new();
    while let Some(game) = parser.read_game(&mut builder) {
        games.push(format!("{game:?}"));
    }
    games
}

/// `text` as the reader decodes it: UTF-8, and each byte that is not valid UTF-8 as Latin-1.
fn decode(mut text: &[u8]) -> String {
    let mut out = String::new();
    while !text.is_empty() {
        match std::str::from_utf8(text) {
            Ok(valid) => {
                out.push_str(valid);
                text = &[];
            }
            Err(e) => {
                let (valid, rest) = text.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(valid).unwrap());
                let bad = e.error_len().unwrap_or(rest.len());
                out.extend(rest[..bad].iter().map(|&b| char::from(b)));
                text = &rest[bad..];
            }
        }
    }
    out
}

#[test]
fn latin1_bytes_read_as_latin1_however_the_stream_is_cut() {
    let text = b"[Event \"caf\xe9\"]\n\n1. e4 {\xf0\x9f\x98 x} e5 {\xe2\x82} 2. Nf3 *\n1. d4 \xc2\xbd-\xc2\xbd\n1. c4 {\xf0\x9f";
    let lossy = decode(text);
    let mut whole = Parser::new(lossy.as_bytes());
    let mut builder = GameBuilder::default();
    let mut expected = Vec::new();
    while let Some(game) = whole.read_game(&mut builder) {
        expected.push(format!("{game:?}"));
    }
    assert_eq!(expected.len(), 2);
    // A Latin-1 file's "café" stays "café".
    assert!(expected[0].contains("café"), "{}", expected[0]);
    assert_eq!(trickled(text), expected);
    let [fast, _] = both_ways(text);
    assert_eq!(fast, expected);
}

#[test]
fn an_apart_en_passant_marker_and_a_glyph_past_255_keep_the_game() {
    let text = "1. e4 Nf6 2. e5 d5 3. exd6 e.p. $256 cxd6 $1 *";
    let games = crate::pgn::read_str(text);
    let game = games[0].as_ref().expect("the game is kept");
    assert_eq!(game.ply_count(), 6);
    let written = crate::pgn::write(game);
    assert!(written.contains("3. exd6 cxd6 $1 *"), "{written}");
}
