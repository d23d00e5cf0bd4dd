//! Opening books through the real binary: `chuhe book build` from a PGN the test writes, `chuhe
//! book probe` of both formats, and the engine answering `go` from the book in UCCI, UCI and
//! CECP; bad book files are one error line and the engine keeps working. Independent of any
//! book outside the repository: every book here is built by the test.

mod common;

use common::{Engine, WAIT};
use std::path::PathBuf;
use std::process::{Command, Output};

/// Three games from the start position: 1. h2e2 h9g7 won by Red, 1. h2e2 h9g7 drawn, and
/// 1. h0g2 lost by Red; one unfinished game (skipped).
const PGN: &str = r#"[Game "Chinese Chess"]
[Red "A"]
[Black "B"]
[Result "1-0"]
[Format "ICCS"]

1. H2-E2 H9-G7 2. H0-G2 I9-H9 1-0

[Game "Chinese Chess"]
[Red "B"]
[Black "A"]
[Result "1/2-1/2"]
[Format "ICCS"]

1. H2-E2 H9-G7 2. H0-G2 {a comment} G9-E7 1/2-1/2

[Game "Chinese Chess"]
[Red "A"]
[Black "B"]
[Result "0-1"]
[Format "ICCS"]

1. H0-G2 H9-G7 0-1

[Game "Chinese Chess"]
[Red "A"]
[Black "B"]
[Result "*"]

1. C3-C4 *
"#;

fn dir() -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("book");
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn chuhe(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chuhe")).arg("book").args(args).output().expect("run chuhe")
}

fn ok(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The stderr line of a refused command (status 2, one line).
fn refused(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.starts_with("chuhe book: "), "{e}");
    e
}

/// Builds the test book in `format` (`chuhe` or `eleeye`) and returns its path.
fn build(name: &str, format: &str) -> String {
    let d = dir();
    let pgn = d.join(format!("{name}.pgn"));
    std::fs::write(&pgn, PGN).unwrap();
    let out = d.join(name);
    let text = ok(&chuhe(&[
        "build",
        "--pgn",
        pgn.to_str().unwrap(),
        &format!("--out={}", out.display()),
        "--min-games",
        "1",
        "--format",
        format,
    ]));
    assert!(text.contains("from 3 games, 1 unfinished skipped"), "{text}");
    out.to_str().unwrap().to_string()
}

/// The (move, weight) lines of a probe.
fn probe(book: &str, extra: &[&str]) -> Vec<(String, u32)> {
    let mut args = vec!["probe", "--book", book];
    args.extend(extra);
    let text = ok(&chuhe(&args));
    text.lines()
        .skip(1)
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (w[0].to_string(), w[1].parse().unwrap())
        })
        .collect()
}

#[test]
fn build_and_probe_both_formats() {
    for format in ["chuhe", "eleeye"] {
        let book = build(&format!("probe-{format}.book"), format);
        let head = ok(&chuhe(&["probe", "--book", &book]));
        assert!(head.starts_with(&format!("{book}: {format} book, ")), "{head}");
        // Red's points: h2e2 won once and drew once (2 + 1), h0g2 lost (0: not in the book).
        assert_eq!(probe(&book, &[]), [("h2e2".to_string(), 3)], "{format}");
        assert!(head.contains("100.0%"), "{head}");
        // Black after h2e2: h9g7 lost once and drew once (0 + 1).
        assert_eq!(probe(&book, &["--moves", "h2e2"]), [("h9g7".to_string(), 1)]);
        // The mirrored game (b2e2) finds the mirrored move.
        assert_eq!(probe(&book, &["--moves=B2-E2"]), [("b9c7".to_string(), 1)]);
        // A FEN reaching the same position.
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
        assert_eq!(probe(&book, &["--fen", fen]), [("h9g7".to_string(), 1)]);
        let out = ok(&chuhe(&["probe", "--book", &book, "--moves", "c3c4"]));
        assert!(out.trim_end().ends_with("the position is not in the book"), "{out}");
    }
}

