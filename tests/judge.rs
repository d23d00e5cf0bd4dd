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

/// Writes `text` to a fresh file under the target's temp folder.
fn temp_file(name: &str, text: &str) -> String {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("judge");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn hyphenated_moves_in_either_case_are_iccs_too() {
    let want = "1/2-1/2 {Draw: repetition, plies 1-8}";
    assert_eq!(line(&["--moves", "H0-G2 H9-G7 G2-H0 G7-H9 h0-g2 h9-g7 g2h0 G7H9"]), want);
    // Pasted PGN move text: numbers, comments and annotations are skipped.
    assert_eq!(line(&["--moves", "1. H0-G2 H9-G7 2. G2-H0 {back} G7-H9 3.H0-G2 H9-G7!? 4. G2-H0 G7-H9"]), want);
    let f = temp_file("hyphens.txt", "startpos moves H0-G2 H9-G7 G2-H0 G7-H9 H0-G2 H9-G7 G2-H0 G7-H9\n");
    assert_eq!(line(&["--file", &f]), want);
}

#[test]
fn pgn_files_name_each_game_and_what_the_pgn_says_when_the_rules_disagree() {
    // The runner's own form (Black to move first), another tool's ([White], SetUp, lowercase
    // moves glued to their numbers, ; and {} comments, a variation, a NAG, no blank lines),
    // and a game the PGN scores as a time forfeit.
    let pgn = temp_file(
        "several.pgn",
        "[Game \"Chinese Chess\"]\n[Event \"Chuhe match\"]\n[Round \"1\"]\n[Red \"A\"]\n[Black \"B\"]\n\
         [Result \"1-0\"]\n[FEN \"5k3/r8/9/9/9/9/9/9/9/4K4 b - - 0 1\"]\n[Format \"ICCS\"]\n\n\
         1. ... A8-A0 2. E0-E1 A0-A1 3. E1-E0 A1-A0 4. E0-E1 A0-A1 5. E1-E0 A1-A0\n\
         {Black loses: perpetual check, plies 2-9} 1-0\n\n\
         [White \"C\"]\n[Black \"D\"]\n[SetUp \"1\"]\n[FEN \"4k4/R8/9/9/9/9/9/9/1R7/5K3 w - - 0 1\"]\n\
         [Result \"1-0\"]\n1.b1-b9# ; mate\n1-0\n\
         [White \"C\"]\n[Black \"D\"]\n[Result \"*\"]\n1.h2-e2 {the central cannon} (1.c3-c4 g6-g5) h9-g7 $1 2.h0-g2 *\n\
         [Red \"B\"]\n[Black \"A\"]\n[Result \"0-1\"]\n[Termination \"time forfeit\"]\n\n\
         1. H2-E2 H9-G7 2. H0-G2 I9-H9 {B loses on time} 0-1\n",
    );
    assert_eq!(
        line(&["--file", &pgn]).lines().collect::<Vec<_>>(),
        [
            "game 1 (A vs B): 1-0 {Black loses: perpetual check, plies 2-9}",
            "game 2 (C vs D): 1-0 {Black loses: checkmate}",
            "game 3 (C vs D): * {game goes on}",
            "game 4 (B vs A): * {game goes on}; the PGN says 0-1 (time forfeit)",
        ]
    );
    let json = line(&["--file", &pgn, "--json"]);
    let objects: Vec<&str> = json.lines().collect();
    assert_eq!(objects.len(), 4);
    assert!(objects[3].starts_with(r#"{"game":4,"red":"B","black":"A","pgn_result":"0-1","result":"*","#));
    assert!(objects[0].contains(r#""rule":"perpetual_check","side":"black","plies":9"#), "{}", objects[0]);
}

#[test]
fn pgn_from_stdin_and_the_shipped_samples() {
    let samples = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/");
    assert_eq!(
        line(&["--file", &format!("{samples}games.pgn")]).lines().collect::<Vec<_>>(),
        [
            "game 1 (Chuhe-A vs Chuhe-B): 1/2-1/2 {Draw: repetition, plies 1-8}",
            "game 2 (Chuhe-B vs Chuhe-A): 0-1 {Red loses: perpetual check, plies 2-9}",
            "game 3 (Chuhe-A vs Chuhe-B): 1-0 {Black loses: checkmate}",
            "game 4 (Chuhe-B vs Chuhe-A): * {game goes on}; the PGN says 0-1 (time forfeit)",
            "game 5 (Chuhe-B vs Chuhe-A): 1-0 {Black loses: stalemate (no legal move)}",
        ]
    );
    assert_eq!(
        line(&["--file", &format!("{samples}games.txt")]).lines().collect::<Vec<_>>(),
        [
            "1/2-1/2 {Draw: repetition, plies 1-8}",
            "0-1 {Red loses: perpetual check, plies 2-9}",
            "0-1 {Red loses: perpetual chase, plies 1-8}",
            "1-0 {Black loses: checkmate}",
            "1-0 {Black loses: stalemate (no legal move)}",
            "* {game goes on}",
        ]
    );
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_chuhe"))
        .args(["judge", "--file", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"[Red \"X\"]\n[Black \"Y\"]\n1. B0-C2 B9-C7 2. C2-B0 C7-B9 *\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "game 1 (X vs Y): * {game goes on}\n");
}

#[test]
fn bad_pgn_is_one_line_naming_the_game_and_its_line() {
    for (text, says) in [
        (
            "[Red \"A\"]\n1. H2-E2 *\n\n[Red \"B\"]\n\n1. H2-E2 H9-X7 *\n",
            "game 2 (line 4): move 2: malformed move 'H9-X7'",
        ),
        ("[Red \"A\"]\n[FEN \"rnbakabnr/9 w\"]\n*\n", "game 1 (line 1): [FEN]: "),
        ("[SetUp \"1\"]\n1. H2-E2 *\n", "[SetUp \"1\"] without a [FEN] tag"),
        ("[Format \"WXF\"]\n1. h2e2 *\n", "move 1: malformed move 'h2e2': expected WXF like C2=5"),
        ("[Format \"Chinese\"]\n1. 炮二平五 车１进４ *\n", "move 2: '车１进４' is not a legal move for Black here"),
        ("[Red \"A\"]\n", ""),
    ] {
        let f = temp_file("bad.pgn", text);
        let out = judge(&["--file", &f]);
        let err = String::from_utf8_lossy(&out.stderr);
        if says.is_empty() {
            // Tags without moves: a game at the start position.
            assert_eq!(String::from_utf8_lossy(&out.stdout), "game 1 (A vs ?): * {game goes on}\n");
            continue;
        }
        assert_eq!(out.status.code(), Some(2), "{text}: {err}");
        assert!(out.stdout.is_empty());
        assert!(err.starts_with("chuhe judge: ") && err.contains(says) && err.lines().count() == 1, "{text}: {err}");
    }
}
