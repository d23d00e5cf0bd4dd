//! Scores inside the search and out: the mate and rule-win bands and `INF` (internal scores,
//! mates as `±(MATE - ply)`), the deepest ply `MAX_PLY`, `Score` as the GUI sees it, and
//! `Bound`, what a score from a window tells. It reads nothing else of the search.

/// Scores at or beyond this magnitude are mates.
pub const MATE: i32 = 30000;
/// Largest score below mate scores.
pub const MATE_BOUND: i32 = MATE - 1000;
/// A win by the rules without mate (the opponent's forbidden perpetual check or chase) at the
/// root: `RULE_WIN - ply` at the ply where the verdict falls, a band below `MATE_BOUND` and far
/// above any evaluation. Reported on the mate scale, as the moves until the verdict.
pub const RULE_WIN: i32 = 25000;
/// Scores at or beyond this magnitude (and below `MATE_BOUND`) are rule wins or losses.
pub const RULE_BOUND: i32 = RULE_WIN - 1000;
/// Beyond every score.
pub(crate) const INF: i32 = MATE + 1;
/// Deepest ply of the search stack.
pub(crate) const MAX_PLY: usize = 128;

/// A score from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (positive: we mate; negative: we are mated).
    Mate(i32),
}

impl Score {
    /// Converts an internal score (mates as `±(MATE - ply)`, rule outcomes as
    /// `±(RULE_WIN - ply)`) into a `Score`: both count the moves to the end of the game.
    pub fn from_internal(v: i32) -> Score {
        let top = if v.abs() >= MATE_BOUND { MATE } else { RULE_WIN };
        if v >= RULE_BOUND {
            Score::Mate((top - v + 1) / 2)
        } else if v <= -RULE_BOUND {
            Score::Mate(-((top + v) / 2))
        } else {
            Score::Cp(v)
        }
    }
}

/// Whether a reported score is exact or a bound (aspiration fail).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Exact score.
    Exact,
    /// The true score is at least this.
    Lower,
    /// The true score is at most this.
    Upper,
}

impl Bound {
    /// What a fail-soft `score` from a search with window (alpha, beta) tells.
    #[inline]
    pub fn of(score: i32, alpha: i32, beta: i32) -> Bound {
        if score >= beta {
            Bound::Lower
        } else if score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}
