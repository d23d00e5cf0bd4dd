//! The perft suites: the public one and the composed positions (pieces on points no game
//! reaches, counts confirmed against Fairy-Stockfish: see perft/README.md), every position to
//! depth 4 by default, deeper with `CHUHE_PERFT_DEPTH=N`. Perft counts are the ground truth for
//! move generation.

use chuhe::perft::{parse_epd, perft, perft_reference};

/// Checks every count of `text` (an EPD suite of `positions` positions) up to the depth limit.
fn check_suite(text: &str, positions: usize) {
    let max_depth: u32 = std::env::var("CHUHE_PERFT_DEPTH").ok().and_then(|v| v.parse().ok()).unwrap_or(4);
    let suite = parse_epd(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(suite.len(), positions);
    for e in suite {
        let mut pos = e.pos.clone();
        for &(depth, expected) in e.counts.iter().filter(|c| c.0 <= max_depth) {
            assert_eq!(perft(&mut pos, depth), expected, "{} depth {depth}", e.fen);
            if depth <= 3 {
                assert_eq!(perft_reference(&mut pos, depth), expected, "reference: {} depth {depth}", e.fen);
            }
        }
        assert!(pos == e.pos, "perft left the position changed");
    }
}

#[test]
fn suite_counts_match() {
    check_suite(include_str!("../perft/suite.epd"), 11);
}

#[test]
fn composed_counts_match() {
    check_suite(include_str!("../perft/composed.epd"), 8);
}
