//! `chuhe perft [--fen FEN] --depth N [--divide]`.

use super::Args;
use crate::perft::{divide, perft};
use std::time::Instant;

/// Runs perft and prints the divide lines (if asked) and the summary line.
pub fn run(args: &[String]) -> Result<(), String> {
    let a = Args::parse(args, &["fen", "depth"], &["divide"])?;
    let depth = a.number("depth", 1, 12, None)? as u32;
    let mut pos = a.position()?;
    let start = Instant::now();
    let nodes = if a.flag("divide") {
        let split = divide(&mut pos, depth);
        for (m, n) in &split {
            println!("{m}: {n}");
        }
        split.iter().map(|(_, n)| n).sum()
    } else {
        perft(&mut pos, depth)
    };
    let elapsed = start.elapsed();
    let ms = elapsed.as_millis();
    let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    println!("nodes {nodes} time {ms} nps {nps}");
    Ok(())
}
