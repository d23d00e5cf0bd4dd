//! What a search is asked: the game and the `Limits` (`SearchRequest`), and the engine's
//! `Settings` copied into each search, with the repetition judge it uses (`LoopJudge`).

use super::params::{Features, SearchParams};
use super::strength::Strength;
use crate::board::{Move, Position};
use crate::eval::Evaluator;

/// One search: the game so far (start position and the moves played from it), the limits, and
/// the root moves allowed (empty: every legal move).
#[derive(Clone, Debug)]
pub struct SearchRequest {
    /// The game's start position.
    pub start: Position,
    /// Legal moves played from `start`; the search is of the position after them.
    pub moves: Vec<Move>,
    /// When to stop.
    pub limits: Limits,
    /// Root restriction (`searchmoves`, or every move but `banmoves`); empty: no restriction.
    pub root_moves: Vec<Move>,
}

impl SearchRequest {
    /// A search of the position after `moves` from `start`, all root moves allowed.
    pub fn new(start: &Position, moves: &[Move], limits: Limits) -> SearchRequest {
        SearchRequest { start: start.clone(), moves: moves.to_vec(), limits, root_moves: Vec::new() }
    }

    /// The same search with the root restricted to `root_moves` (empty: no restriction).
    pub fn restricted_to(mut self, root_moves: &[Move]) -> SearchRequest {
        self.root_moves = root_moves.to_vec();
        self
    }
}

/// How the engine searches, copied into each search: threads, lines, techniques, numbers.
#[derive(Clone)]
pub(crate) struct Settings {
    pub threads: usize,
    pub multipv: usize,
    pub features: Features,
    pub params: SearchParams,
    /// How much the engine holds back (full strength by default).
    pub strength: Strength,
    /// Seed of this search's pick among lines when weakened (drawn per search).
    pub pick_seed: u64,
    /// How a repetition loop is judged (the rules' `loop_verdict`; replaceable in tests).
    pub loop_verdict: LoopJudge,
    /// The evaluation searches call.
    pub evaluator: Evaluator,
}

/// A repetition judge: the position after the loop and the loop's moves.
pub(crate) type LoopJudge = fn(&Position, &[Move]) -> crate::rules::LoopVerdict;

/// What to search and for how long. Times in milliseconds. All `None` and `infinite ==
/// false` means "until stopped" as well.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum nominal depth.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Exact time for this move.
    pub movetime_ms: Option<u64>,
    /// Own remaining clock time.
    pub time_ms: Option<u64>,
    /// Own increment per move.
    pub inc_ms: u64,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// No limit until `stop`.
    pub infinite: bool,
    /// Pondering: no clock until `ponderhit`, never finish before `ponderhit` or `stop`.
    pub pondering: bool,
    /// Safety margin per move for communication delays.
    pub move_overhead_ms: u64,
}
