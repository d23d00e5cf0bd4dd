//! What the main thread tells the GUI and which line it plays: each iteration's lines, the
//! final line (a helper's shorter mate, a weakened pick) and the search's result.

use crate::board::zobrist::Rng;
use crate::search::outcome::{Info, Report, SearchResult};
use crate::search::score::{Bound, Score, INF, MATE, MATE_BOUND, RULE_BOUND};
use crate::search::strength::pick_line;
use crate::search::worker::{RootMove, Worker};

impl Worker<'_> {
    /// Sends the line `index` of the current iteration.
    pub(super) fn report_line(&mut self, depth: i32, index: usize, bound: Bound, report: &mut dyn FnMut(Report)) {
        // A weakened search compares more lines than the GUI asked to see.
        if index >= self.shared.shown_lines {
            return;
        }
        let rm = self.root_moves[index].clone();
        let bound = if bound == Bound::Exact { rm.bound } else { bound };
        self.send_line(depth, index, &rm, bound, report);
    }

    /// Sends `rm` as line `index`, remembering what the first line showed.
    fn send_line(&mut self, depth: i32, index: usize, rm: &RootMove, bound: Bound, report: &mut dyn FnMut(Report)) {
        let score = rm.current_score();
        if score == -INF {
            return;
        }
        if index == 0 {
            self.last_reported = Some((rm.mv, score));
        }
        let nodes = self.shared.total_nodes().max(self.nodes);
        let ms = self.elapsed_ms();
        report(Report::Pv(Info {
            depth: depth as u32,
            seldepth: rm.seldepth.max(depth as usize) as u32,
            multipv: index as u32 + 1,
            score: Score::from_internal(score),
            bound,
            nodes,
            nps: nodes * 1000 / ms.max(1),
            time_ms: ms,
            hashfull: self.shared.tt.hashfull(),
            pv: rm.pv.clone(),
        }));
    }

    /// The line to play: the main thread's best, unless a helper has proved a shorter mate
    /// in an iteration it completed (Lazy SMP threads meet mates at different depths).
    fn chosen_line(&self, helpers: &[Option<(i32, RootMove)>]) -> Option<(i32, RootMove)> {
        let main = self.root_moves.first()?;
        let mut best = (self.root_depth, main.clone());
        for (depth, rm) in helpers.iter().flatten() {
            let proven_mate = rm.bound == Bound::Exact && rm.score >= MATE_BOUND;
            if proven_mate && rm.score > best.1.current_score() {
                best = (*depth, rm.clone());
            }
        }
        Some(best)
    }

    /// Settles the final line and reports it if the GUI has not seen it: the move played is
    /// always the first move of the last line shown (a new best move found in an unfinished
    /// iteration, or a helper's shorter mate, would otherwise go unreported).
    pub(super) fn finish(&mut self, helpers: &[Option<(i32, RootMove)>], report: &mut dyn FnMut(Report)) {
        let Some((depth, mut rm)) = self.chosen_line(helpers) else {
            return;
        };
        if let Some(weaker) = self.weakened_pick() {
            rm = weaker;
        }
        if self.stopped && rm.mv == self.root_moves[0].mv {
            self.resend_lines(report);
        }
        if self.last_reported != Some((rm.mv, rm.current_score())) {
            self.send_line(depth, 0, &rm, rm.bound, report);
        }
        self.root_moves[0] = rm;
    }

    /// After a stop inside an iteration, with several lines shown: all of them again in their
    /// current order, as Pikafish does, so a client that keeps each line's last `info`
    /// (pikafish-terminal's hints) gets one ranked set, not lines of two iterations. A line
    /// the unfinished iteration did not reach keeps the previous depth and score.
    fn resend_lines(&mut self, report: &mut dyn FnMut(Report)) {
        let lines = self.shared.shown_lines.min(self.root_moves.len());
        if lines < 2 || self.root_moves[..lines].iter().all(|rm| rm.score == -INF) {
            return;
        }
        for i in 0..lines {
            let rm = self.root_moves[i].clone();
            let depth = self.root_depth - (rm.score == -INF) as i32;
            self.send_line(depth, i, &rm, rm.bound, report);
        }
    }

    /// When the strength is limited: the line the random pick plays instead of the best, if
    /// it picks another (`strength::pick_line` over the lines searched).
    fn weakened_pick(&self) -> Option<RootMove> {
        let strength = self.shared.strength;
        let lines = self.shared.multipv.min(self.root_moves.len());
        if strength.spread_cp == 0 || lines < 2 {
            return None;
        }
        let scores: Vec<i32> = self.root_moves[..lines].iter().map(RootMove::current_score).collect();
        let mut rng = Rng::new(self.shared.pick_seed);
        let i = pick_line(&scores, strength.spread_cp, RULE_BOUND, &mut rng);
        (i > 0).then(|| self.root_moves[i].clone())
    }

    /// The outcome after the iterations: best line, its score, the completed depth.
    pub fn result(&self, completed_depth: u32) -> SearchResult {
        let Some(rm) = self.root_moves.first() else {
            // No legal move: checkmated or stalemated, a loss either way.
            return SearchResult {
                best: None,
                ponder_move: None,
                score: Score::from_internal(-MATE),
                depth: 0,
                nodes: self.shared.total_nodes(),
            };
        };
        let score = rm.current_score();
        let mut ponder_move = rm.pv.get(1).copied();
        if ponder_move.is_none() {
            let mut p = self.pos.clone();
            p.make_move(rm.mv);
            ponder_move = self.shared.tt.probe(p.key(), 0).map(|e| e.mv).filter(|&m| !m.is_null() && p.is_legal(m));
        }
        SearchResult {
            best: Some(rm.mv),
            ponder_move,
            score: Score::from_internal(if score == -INF { 0 } else { score }),
            depth: completed_depth,
            nodes: self.shared.total_nodes(),
        }
    }
}
