//! The bench: a fixed-depth search of built-in positions (openings, middlegames, endgames,
//! positions in check), the table cleared per position. Its total node count is a signature
//! of the search. `chuhe bench` (`cli/bench_cmd.rs`) and the protocols' `bench` command both
//! run it; it reads only the board, the evaluation and the search.

use crate::board::Position;
use crate::search::{Engine, Limits};
use std::time::Instant;

/// Depth searched when `--depth` is not given.
pub const DEFAULT_DEPTH: u32 = 10;

/// The bench positions: openings, middlegames, endgames and positions in check.
pub const POSITIONS: &[&str] = &[
    // opening
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "1rbakab1r/9/2n3nc1/p1p1pR2p/6p2/9/P1P1P1P1P/1cC1B1NC1/9/3AKAB1R w - - 0 7",
    "2b1kab1r/1r2a4/1cn3n2/p1p1p1p1p/9/4C4/P1P1P1PcP/2N3NC1/1R7/R1BAKAB2 w - - 0 7",
    "1rbakab1r/4n4/2n3c2/p1p1p1p1p/9/4C4/P1P1P1P1P/4C1N2/3R5/1cBAKAB1R w - - 0 7",
    "2bakabn1/5r2r/c1n1c4/p1p1p1p1p/9/9/P1P1P1P1P/C1N1B2C1/5R3/2BAKA1NR w - - 0 7",
    "r1bakabr1/4n4/1cn1c4/p3p1p1p/2R6/9/P1P1P1P1P/1CN4C1/9/R1BAKABN1 w - - 0 7",
    // middlegame
    "2bakab2/4n4/6nc1/pRp1p3p/7r1/9/2P1P1P1P/3CB1NCB/4K4/rc1A1A2R w - - 0 16",
    "2bak1b2/4a4/1rn1c1n2/pCR1p3p/9/6p2/P1P1P3P/6N2/4N4/2BAKAB2 w - - 0 16",
    "2baknb2/4a4/4c4/p5R1p/4P4/2P5P/P8/1rN1Bp3/4N4/2BAKA3 w - - 0 26",
    "4ka2r/4a4/2C1b3b/p1p3p2/4p3p/9/P1P1P1P1P/6NcC/9/1NBAKAB2 w - - 0 16",
    "3akab2/4n4/4b3r/p2rp1p1p/1n7/P8/2C1P3P/2C3N2/4A4/2BAK1BR1 w - - 0 16",
    "1Cbnkabn1/4a2r1/9/p1p1p1p1p/1R3N3/6P2/P1P4CP/4B4/r3A4/2BAK2R1 w - - 0 16",
    "2bakab2/1rC1n4/3r5/p1p1p1pRp/9/4P4/P1P3P1P/R8/4N4/2BAKAB2 w - - 0 16",
    "1r2kab2/4aR3/c1n1b1n2/p3p1p1p/9/9/P1P1N1r1P/2C3N2/1R7/2BAKAB2 w - - 0 16",
    "2bakab2/7r1/2n1c1n2/p3p1p1p/2p4C1/5NP2/2P1P3P/CcN1B4/3R5/2BAKA3 w - - 0 16",
    "C3ka3/4a4/2n1b1C1b/4p3p/1n7/1NP6/4P2rP/1c2B4/3R5/2BAKA3 w - - 0 26",
    // endgame
    "2baka3/9/4b4/P5R2/2r6/9/4P4/2N6/4A4/2B1KAB2 w - - 0 41",
    "3akab2/9/4b4/5R3/r8/4P4/4N4/B7B/4A4/4KA3 w - - 0 76",
    "2bak4/4a4/4b4/2P5P/3RN4/9/r8/2n6/9/3AKA3 w - - 0 41",
    "2baka3/9/2P1b2P1/3N5/9/9/9/5An2/9/3AK4 w - - 0 56",
    "3k5/4a4/4ba1R1/p8/2p3p2/P4r3/9/4B4/4A4/3AK1B2 w - - 0 41",
    "4C4/2Nk5/8b/P7p/4p4/2P6/8P/4B4/4A4/2BAK4 w - - 0 41",
    "4k4/6R2/9/p3p3p/9/9/3r5/4B4/4K4/9 w - - 0 56",
    "2Rak4/4a4/9/1r7/9/9/9/9/4A4/3K1A3 w - - 0 56",
    "4k3C/4a4/4b4/8P/9/2n1C1B2/p5n2/9/4A4/4K1B2 w - - 0 56",
    "3k5/9/9/9/2C6/4C4/P7P/6R1B/4A4/3A1K3 w - - 0 56",
    // in check
    "2b1kab1C/4a4/2n1C2r1/p1p1p1p2/9/9/P1P1P1P1P/6N2/5R3/2BAKAB2 b - - 0 14",
    "2bakab2/4n3r/6nc1/p1p1p3p/1R7/9/2P1P1P1P/3CB1NC1/9/rc1AKAB1R w - - 0 13",
    "2bakab1r/r8/1cn3n2/p1p1p1p1p/9/4C4/P1P1P1PcP/2N3NC1/8R/R1BAKAB2 b - - 0 5",
    "2baka1r1/9/n5n1b/pRp1p1C1p/5N3/9/P1Pr2P1P/4C4/5R3/2BAKABc1 b - - 0 11",
    "4kab2/4a4/2C1b4/p1N6/8C/8P/P1P6/6r2/9/1NBAKA1c1 w - - 0 25",
    "3kRabC1/2N6/9/4p1p1p/9/6P2/P1P2r2P/4B4/4A4/2BAK4 b - - 0 32",
    "2b1k4/5R3/4b4/9/9/9/9/4B4/4A4/2BAK2r1 w - - 0 94",
    "5k2N/4R4/9/9/9/9/9/8p/2rKA4/9 w - - 0 67",
];

