//! What the engine says with its move: the move itself (checked against the root moves),
//! the expected reply, and the UCCI draw/resign policy. Conservative by design:
//! - accept a draw only when one was offered (`go draw` / `ponderhit draw`) and the search
//!   says we are worse: a score of `DRAW_ACCEPT_CP` or less, or a mate against us;
//! - never offer a draw unprompted;
//! - resign only after `RESIGN_STREAK` searches in a row each ended with a mate against us,
//!   or with `RESIGN_CP` or less at depth `RESIGN_MIN_DEPTH` or more.

use crate::board::{Move, Position};
use crate::search::{Score, SearchResult};

/// Accept an offered draw at this score (centipawns, side to move's view) or lower.
pub const DRAW_ACCEPT_CP: i32 = -50;
/// A search ending at this score or lower counts towards resigning ...
pub const RESIGN_CP: i32 = -1000;
/// ... if it reached at least this depth (mate-against scores count at any depth).
pub const RESIGN_MIN_DEPTH: u32 = 8;
/// Consecutive hopeless searches needed to resign.
pub const RESIGN_STREAK: u32 = 2;

/// The move the engine announces, with its flags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// Best move; `None` when there is no move to play.
    pub best: Option<Move>,
    /// Expected reply.
    pub ponder_move: Option<Move>,
    /// Accept the offered draw.
    pub draw: bool,
    /// Resign.
    pub resign: bool,
}

/// State the policy keeps between searches of one game.
#[derive(Clone, Debug, Default)]
pub struct History {
    /// A draw is on offer for the current search.
    pub draw_offered: bool,
    /// Consecutive searches that ended hopeless.
    pub hopeless_streak: u32,
}

/// Whether to accept an offered draw at `score`.
pub fn accept_draw(score: Score) -> bool {
    match score {
        Score::Cp(cp) => cp <= DRAW_ACCEPT_CP,
        Score::Mate(n) => n < 0,
    }
}

/// Whether one search result counts as hopeless.
pub fn hopeless(score: Score, depth: u32) -> bool {
    match score {
        Score::Cp(cp) => cp <= RESIGN_CP && depth >= RESIGN_MIN_DEPTH,
        Score::Mate(n) => n < 0,
    }
}

/// Builds the announcement for a finished search. `root` is the set of moves the engine was
/// allowed to play at `pos`; `last_pv` the last principal variation reported.
pub fn decide(pos: &Position, root: &[Move], res: &SearchResult, last_pv: &[Move], hist: &mut History) -> Decision {
    let best = res
        .best
        .filter(|m| root.contains(m))
        .or_else(|| last_pv.first().copied().filter(|m| root.contains(m)))
        .or_else(|| root.first().copied());
    let ponder_move = best.and_then(|b| {
        let guess = if res.best == Some(b) { res.ponder_move } else { None };
        let guess = guess.or_else(|| if last_pv.first() == Some(&b) { last_pv.get(1).copied() } else { None });
        let mut after = pos.clone();
        after.make_move(b);
        guess.filter(|&p| after.is_legal(p))
    });
    if hopeless(res.score, res.depth) {
        hist.hopeless_streak += 1;
    } else {
        hist.hopeless_streak = 0;
    }
    let draw = best.is_some() && hist.draw_offered && accept_draw(res.score);
    let resign = best.is_some() && !draw && hist.hopeless_streak >= RESIGN_STREAK;
    hist.draw_offered = false;
    Decision { best, ponder_move, draw, resign }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(best: Option<Move>, score: Score, depth: u32) -> SearchResult {
        SearchResult { best, ponder_move: None, score, depth, nodes: 1 }
    }

    /// The start position, its root moves, the first of them, a fresh history.
    fn start() -> (Position, Vec<Move>, Option<Move>, History) {
        let pos = Position::startpos();
        let root = pos.legal_moves().to_vec();
        let first = Some(root[0]);
        (pos, root, first, History::default())
    }

    #[test]
    fn draw_only_when_offered_and_worse() {
        let (pos, root, m, mut h) = start();
        assert!(!decide(&pos, &root, &result(m, Score::Cp(-400), 5), &[], &mut h).draw);
        h.draw_offered = true;
        assert!(!decide(&pos, &root, &result(m, Score::Cp(-49), 5), &[], &mut h).draw);
        h.draw_offered = true;
        assert!(decide(&pos, &root, &result(m, Score::Cp(-50), 5), &[], &mut h).draw);
        assert!(!h.draw_offered, "an offer lasts one search");
        h.draw_offered = true;
        assert!(decide(&pos, &root, &result(m, Score::Mate(-3), 2), &[], &mut h).draw);
        h.draw_offered = true;
        assert!(!decide(&pos, &root, &result(m, Score::Mate(2), 2), &[], &mut h).draw);
    }

    #[test]
    fn resign_needs_a_confirmed_streak() {
        let (pos, root, m, mut h) = start();
        assert!(!decide(&pos, &root, &result(m, Score::Cp(-5000), 7), &[], &mut h).resign, "too shallow");
        assert!(!decide(&pos, &root, &result(m, Score::Cp(-5000), 8), &[], &mut h).resign, "first time");
        assert!(decide(&pos, &root, &result(m, Score::Cp(-5000), 9), &[], &mut h).resign);
        assert!(!decide(&pos, &root, &result(m, Score::Cp(-999), 20), &[], &mut h).resign);
        assert!(!decide(&pos, &root, &result(m, Score::Mate(-1), 1), &[], &mut h).resign);
        assert!(decide(&pos, &root, &result(m, Score::Mate(-1), 1), &[], &mut h).resign);
    }

    #[test]
    fn best_move_falls_back_to_a_root_move_and_ponder_is_legal() {
        let pos = Position::startpos();
        let root = pos.legal_moves().to_vec();
        let mut h = History::default();
        let d = decide(&pos, &root, &result(None, Score::Cp(0), 0), &[], &mut h);
        assert_eq!(d.best, Some(root[0]));
        let h2e2 = Move::parse("h2e2").unwrap();
        let h9g7 = Move::parse("h9g7").unwrap();
        let d = decide(&pos, &root, &result(None, Score::Cp(0), 1), &[h2e2, h9g7], &mut h);
        assert_eq!((d.best, d.ponder_move), (Some(h2e2), Some(h9g7)));
        let bogus = Move::parse("a0a9").unwrap();
        let d = decide(&pos, &root, &result(Some(h2e2), Score::Cp(0), 1), &[h2e2, bogus], &mut h);
        assert_eq!((d.best, d.ponder_move), (Some(h2e2), None));
        let d = decide(&pos, &[], &result(None, Score::Cp(0), 0), &[], &mut h);
        assert_eq!(d.best, None);
    }
}
