//! `chuhe perft-diff` through the real binary against a deliberately broken perft engine
//! (tests/fixtures/perft_engine.py: Chuhe's generator minus one move), a silent and a crashing
//! one, and Chuhe itself.

use std::process::{Command, Output};

const CHUHE: &str = env!("CARGO_BIN_EXE_chuhe");

fn fake() -> String {
    format!("{}/tests/fixtures/perft_engine.py", env!("CARGO_MANIFEST_DIR"))
}

/// `chuhe perft-diff --engine <fake> arg=... <fake words> <more>`.
fn diff_fake(fake_words: &str, more: &[&str]) -> Output {
    let mut args =
        vec!["perft-diff".to_string(), "--engine".into(), fake(), "arg=--chuhe".into(), format!("arg={CHUHE}")];
    args.extend(fake_words.split_whitespace().map(|w| format!("arg={w}")));
    args.extend(more.iter().map(|w| w.to_string()));
    Command::new(CHUHE).args(&args).output().expect("run chuhe")
}

fn text(o: &Output) -> (String, String) {
    (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

/// Runs `diff_fake` where the engines must differ (status 1); returns what it printed.
fn differs(fake_words: &str, more: &[&str]) -> String {
    let o = diff_fake(fake_words, more);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    out
}

#[test]
fn finds_the_position_where_a_move_is_missing() {
    // e4e5 exists only once Red's centre pawn has advanced: two plies below the root.
    let out = differs("--drop e4e5", &["--depth", "3"]);
    assert!(out.contains("depth 3: 44 moves alike; e3e4: ours 1920, engine 1876"), "{out}");
    assert!(
        out.contains("the legal moves differ at: rnbakabnr/9/1c5c1/2p1p1p1p/p8/4P4/P1P3P1P/1C5C1/9/RNBAKABNR w"),
        "{out}"
    );
    assert!(out.contains("\npath: e3e4 a6a5\n"), "{out}");
    assert!(out.contains("missing (legal, the engine lacks them): e4e5\n"), "{out}");
    assert!(out.contains("extra (the engine has them, not legal): none\n"), "{out}");
}

#[test]
fn ranks_numbered_from_one_are_read_as_ours() {
    let out = differs("--drop e6e5 --ranks1", &["--depth", "2"]);
    assert!(out.starts_with("the engine numbers ranks 1-10"), "{out}");
    assert!(out.contains("\npath: a0a1\n") && out.contains("lacks them): e6e5\n"), "{out}");
    // Nothing dropped: the same engine agrees, and says with what total.
    let fen = "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1";
    let o = diff_fake("--ranks1", &["--depth", "2", "--fen", fen]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert!(out.ends_with("the engines agree: 424 leaves over 25 root moves\n"), "{out}");
}

#[test]
fn chuhe_agrees_with_itself_over_uci_and_ucci() {
    for proto in ["proto=uci", "proto=ucci"] {
        let o = Command::new(CHUHE)
            .args(["perft-diff", "--engine", CHUHE, proto, "--depth", "3", "--threads", "2", "--hash", "1"])
            .output()
            .unwrap();
        let (out, err) = text(&o);
        assert!(o.status.success(), "{out}{err}");
        assert_eq!(out, "the engines agree: 79666 leaves over 44 root moves\n");
    }
}

#[test]
fn silent_crashed_or_missing_engines_are_one_line_errors() {
    for (words, more, want) in [
        ("--mode silent", "--depth 2 --timeout 1", "gave no 'go perft 2' answer within 1 s"),
        ("--mode crash", "--depth 2", "the engine exited"),
        ("", "--depth 0", "--depth '0' must be"),
        ("", "--depth 2 --fen nonsense", "chuhe perft-diff: "),
        ("", "--depth 2 --frobnicate", "unknown option"),
    ] {
        let o = diff_fake(words, &more.split_whitespace().collect::<Vec<_>>());
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{words} {more}: {out}{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.starts_with("chuhe perft-diff: ") && err.contains(want), "{err}");
    }
    for args in
        [vec!["perft-diff", "--depth", "2"], vec!["perft-diff", "--engine", "/nonexistent/engine", "--depth", "2"]]
    {
        let o = Command::new(CHUHE).args(&args).output().unwrap();
        assert_eq!(o.status.code(), Some(2));
        assert_eq!(String::from_utf8_lossy(&o.stderr).trim_end().lines().count(), 1);
    }
}