#[test]
fn bad_input_is_one_line() {
    let garbage = dir().join("garbage.book");
    std::fs::write(&garbage, b"this is not a book at all").unwrap();
    let truncated = dir().join("truncated.book");
    let good = std::fs::read(build("trunc-src.book", "chuhe")).unwrap();
    std::fs::write(&truncated, &good[..good.len() - 3]).unwrap();
    let e = refused(&chuhe(&["probe", "--book", garbage.to_str().unwrap()]));
    assert!(e.contains("is not an opening book"), "{e}");
    let e = refused(&chuhe(&["probe", "--book", truncated.to_str().unwrap()]));
    assert!(e.contains("truncated"), "{e}");
    let e = refused(&chuhe(&["probe", "--book", "/nonexistent/x.book"]));
    assert!(e.contains("cannot read book"), "{e}");
    let e = refused(&chuhe(&["probe", "--book", truncated.to_str().unwrap(), "--fen", "9/9 w"]));
    assert!(e.contains("FEN"), "{e}");
    refused(&chuhe(&["probe", "--book", "/nonexistent/x.book", "--moves", "h2h9 zz"]));
    refused(&chuhe(&["build", "--pgn", "/nonexistent.pgn", "--out", "/tmp/never"]));
    refused(&chuhe(&["build", "--out", "/tmp/never"]));
    refused(&chuhe(&["build", "--pgn", "x.pgn", "--out", "/tmp/never", "--format", "polyglot"]));
    refused(&chuhe(&["frobnicate"]));
}

/// The move of a `bestmove` line.
fn best(line: &str) -> String {
    line.split_whitespace().nth(1).unwrap_or("").to_string()
}

#[test]
fn ucci_and_uci_play_book_moves_on_timed_go_only() {
    let book = build("engine.book", "eleeye");
    // UCCI: usebook is on by default; a book file is enough.
    let (mut e, hs) = Engine::handshake("ucci");
    assert!(hs.contains(&"option usebook type check default true".to_string()), "{hs:?}");
    assert!(e.ask(&format!("setoption bookfiles {book}")).is_empty());
    e.send("go time 60 increment 0");
    let (last, before) = e.search_end();
    assert_eq!(last, "bestmove h2e2");
    assert_eq!(before, ["info string book move h2e2 (weight 3 of 3)"]);
    // Analysis is searched, not answered from the book.
    e.send("go depth 1");
    let (_, before) = e.search_end();
    assert!(before.iter().all(|l| !l.contains("book")), "{before:?}");
    // A position out of the book is searched; the mirrored one is in it.
    e.send("position startpos moves c3c4");
    let (_, before) = {
        e.send("go depth 1");
        e.search_end()
    };
    assert!(before.iter().any(|l| l.starts_with("info depth 1")), "{before:?}");
    e.send("position startpos moves b2e2");
    assert_eq!(e.go("go time 60"), "bestmove b9c7");
    // A banned book move is never played: the search answers instead.
    e.send("banmoves b9c7");
    e.send("go time 1 increment 0");
    let (last, before) = e.search_end();
    assert_ne!(best(&last), "b9c7");
    assert!(before.iter().all(|l| !l.contains("book move")), "{before:?}");
    // usebook false: searched.
    e.send("setoption usebook false");
    e.send("position startpos");
    e.send("go depth 1");
    let (_, before) = e.search_end();
    assert!(before.iter().all(|l| !l.contains("book")), "{before:?}");
    e.send("quit");

    // UCI: OwnBook off by default.
    let (mut e, hs) = Engine::handshake("uci");
    assert!(hs.contains(&"option name OwnBook type check default false".to_string()), "{hs:?}");
    assert!(hs.contains(&"option name BookFile type string default <empty>".to_string()), "{hs:?}");
    assert!(e.ask(&format!("setoption name BookFile value {}", build("uci.book", "chuhe"))).is_empty());
    e.send("position startpos moves h2e2");
    e.send("go depth 1");
    assert!(e.search_end().1.iter().all(|l| !l.contains("book")));
    assert!(e.ask("setoption name OwnBook value true").is_empty());
    for go in ["go wtime 1000 btime 1000", "go movetime 100", "go"] {
        e.send(go);
        let (last, before) = e.search_end();
        assert_eq!(last, "bestmove h9g7", "{go}");
        assert_eq!(before, ["info string book move h9g7 (weight 1 of 1)"], "{go}");
    }
    // Pondering and infinite analysis are searched (stopped here).
    e.send("go infinite");
    e.send("stop");
    let (_, before) = e.search_end();
    assert!(before.iter().all(|l| !l.contains("book")), "{before:?}");
}

