//! The public perft suite: every position to depth 4 by default, deeper with
//! `CHUHE_PERFT_DEPTH=N`. Perft counts are the ground truth for move generation.

use chuhe::perft::{parse_epd, perft};

#[test]
fn suite_counts_match() {
    let max_depth: u32 = std::env::var("CHUHE_PERFT_DEPTH").ok().and_then(|v| v.parse().ok()).unwrap_or(4);
    let suite = parse_epd(include_str!("../perft/suite.epd")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(suite.len(), 11);
    for e in suite {
        let mut pos = e.pos.clone();
        for &(depth, expected) in e.counts.iter().filter(|c| c.0 <= max_depth) {
            assert_eq!(perft(&mut pos, depth), expected, "{} depth {depth}", e.fen);
        }
        assert!(pos == e.pos, "perft left the position changed");
    }
}
