//! Composed positions (排局) through the real binary: UCI, UCCI and CECP accept them, count,
//! search and play in them; only unplayable positions (a king outside its palace...) are
//! refused. The counts are `perft/composed.epd`'s, confirmed against Fairy-Stockfish.

mod common;

use chuhe::board::{Move, Position};
use common::*;
use std::process::Command;

/// Red in check from the e7 rook; its elephant on c3 and advisor on d1 (points no game
/// reaches) block. perft: 6, 215, 4693.
const RED_IN_CHECK: &str = "3k1apR1/9/1na1r4/7c1/b6P1/1P6b/2B5p/p5N2/C2A1P3/4K2B1 w - - 0 1";
/// Black in check from the e2 cannon over its elephant on e6. perft: 6, 228, 6585.
const BLACK_IN_CHECK: &str = "2cak1b2/2a3P2/2P5n/3pb2N1/2r6/P8/B4p3/3BC2p1/2AK5/1R3A3 b - - 0 1";
/// Pawns behind their start ranks (Red a0, d1; Black g9). perft: 21, 565, 11747.
const PAWNS_BEHIND: &str = "r1b1kap2/2p1p4/3a2bc1/6n2/p8/9/7P1/1PN5P/3PA4/PCB1K1BR1 w - - 0 1";
/// The Black king on e6, outside its palace: the one point a king may not stand on.
const KING_OUTSIDE: &str = "9/9/9/4k4/9/9/9/9/9/3K5 w - - 0 1";

/// The total of a `go perft` answer as `nodes N`: UCCI's last line `nodes N ...`, or UCI's
/// (Pikafish's) `Nodes searched: N`.
fn perft_nodes(e: &mut Engine, depth: u32) -> String {
    let lines = e.ask(&format!("go perft {depth}"));
    if let Some(total) = lines.iter().find_map(|l| l.strip_prefix("Nodes searched: ")) {
        return format!("nodes {total}");
    }
    let last = lines.last().cloned().unwrap_or_default();
    last.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

#[test]
fn uci_accepts_counts_and_searches_composed_positions() {
    let mut e = Engine::handshake("uci").0;
    for (fen, nodes) in [(RED_IN_CHECK, "nodes 4693"), (BLACK_IN_CHECK, "nodes 6585"), (PAWNS_BEHIND, "nodes 11747")] {
        let lines = e.ask(&format!("position fen {fen}"));
        assert!(errors(&lines).is_empty(), "{fen}: {lines:?}");
        assert_eq!(e.fen(), fen);
        assert_eq!(perft_nodes(&mut e, 3), nodes, "{fen}");
        let best = best_of(&e.go("go depth 3"));
        assert!(Position::from_fen(fen).unwrap().is_legal(best), "{fen}: {best}");
    }
    // The elephant's block, then play on from it.
    let lines = e.ask(&format!("position fen {RED_IN_CHECK} moves c3e1 e7e6"));
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert_eq!(e.fen(), "3k1apR1/9/1na6/4r2c1/b6P1/1P6b/8p/p5N2/C2ABP3/4K2B1 w - - 2 2");
    // An unplayable position is refused and the position stays.
    let err = e.refused(&format!("position fen {KING_OUTSIDE}"));
    assert!(err.contains("Black king on e6, outside its palace"), "{err}");
    assert_eq!(e.fen(), "3k1apR1/9/1na6/4r2c1/b6P1/1P6b/8p/p5N2/C2ABP3/4K2B1 w - - 2 2");
}

#[test]
fn ucci_accepts_composed_positions() {
    let mut e = Engine::handshake("ucci").0;
    let lines = e.ask(&format!("position fen {BLACK_IN_CHECK}"));
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let lines = e.ask("go perft 1");
    let mut moves: Vec<&str> = lines.iter().filter_map(|l| l.split(':').next()).filter(|m| m.len() == 4).collect();
    moves.sort();
    assert_eq!(moves, ["c5e5", "d9e8", "e6g8", "e9f9", "f3e3", "g9e7"], "{lines:?}");
    assert_eq!(perft_nodes(&mut e, 2), "nodes 228");
    let best = best_of(&e.go("go depth 3"));
    assert!(Position::from_fen(BLACK_IN_CHECK).unwrap().is_legal(best), "{best}");
    let err = e.refused(&format!("position fen {KING_OUTSIDE}"));
    assert!(err.contains("outside its palace"), "{err}");
}

#[test]
fn xboard_setboard_takes_composed_positions() {
    let mut e = Engine::xboard_handshake().0;
    e.cecp_ask("new");
    e.cecp_ask("force");
    assert_eq!(e.cecp_ask(&format!("setboard {RED_IN_CHECK}")), Vec::<String>::new());
    let l = e.cecp_ask(&format!("setboard {KING_OUTSIDE}"));
    assert_eq!(l, ["tellusererror Illegal position: Black king on e6, outside its palace"]);
    e.send("sd 3");
    e.send("go");
    let lines = e.until(|l| l.starts_with("move ") || l.starts_with("Error") || l.contains(" {"));
    let last = lines.last().unwrap();
    let m = Move::parse(last.strip_prefix("move ").unwrap_or_else(|| panic!("{last}"))).unwrap();
    assert!(Position::from_fen(RED_IN_CHECK).unwrap().is_legal(m), "{m}");
}

#[test]
fn cli_perft_and_judge_take_composed_positions() {
    let chuhe = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_chuhe")).args(args).output().expect("run chuhe");
    let suite = format!("{}/perft/composed.epd", env!("CARGO_MANIFEST_DIR"));
    let o = chuhe(&["perft", "--epd", &suite, "--depth-limit", "3"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let o = chuhe(&["perft", "--fen", PAWNS_BEHIND, "--depth", "2"]);
    assert!(String::from_utf8_lossy(&o.stdout).lines().last().unwrap().starts_with("nodes 565 "));
    let o = chuhe(&["perft", "--fen", KING_OUTSIDE, "--depth", "2"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.trim_end().lines().count() == 1 && err.contains("outside its palace"), "{err}");
    // A Red pawn on Black's back rank moves sideways only; a game from a composed start.
    let o = chuhe(&["judge", "--fen", "3k4P/9/9/9/9/9/9/9/9/4K4 w", "--moves", "i9h9 d9d8 h9g9"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "* {game goes on}");
    let o = chuhe(&["judge", "--fen", "3k4P/9/9/9/9/9/9/9/9/4K4 w", "--moves", "i9i8"]);
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "0-1 {Red loses: illegal move i9i8 at ply 1}");
}
