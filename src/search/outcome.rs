//! What a search tells: the `Info` of each line, the `Report`s a running search sends, and
//! its `SearchResult`.

use super::score::{Bound, Score};
use crate::board::Move;

/// One principal-variation report.
#[derive(Clone, Debug)]
pub struct Info {
    /// Nominal depth of the iteration.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based MultiPV index.
    pub multipv: u32,
    /// Score of this line.
    pub score: Score,
    /// Exact or bound.
    pub bound: Bound,
    /// Nodes searched so far (all threads).
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Transposition-table fill in permille.
    pub hashfull: u32,
    /// The line.
    pub pv: Vec<Move>,
}

/// What a running search reports.
#[derive(Clone, Debug)]
pub enum Report {
    /// A completed (or bound) principal variation.
    Pv(Info),
    /// The root move being searched now (sent only after the first second).
    CurrMove {
        /// Iteration depth.
        depth: u32,
        /// The move.
        mv: Move,
        /// Its 1-based number in the root move order.
        number: u32,
    },
    /// The search has finished (after `stop`, a limit, or ponderhit-then-limit).
    Done(SearchResult),
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// Best move, or `None` when there is no legal move.
    pub best: Option<Move>,
    /// Expected reply.
    pub ponder_move: Option<Move>,
    /// Score of the best move.
    pub score: Score,
    /// Depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}
