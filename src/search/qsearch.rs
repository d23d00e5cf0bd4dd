//! Quiescence search: stand pat, then captures by MVV-LVA with delta pruning (and, if
//! switched on, quiet checks at its first ply); when in check, every evasion (so mates at the
//! horizon are seen).

use super::picker::{MovePicker, QuietMoves};
use super::score::{Bound, INF, MATE, MAX_PLY};
use super::worker::Worker;
use crate::board::Move;

impl Worker<'_> {
    /// Quiescence search at `ply`; returns a fail-soft score for the side to move. `checks`:
    /// also try quiet moves that give check.
    pub(crate) fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, checks: bool) -> i32 {
        self.pv_len[ply] = ply;
        if self.count_node_and_check_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return self.static_eval();
        }
        if self.pos.halfmove_clock() == 0 && crate::rules::insufficient_material(&self.pos) {
            return 0;
        }
        let pv_node = beta - alpha > 1;
        let key = self.pos.key();
        let tt = self.tt.probe(key, ply);
        if let Some(e) = tt {
            if !pv_node && e.cuts(alpha, beta) {
                return e.score;
            }
        }
        let in_check = self.in_check();
        let mut best;
        let stand_pat;
        let mut raw_eval = 0;
        if in_check {
            best = -INF;
            stand_pat = -INF;
        } else {
            raw_eval = tt.map_or_else(|| self.static_eval(), |e| e.eval);
            stand_pat = self.corrected_eval(raw_eval);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        let tt_move = tt.map_or(Move::NULL, |e| e.mv);
        let quiets = match (in_check, checks) {
            (true, _) => QuietMoves::All,
            (false, true) => QuietMoves::Checks,
            (false, false) => QuietMoves::None,
        };
        let mut picker = MovePicker::quiescence(tt_move, quiets);
        let mut any = false;
        let mut best_move = Move::NULL;
        // The window the moves are searched with (alpha already raised by stand pat).
        let alpha_in = alpha;
        let delta_margin = self.params().delta_margin;
        while let Some((m, _)) = picker.next(&self.pos, &self.heur) {
            any = true;
            // Hopeless or losing captures are skipped; quiet checks never are.
            if !in_check
                && self.pos.is_capture(m)
                && (stand_pat + self.shared.exchange.captured_value(&self.pos, m) + delta_margin <= alpha
                    || (self.shared.features.losing_capture_pruning
                        && self.shared.exchange.losing_capture(&self.pos, m)))
            {
                continue;
            }
            let u = self.push_move(m, None);
            let score = -self.qsearch(-beta, -alpha, ply + 1, false);
            self.pop_move(m, u);
            if self.stopped {
                return 0;
            }
            if self.raise(m, score, alpha, &mut best, &mut best_move, ply, true) {
                if score >= beta {
                    break;
                }
                alpha = score;
            }
        }
        if in_check && !any {
            return -MATE + ply as i32;
        }
        let bound = Bound::of(best, alpha_in, beta);
        self.tt.store(key, best_move, best, raw_eval, 0, bound, ply);
        best
    }
}
