//! `chuhe diagram` and `chuhe analyze` from the built binary: the pictures parse as SVG (usvg,
//! the parser behind resvg), PNGs decode to their size, the analysis marks a given-away
//! chariot, its PGN reads back with the same moves, and bad input gets one line and status 2.

use chuhe::matches::pgn::read_games;
use resvg::usvg::{roxmltree, Options, Tree};
use std::path::PathBuf;
use std::process::{Command, Output};

fn chuhe(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chuhe")).args(args).output().expect("run chuhe")
}

fn ok(args: &[&str]) -> String {
    let out = chuhe(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chuhe-players-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn path(dir: &std::path::Path, file: &str) -> String {
    dir.join(file).to_string_lossy().into_owned()
}

/// Parses `svg` with usvg (a real SVG parser and renderer's front end) and roxmltree; returns
/// the XML document's element names.
fn parse_svg(svg: &str) -> Vec<String> {
    let tree = Tree::from_str(svg, &Options::default()).unwrap_or_else(|e| panic!("not SVG: {e}\n{svg}"));
    assert!(tree.size().width() > 100.0 && tree.size().height() > 100.0);
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants().filter(|n| n.is_element()).map(|n| n.tag_name().name().to_string()).collect()
}

/// A PNG's width and height from its IHDR chunk.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    (be(&bytes[16..20]), be(&bytes[20..24]))
}

/// The move text's main line: moves and their comments, without the opening summary, move
/// numbers, variations and the result.
fn main_line_words(pgn: &str) -> Vec<String> {
    let movetext = pgn.split("\n\n").nth(1).unwrap();
    let body = &movetext[movetext.find('}').unwrap() + 1..];
    let mut depth = 0;
    let mut flat = String::new();
    for c in body.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ if depth == 0 => flat.push(c),
            _ => {}
        }
    }
    flat.split_whitespace()
        .filter(|w| !w.ends_with('.') && !["1-0", "0-1", "1/2-1/2", "*"].contains(w))
        .map(String::from)
        .collect()
}

#[test]
fn a_diagram_is_valid_svg_with_every_piece_and_the_marks() {
    let dir = scratch("diagram");
    let out = path(&dir, "board.svg");
    let said = ok(&["diagram", "--moves", "h2e2", "h9g7", "--arrow", "h0g2", "--arrow", "b0c2", "--out", &out]);
    assert!(said.starts_with(&format!("wrote {out}: rnbakab1r/")), "{said}");
    let svg = std::fs::read_to_string(&out).unwrap();
    let names = parse_svg(&svg);
    // Two circles a piece, two for the last move; a polygon an arrow.
    assert_eq!(names.iter().filter(|n| *n == "circle").count(), 32 * 2 + 2);
    assert_eq!(names.iter().filter(|n| *n == "polygon").count(), 2);
    for text in ["帥", "將", "楚 河", "漢 界", "九", "１"] {
        assert!(svg.contains(&format!(">{text}</text>")), "{text}");
    }
    // Flipped, in letters: the other labels, the same pieces.
    let out2 = path(&dir, "flipped.svg");
    ok(&["diagram", "--fen", "4k4/9/9/9/9/9/9/9/R8/5K3 w - - 0 1", "--letters", "--flip", "--out", &out2]);
    let svg2 = std::fs::read_to_string(&out2).unwrap();
    assert_eq!(parse_svg(&svg2).iter().filter(|n| *n == "circle").count(), 3 * 2);
    assert!(svg2.contains(">R</text>") && svg2.contains(">CHU RIVER</text>") && !svg2.contains('帥'));
}

#[test]
fn a_png_diagram_is_rendered_at_the_svg_s_size() {
    let dir = scratch("png");
    let out = path(&dir, "board.png");
    ok(&["diagram", "--out", &out]);
    let bytes = std::fs::read(&out).unwrap();
    let svg_out = path(&dir, "board.svg");
    ok(&["diagram", "--out", &svg_out]);
    let tree = Tree::from_str(&std::fs::read_to_string(&svg_out).unwrap(), &Options::default()).unwrap();
    assert_eq!(png_size(&bytes), (tree.size().width() as u32, tree.size().height() as u32));
}

#[test]
fn analysis_marks_the_given_away_chariot_and_its_pgn_reads_back() {
    let dir = scratch("analyze");
    let (pgn, graph, diagrams) = (path(&dir, "out.pgn"), path(&dir, "eval.svg"), path(&dir, "mistakes"));
    let table = ok(&[
        "analyze",
        "samples/blunder.pgn",
        "--depth",
        "3",
        "--out",
        &pgn,
        "--graph",
        &graph,
        "--diagrams",
        &diagrams,
    ]);
    // 7. F1-F8 leaves the chariot to Black's on a8.
    let blunder = table.lines().find(|l| l.starts_with("7.") && l.contains("F1-F8")).expect("move 7 in the table");
    assert!(blunder.contains("??") || blunder.contains(" ? "), "{table}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("[Annotator \"Chuhe ") && text.contains("depth 3\"]"), "{text}");
    assert!(text.contains("F1-F8?"), "{text}");
    let original = read_games(&std::fs::read_to_string("samples/blunder.pgn").unwrap());
    let back = read_games(&text);
    assert_eq!(back.len(), 1);
    assert_eq!(back[0].moves, original[0].moves);
    assert_eq!(back[0].result, original[0].result);
    // Every move of the main line is followed by its evaluation: {+0.35/3}.
    let words = main_line_words(&text);
    assert_eq!(words.len(), 2 * original[0].moves.len(), "{words:?}");
    for (pair, played) in words.chunks(2).zip(&original[0].moves) {
        assert_eq!(pair[0].trim_end_matches(['?', '!']), played);
        let c = &pair[1];
        assert!(c.starts_with('{') && c.ends_with("/3}") && (c.contains('.') || c.contains('M')), "{played}: {c}");
    }
    let names = parse_svg(&std::fs::read_to_string(&graph).unwrap());
    assert_eq!(names.iter().filter(|n| *n == "polyline").count(), 1);
    let drawn: Vec<_> = std::fs::read_dir(&diagrams).unwrap().map(|e| e.unwrap().path()).collect();
    assert!(drawn.iter().any(|p| p.ends_with("move-007-red.svg")), "{drawn:?}");
    for p in &drawn {
        parse_svg(&std::fs::read_to_string(p).unwrap());
    }
}