#[test]
fn bad_book_files_are_one_error_line_and_the_engine_keeps_working() {
    let garbage = dir().join("engine-garbage.book");
    std::fs::write(&garbage, [0xFFu8; 13]).unwrap();
    let good = build("engine-good.book", "chuhe");
    let (mut e, _) = Engine::handshake("ucci");
    assert!(e.ask(&format!("setoption bookfiles {good}")).is_empty());
    for bad in [garbage.to_str().unwrap(), "/nonexistent/BOOK.DAT", &format!("{good};/nonexistent/other.obk")] {
        let err = e.refused(&format!("setoption bookfiles {bad}"));
        assert!(err.starts_with("info string error: setoption: bookfiles: "), "{err}");
    }
    // The good book is still loaded, and the engine still plays.
    assert_eq!(e.go("go time 10"), "bestmove h2e2");
    assert!(e.ask("setoption bookfiles").is_empty());
    e.send("go depth 1");
    assert!(e.search_end().0.starts_with("bestmove "));
    // UCI the same.
    let (mut e, _) = Engine::handshake("uci");
    let err = e.refused(&format!("setoption name BookFile value {}", garbage.display()));
    assert!(err.contains("is not an opening book"), "{err}");
    e.send("go depth 1");
    assert!(e.search_end().0.starts_with("bestmove "));
}

#[test]
fn cecp_plays_from_the_book_and_bk_lists_it() {
    let book = build("cecp.book", "eleeye");
    let (mut e, features) = Engine::xboard_handshake();
    assert!(features.contains(&"feature option=\"OwnBook -check 0\"".to_string()), "{features:?}");
    assert!(features.iter().any(|l| l.starts_with("feature option=\"BookFile -string")), "{features:?}");
    assert_eq!(e.cecp_ask("bk"), ["\tno opening book", ""]);
    assert!(e.cecp_ask(&format!("option BookFile={book}")).is_empty());
    assert!(e.cecp_ask("option OwnBook=1").is_empty());
    assert_eq!(e.cecp_ask("bk"), ["\th2e2 weight 3 (100.0%)", ""]);
    assert!(e.cecp_ask("new").is_empty());
    assert!(e.cecp_ask("level 0 1 0").is_empty());
    e.send("usermove h2e2");
    let lines = e.until_within(|l| l.starts_with("move "), WAIT);
    assert_eq!(lines, ["# book move h9g7 (weight 1 of 1)", "move h9g7"]);
    // The engine played it on its own board: Red to move after h2e2 h9g7 (h0g2 won and drew).
    assert_eq!(e.cecp_ask("bk"), ["\th0g2 weight 3 (100.0%)", ""]);
    assert!(e.cecp_ask("force").is_empty());
    assert!(e.cecp_ask("setboard 3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").is_empty());
    assert_eq!(e.cecp_ask("bk"), ["\tno book moves for this position", ""]);
    let err = e.cecp_ask("option BookFile=/nonexistent/b.dat");
    assert_eq!(err.len(), 1, "{err:?}");
    assert!(err[0].starts_with("Error ("), "{err:?}");
}
