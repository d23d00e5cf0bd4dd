//! `chuhe judge` from the built binary: one case per rule, the file form, JSON and errors.

use std::io::Write;
use std::process::{Command, Output};

fn judge(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chuhe")).arg("judge").args(args).output().expect("run chuhe")
}

fn line(args: &[&str]) -> String {
    let out = judge(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().trim_end().to_string()
}

fn fen_moves(fen: &str, moves: &str) -> String {
    line(&["--fen", fen, "--moves", moves])
}

#[test]
fn every_rule_from_the_command_line() {
    let cases = [
        // perpetual check by a rook
        (
            "4k4/9/9/9/9/9/9/9/R8/5K3 w - - 0 1",
            "a1a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9",
            "0-1 {Red loses: perpetual check, plies 2-9}",
        ),
        // the same, one ply short: only the second occurrence
        ("4k4/9/9/9/9/9/9/9/R8/5K3 w - - 0 1", "a1a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9", "* {game goes on}"),
        // perpetual chase of an unprotected horse
        (
            "2n1k4/9/9/9/9/3R5/9/9/9/5K3 w - - 0 1",
            "d4c4 c9d7 c4d4 d7c9 d4c4 c9d7 c4d4 d7c9",
            "0-1 {Red loses: perpetual chase, plies 1-8}",
        ),
        // chase of a protected horse: a draw
        (
            "2n1k4/4a4/b8/9/9/3R5/9/9/9/5K3 w - - 0 1",
            "d4c4 c9d7 c4d4 d7c9 d4c4 c9d7 c4d4 d7c9",
            "1/2-1/2 {Draw: repetition, plies 1-8}",
        ),
        // a horse chasing a protected rook loses
        (
            "1r2k4/9/1r7/N8/9/9/9/9/9/5K3 w - - 0 1",
            "a6c5 b7b8 c5a6 b8b7 a6c5 b7b8 c5a6 b8b7",
            "0-1 {Red loses: perpetual chase, plies 1-8}",
        ),
        // a pawn's "chase" does not count
        (
            "4k4/9/1r7/2P6/9/9/9/9/9/5K3 w - - 0 1",
            "c6b6 b7c7 b6c6 c7b7 c6b6 b7c7 b6c6 c7b7",
            "1/2-1/2 {Draw: repetition, plies 1-8}",
        ),
        // nor does the king's, hunting a crossed pawn
        (
            "5k3/9/9/9/9/9/9/9/3K5/4p4 w - - 0 1",
            "d1e1 e0d0 e1d1 d0e0 d1e1 e0d0 e1d1 d0e0",
            "1/2-1/2 {Draw: repetition, plies 1-8}",
        ),
        // same-type mutual attack
        (
            "4k4/2r6/9/9/9/9/3R5/9/9/5K3 w - - 0 1",
            "d3c3 c8d8 c3d3 d8c8 d3c3 c8d8 c3d3 d8c8",
            "1/2-1/2 {Draw: repetition, plies 1-8}",
        ),
        // one check, one chase
        (
            "1n2k4/5N3/9/9/9/9/9/2R6/9/5K3 w - - 0 1",
            "f8d7 e9d9 c2b2 b9c7 d7f8 d9e9 b2c2 c7b9 f8d7 e9d9 c2b2 b9c7 d7f8 d9e9 b2c2 c7b9",
            "0-1 {Red loses: perpetual chase, plies 1-16}",
        ),
        // check against chase: the checker loses
        (
            "4k1b1c/R5n1c/9/9/9/9/9/9/9/3K5 w - - 0 1",
            "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9",
            "0-1 {Red loses: perpetual check, plies 1-8}",
        ),
        // 60-move rule at exactly 120 plies, and mate on the 120th ply
        ("4k4/R8/9/9/9/9/9/9/1R7/5K3 w - - 118 80", "b1b2", "* {game goes on}"),
        ("4k4/R8/9/9/9/9/9/9/1R7/5K3 w - - 119 80", "b1b2", "1/2-1/2 {Draw: 60-move rule (120 plies without capture)}"),
        ("4k4/R8/9/9/9/9/9/9/1R7/5K3 w - - 119 80", "b1b9", "1-0 {Black loses: checkmate}"),
        // insufficient material, stalemate
        ("3k5/9/9/9/9/9/9/9/4p4/4K4 w - - 0 1", "e0e1", "1/2-1/2 {Draw: insufficient material}"),
        ("3k5/9/R8/9/9/9/9/9/9/4K4 w - - 0 1", "a7a8", "1-0 {Black loses: stalemate (no legal move)}"),
    ];
    for (fen, moves, expected) in cases {
        assert_eq!(fen_moves(fen, moves), expected, "{fen} moves {moves}");
    }
}

#[test]
fn start_position_quiet_repetition_and_illegal_moves() {
    assert_eq!(line(&["--moves", "h2e2 h9g7"]), "* {game goes on}");
    assert_eq!(line(&[]), "* {game goes on}");
    assert_eq!(line(&["--moves", "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9"]), "1/2-1/2 {Draw: repetition, plies 1-8}");
    assert_eq!(line(&["--moves", "h2e2 h9g7 e2e9"]), "0-1 {Red loses: illegal move e2e9 at ply 3}");
    // Moving from an empty point is well-formed, so it is a result, not an error.
    assert_eq!(line(&["--moves", "e5e6"]), "0-1 {Red loses: illegal move e5e6 at ply 1}");
}

#[test]
fn file_of_games_one_line_each() {
    let path = std::env::temp_dir().join(format!("chuhe-judge-{}.txt", std::process::id()));
    let mut f = std::fs::File::create(&path).unwrap();
    writeln!(f, "# comment, then a blank line\n").unwrap();
    writeln!(f, "startpos moves h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9").unwrap();
    writeln!(f, "fen 4k4/9/9/9/9/9/9/9/R8/5K3 w - - 0 1 moves a1a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9").unwrap();
    writeln!(f, "position startpos moves h2e2").unwrap();
    writeln!(f, "fen 3k5/9/R8/9/9/9/9/9/9/4K4 w - - 0 1 moves a7a8").unwrap();
    drop(f);
    let p = path.to_str().unwrap();
    let text = line(&["--file", p]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            "1/2-1/2 {Draw: repetition, plies 1-8}",
            "0-1 {Red loses: perpetual check, plies 2-9}",
            "* {game goes on}",
            "1-0 {Black loses: stalemate (no legal move)}",
        ]
    );
    let json = line(&["--file", p, "--json"]);
    assert_eq!(json.lines().count(), 4);
    assert!(json.lines().all(|l| l.starts_with('{') && l.ends_with('}')));
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn json_names_rule_side_cycle_and_each_move_class() {
    let out = line(&[
        "--json",
        "--fen",
        "1n2k4/5N3/9/9/9/9/9/2R6/9/5K3 w - - 0 1",
        "--moves",
        "f8d7 e9d9 c2b2 b9c7 d7f8 d9e9 b2c2 c7b9 f8d7 e9d9 c2b2 b9c7 d7f8 d9e9 b2c2 c7b9",
    ]);
    assert!(out.starts_with(
        r#"{"result":"0-1","reason":"Red loses: perpetual chase, plies 1-16","rule":"perpetual_chase","side":"red","plies":16,"cycle":{"first":1,"last":16,"moves":["#
    ));
    assert!(out.contains(r#"{"ply":1,"move":"f8d7","side":"red","class":"check","chased":[]}"#));
    assert!(out.contains(r#"{"ply":2,"move":"e9d9","side":"black","class":"idle","chased":[]}"#));
    assert!(out.contains(
        r#"{"ply":3,"move":"c2b2","side":"red","class":"chase","chased":[{"piece":"horse","square":"b9"}]}"#
    ));
    assert_eq!(out.matches(r#""ply":"#).count(), 16);
    let ongoing = line(&["--json", "--moves", "h2e2"]);
    assert_eq!(ongoing, r#"{"result":"*","reason":"game goes on","rule":null,"side":null,"plies":1,"cycle":null}"#);
    let illegal = line(&["--json", "--moves", "h2e2 h9g7 e2e9"]);
    assert!(illegal.contains(r#""rule":"illegal_move","side":"red","plies":2,"illegal_move":{"move":"e2e9","ply":3}"#));
}

#[test]
fn malformed_input_exits_2_with_a_message() {
    for args in [
        &["--fen", "not a fen"][..],
        &["--moves", "h2e2 h9"],
        &["--moves", "h2e2 z9z8"],
        &["--file", "/nonexistent/chuhe-games.txt"],
        &["--fen", "4k4/9/9/9/9/9/9/9/R8/5K3 w - - 0 1", "--file", "x"],
        &["--bogus"],
    ] {
        let out = judge(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("chuhe judge: ") && err.lines().count() == 1, "{args:?}: {err}");
    }
    let path = std::env::temp_dir().join(format!("chuhe-judge-bad-{}.txt", std::process::id()));
    std::fs::write(&path, "startpos moves h2e2\nfen 9/9 w moves h2e2\n").unwrap();
    let out = judge(&["--file", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 2"));
    std::fs::remove_file(&path).unwrap();
}
