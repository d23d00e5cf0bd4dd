//! The public perft suite: every position to depth 4 by default, deeper with
//! `CHUHE_PERFT_DEPTH=N`. Perft counts are the ground truth for move generation.

use chuhe::board::Position;
use chuhe::perft::perft;

fn suite() -> Vec<(String, Vec<u64>)> {
    let text = include_str!("../perft/suite.epd");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts.map(|p| p.trim()[2..].trim().parse::<u64>().unwrap()).collect();
            (fen, counts)
        })
        .collect()
}

#[test]
fn suite_counts_match() {
    let max_depth: usize = std::env::var("CHUHE_PERFT_DEPTH").ok().and_then(|v| v.parse().ok()).unwrap_or(4);
    let suite = suite();
    assert_eq!(suite.len(), 11);
    for (fen, counts) in suite {
        let mut pos = Position::from_fen(&fen).unwrap();
        for (i, &expected) in counts.iter().enumerate().take(max_depth) {
            let depth = i as u32 + 1;
            assert_eq!(perft(&mut pos, depth), expected, "{fen} depth {depth}");
        }
        assert_eq!(pos.to_fen().split(' ').next(), fen.split(' ').next(), "perft left the position changed");
    }
}