#[test]
fn fixed_node_analysis_is_the_same_every_run() {
    let dir = scratch("nodes");
    let (a, b) = (path(&dir, "a.pgn"), path(&dir, "b.pgn"));
    let first = ok(&["analyze", "samples/games.pgn", "--game", "2", "--nodes", "3000", "--out", &a]);
    let second = ok(&["analyze", "samples/games.pgn", "--game", "2", "--nodes", "3000", "--out", &b]);
    assert_eq!(first.replace(&a, ""), second.replace(&b, ""));
    assert_eq!(std::fs::read_to_string(&a).unwrap(), std::fs::read_to_string(&b).unwrap());
    // Game 2 starts from a FEN: the annotated game keeps it.
    assert!(std::fs::read_to_string(&a).unwrap().contains("[FEN \"4k4/9/9/9/9/9/9/9/R8/5K3 w - - 0 1\"]"));
}

#[test]
fn wxf_and_chinese_games_are_analysed_in_their_own_notation_with_their_iccs_twins_moves() {
    let dir = scratch("notations");
    let moves_of = |file: &str| {
        let games = read_games(&chuhe::matches::text::decode(&std::fs::read(file).unwrap()));
        games[0].start_and_moves().unwrap().1
    };
    let twin = moves_of("samples/notation-iccs.pgn");
    for (sample, format, first) in
        [("samples/notation-wxf.pgn", "WXF", "C2=5"), ("samples/notation-chinese-gbk.pgn", "Chinese", "炮二平五")]
    {
        let out = path(&dir, &format!("{format}.pgn"));
        let table = ok(&["analyze", sample, "--nodes", "300", "--out", &out]);
        assert!(table.lines().next().unwrap().contains(first), "{sample}: {table}");
        let annotated = std::fs::read_to_string(&out).unwrap();
        assert!(annotated.contains(&format!("[Format \"{format}\"]")), "{annotated}");
        assert!(annotated.contains(&format!("1. {first} {{")), "{annotated}");
        assert_eq!(moves_of(&out), twin, "{sample}");
    }
}

#[test]
fn a_png_graph_is_drawn() {
    let dir = scratch("graph");
    let out = path(&dir, "eval.png");
    ok(&["analyze", "samples/games.pgn", "--depth", "2", "--graph", &out]);
    let (w, h) = png_size(&std::fs::read(&out).unwrap());
    assert!(w > 500 && h > 200, "{w}x{h}");
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    let dir = scratch("bad");
    let illegal = path(&dir, "illegal.pgn");
    std::fs::write(&illegal, "[Red \"A\"]\n1. H2-E2 H9-G7 2. H2-H9 *\n").unwrap();
    let svg = path(&dir, "x.svg");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["analyze", "no/such/file.pgn", "--depth", "1"], "cannot read 'no/such/file.pgn'"),
        (
            vec!["analyze", "samples/games.pgn", "--game", "6", "--depth", "1"],
            "--game 6: samples/games.pgn has 5 games",
        ),
        (vec!["analyze", "samples/games.pgn", "--game", "0"], "--game '0' must be a whole number from 1"),
        (vec!["analyze", "samples/games.pgn", "--depth", "2", "--nodes", "5"], "exclude each other"),
        (vec!["analyze", "samples/games.pgn", "--graph", "g.jpg"], "must end in .svg or .png"),
        (vec!["analyze", &illegal, "--depth", "1"], "move 3 'H2-H9' is illegal"),
        (vec!["analyze", "--depth", "1"], "GAME.pgn is required; usage: chuhe analyze [--pgn] GAME.pgn"),
        (vec!["diagram", "--fen", "9/9 w", "--out", &svg], "rank"),
        (vec!["diagram", "--arrow", "h2x2", "--out", &svg], "--arrow: malformed move 'h2x2'"),
        (vec!["diagram", "--moves", "h2e2", "h2e2", "--out", &svg], "'h2e2' is not a legal move for Black"),
        (vec!["diagram", "--out", "board.gif"], "must end in .svg or .png"),
        (vec!["diagram"], "--out FILE.svg|FILE.png is required"),
        (vec!["diagram", "--chinese", "--letters", "--out", &svg], "exclude each other"),
        (vec!["diagram", "--out", "/no/such/dir/x.svg"], "cannot write '/no/such/dir/x.svg'"),
    ];
    for (args, want) in cases {
        let out = chuhe(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(want) && !err.contains("panicked"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
