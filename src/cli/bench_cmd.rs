//! `chuhe bench [--depth D]`: a fixed-depth search of built-in positions with one thread and
//! a 16 MB table. The total node count is a signature of the search: the same on every run
//! of the same binary, different when a change alters the search.

use super::Args;
use crate::board::Position;
use crate::search::{Engine, Limits, Score};
use std::time::Instant;

/// Depth searched when `--depth` is not given.
pub const DEFAULT_DEPTH: u32 = 10;

/// The bench positions: openings, middlegames, endgames and positions in check.
pub const POSITIONS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
];

/// Runs the bench and prints one line per position and the summary line.
pub fn run(args: &[String]) -> Result<(), String> {
    let a = Args::parse(args, &["depth"], &[])?;
    let depth = a.number("depth", 1, 30, Some(DEFAULT_DEPTH as u64))? as u32;
    let (nodes, ms) = bench(depth, |i, fen, r, ms| {
        let score = match r.score {
            Score::Cp(v) => format!("cp {v}"),
            Score::Mate(m) => format!("mate {m}"),
        };
        let best = r.best.map_or("none".to_string(), |m| m.to_string());
        println!("position {:2} nodes {:9} time {:6} best {best} score {score}  {fen}", i + 1, r.nodes, ms);
    })?;
    println!("nodes {nodes} time {ms} nps {}", nodes * 1000 / ms.max(1));
    Ok(())
}

/// Searches every bench position to `depth` (one thread, 16 MB, table cleared per
/// position), calling `each` per position; returns total nodes and milliseconds.
pub fn bench(
    depth: u32,
    mut each: impl FnMut(usize, &str, &crate::search::SearchResult, u64),
) -> Result<(u64, u64), String> {
    let mut engine = Engine::new();
    engine.set_hash_mb(16);
    engine.set_threads(1);
    let mut total_nodes = 0;
    let start = Instant::now();
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos = Position::from_fen(fen).map_err(|e| format!("bench position {}: {e}", i + 1))?;
        engine.clear();
        let t = Instant::now();
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        let r = engine.search_sync(&pos, &[], limits);
        total_nodes += r.nodes;
        each(i, fen, &r, t.elapsed().as_millis() as u64);
    }
    Ok((total_nodes, start.elapsed().as_millis() as u64))
}