/// How a bench searches: the depth, the table, the threads and the evaluation.
pub struct Setup {
    /// Depth of each search.
    pub depth: u32,
    /// Table size, MB (cleared per position).
    pub hash_mb: usize,
    /// Search threads (more than one: the node count varies from run to run).
    pub threads: usize,
    /// The evaluation.
    pub evaluator: crate::eval::Evaluator,
}

/// Searches every bench position as `setup` says (the table cleared per position), calling
/// `each` per position; returns total nodes and milliseconds.
pub fn bench(
    setup: &Setup,
    mut each: impl FnMut(usize, &str, &crate::search::SearchResult, u64),
) -> Result<(u64, u64), String> {
    let mut engine = Engine::new();
    engine.set_hash_mb(setup.hash_mb);
    engine.set_threads(setup.threads);
    engine.set_evaluator(setup.evaluator.clone());
    let mut total_nodes = 0;
    let start = Instant::now();
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos = Position::from_fen(fen).map_err(|e| format!("bench position {}: {e}", i + 1))?;
        engine.clear();
        let t = Instant::now();
        let limits = Limits { depth: Some(setup.depth), ..Limits::default() };
        let r = engine.search_sync(&pos, &[], limits);
        total_nodes += r.nodes;
        each(i, fen, &r, t.elapsed().as_millis() as u64);
    }
    Ok((total_nodes, start.elapsed().as_millis() as u64))
}

/// Pikafish's (and Stockfish's) last lines of a bench, which test frameworks such as
/// OpenBench read: total time, nodes and speed.
pub fn closing_block(nodes: u64, ms: u64) -> [String; 4] {
    let ms = ms.max(1);
    [
        "=".repeat(27),
        format!("Total time (ms) : {ms}"),
        format!("Nodes searched  : {nodes}"),
        format!("Nodes/second    : {}", nodes * 1000 / ms),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_are_legal_varied_and_some_in_check() {
        assert!(POSITIONS.len() >= 30);
        let mut in_check = 0;
        for fen in POSITIONS {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert!(pos.has_legal_move(), "{fen}");
            in_check += pos.in_check() as usize;
        }
        assert!(in_check >= 5, "{in_check} positions in check");
    }
}
