//! `chuhe bench [--depth D]`: a fixed-depth search of built-in positions with one thread and
//! a 16 MB table. The total node count is a signature of the search: the same on every run
//! of the same binary, different when a change alters the search. The search itself, which
//! the protocols' `bench` command runs too, is `crate::bench`.

use super::Args;
use crate::bench::{bench, closing_block, Setup, DEFAULT_DEPTH};
use crate::search::Score;

/// One line for `chuhe --help`.
pub(super) const ABOUT: &str = "search built-in positions to a fixed depth: speed and a search signature";

/// `chuhe bench --help`.
pub(super) const HELP: &str = "\
usage:
  chuhe bench [[--depth] D] [--eval hand|nnue] [--evalfile NET]

options (--name VALUE or --name=VALUE):
  --depth D          depth of each search, 1 to 30 (default 10)
  --eval hand|nnue   the hand-written evaluation or the embedded network (default: the
                     engine's, UseNNUE's default)
  --evalfile NET     search with this net file instead of the embedded one

Searches the built-in positions (openings, middlegames, endgames, positions in check) with
one thread and a 16 MB hash cleared per position: one line per position, then exactly one
line 'nodes <N> time <ms> nps <rate>', then Pikafish's closing block for test frameworks
(a line of '=', 'Total time (ms) : T', 'Nodes searched  : N', 'Nodes/second    : R'). N is
the same on every run of the same binary: a signature of the search, which changes when a
change alters the search. The engine's 'bench' command runs the same search.

examples:
  chuhe bench
  chuhe bench 12                                            # the same as --depth 12
  chuhe bench --eval nnue
";

/// Runs the bench and prints one line per position and the summary line.
pub fn run(args: &[String]) -> Result<(), String> {
    let a = Args::parse_with_positional(args, &["depth", "eval", "evalfile"], &[], &["depth"])?;
    let depth = a.number("depth", 1, 30, Some(DEFAULT_DEPTH as u64))? as u32;
    let evaluator = a.evaluator()?;
    let setup = Setup { depth, hash_mb: 16, threads: 1, evaluator };
    let (nodes, ms) = bench(&setup, |i, fen, r, ms| {
        let score = match r.score {
            Score::Cp(v) => format!("cp {v}"),
            Score::Mate(m) => format!("mate {m}"),
        };
        let best = r.best.map_or("none".to_string(), |m| m.to_string());
        outln!("position {:2} nodes {:9} time {:6} best {best} score {score}  {fen}", i + 1, r.nodes, ms);
    })?;
    outln!("nodes {nodes} time {ms} nps {}", nodes * 1000 / ms.max(1));
    for line in closing_block(nodes, ms) {
        outln!("{line}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_gives_the_default_depth() {
        assert!(HELP.contains(&format!("(default {DEFAULT_DEPTH})")));
    }
}
