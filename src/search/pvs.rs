//! Principal-variation alpha-beta below the root: rules of the game (repetition verdicts,
//! 60-move rule, insufficient material), mate-distance pruning, the transposition table,
//! reverse futility, null move, check extension, late-move reductions and pruning.

use super::ordering::{is_refutation, moving_piece};
use super::picker::{MovePicker, QuietMoves};
use super::score::{Bound, INF, MATE, MAX_PLY, RULE_BOUND, RULE_WIN};
use super::tt::TtEntry;
use super::worker::{Frame, Worker};
use crate::board::{Move, PieceKind};
use crate::rules::{insufficient_material, LoopVerdict, MOVE_LIMIT_PLIES};
use arrayvec::ArrayVec;

/// What the move loop knows about one move when it searches it.
#[derive(Clone, Copy)]
pub(super) struct Step {
    /// The first move searched: full window, no reduction.
    pub first: bool,
    /// The move's number for the reduction table: 1 for a node's first move; the root counts
    /// from 0, so one more of its moves is searched unreduced.
    pub move_count: usize,
    /// Not a capture, not a check, not out of check: a candidate for reduction.
    pub quiet: bool,
    pub pv_node: bool,
    pub improving: bool,
    /// The move's ordering score (history, killer or counter-move rank).
    pub order: i32,
}

/// What the singular-extension test decided for the table's move.
enum Singular {
    /// Search it this many plies deeper (−1: shallower).
    Extend(i32),
    /// Even without it the node fails high: return this score.
    Cut(i32),
}

impl Worker<'_> {
    /// Score of the current position by the rules alone, if they decide it: a repetition
    /// (judged by `loop_verdict`), the 60-move rule or insufficient material. Also notes in
    /// `node_repeats` whether the position occurred before.
    pub(crate) fn rule_score(&mut self, ply: usize) -> Option<i32> {
        self.node_repeats = false;
        let pos = &self.pos;
        let halfmove = pos.halfmove_clock();
        if halfmove >= MOVE_LIMIT_PLIES {
            // Checkmate or stalemate on the last ply takes precedence.
            return Some(if pos.has_legal_move() { 0 } else { -MATE + ply as i32 });
        }
        if halfmove == 0 && insufficient_material(pos) {
            return Some(if pos.has_legal_move() { 0 } else { -MATE + ply as i32 });
        }
        // Repetition: same placement and side, within the plies since the last capture,
        // never across a null move.
        let n = self.keys.len() - 1;
        let lo = n.saturating_sub(halfmove as usize);
        let key = self.keys[n];
        let mut j = n;
        let mut earlier_in_game = None;
        let mut game_hits = 0;
        while j >= lo + 2 {
            if self.moves[j - 1].is_null() || self.moves[j - 2].is_null() {
                break;
            }
            j -= 2;
            if self.keys[j] == key {
                self.node_repeats = true;
                if j >= self.root_index {
                    return Some(self.loop_score(j, ply));
                }
                // Before the root: a verdict on the third occurrence in the game.
                game_hits += 1;
                earlier_in_game = Some(j);
                if game_hits >= 2 {
                    break;
                }
            }
        }
        match (game_hits, earlier_in_game) {
            (2, Some(first)) => Some(self.loop_score(first, ply)),
            // A second occurrence: the opponent can make it the third. If the loop so far
            // is one the root side would lose, assume it will (pessimism is safe); a draw or
            // the opponent's loss waits for the real third occurrence.
            (1, Some(first)) => {
                let root_side = if (n - self.root_index).is_multiple_of(2) {
                    self.pos.side_to_move()
                } else {
                    self.pos.side_to_move().opp()
                };
                match (self.shared.loop_verdict)(&self.pos, &self.moves[first..]) {
                    LoopVerdict::Loses(side) if side == root_side => {
                        let win = RULE_WIN - ply as i32;
                        Some(if side == self.pos.side_to_move() { -win } else { win })
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The score of a repetition loop that started at `keys[from]`, reached at `ply`: a draw,
    /// or a rule win or loss (`±(RULE_WIN - ply)`, below mate scores) for the side that
    /// perpetually checks or chases.
    fn loop_score(&self, from: usize, ply: usize) -> i32 {
        let win = RULE_WIN - ply as i32;
        match (self.shared.loop_verdict)(&self.pos, &self.moves[from..]) {
            LoopVerdict::Draw => 0,
            LoopVerdict::Loses(side) if side == self.pos.side_to_move() => -win,
            LoopVerdict::Loses(_) => win,
        }
    }

    /// Whether the side to move has enough pieces that passing is never better than moving.
    fn null_move_safe(&self) -> bool {
        let us = self.pos.side_to_move();
        let rooks = self.pos.count(us, PieceKind::Rook);
        let minors = self.pos.count(us, PieceKind::Horse) + self.pos.count(us, PieceKind::Cannon);
        rooks >= 1 && rooks + minors >= 2
    }

    /// Copies the child's line behind `m` into this ply's line.
    #[inline]
    pub(super) fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = m;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// Takes a searched move's `score` into its node (PVS and quiescence alike): `best` rises
    /// to it, and above `alpha` it makes `m` the best move and, at a PV node, extends the
    /// line. Whether it beat `alpha`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn raise(
        &mut self,
        m: Move,
        score: i32,
        alpha: i32,
        best: &mut i32,
        best_move: &mut Move,
        ply: usize,
        pv_node: bool,
    ) -> bool {
        if score <= *best {
            return false;
        }
        *best = score;
        if score <= alpha {
            return false;
        }
        *best_move = m;
        if pv_node {
            self.update_pv(ply, m);
        }
        true
    }

    /// Whether a move that gives check at `ply` is extended (bounded so perpetual-check lines
    /// cannot run away).
    #[inline]
    pub(super) fn check_extension(&self, gives_check: bool, ply: usize) -> bool {
        let slack = self.shared.params.check_ext_slack as usize;
        self.shared.features.check_extension && gives_check && ply < 2 * self.root_depth as usize + slack
    }

    /// The late-move reduction for a move searched after the first (in plies).
    #[inline]
    fn reduction(&self, s: Step, depth: i32, new_depth: i32) -> i32 {
        let p = self.params();
        if !self.shared.features.lmr || depth < p.lmr_min_depth || s.move_count < p.lmr_min_moves as usize || !s.quiet {
            return 0;
        }
        let mut r = self.lmr[depth.min(63) as usize][s.move_count.min(63)];
        r -= s.pv_node as i32;
        r -= is_refutation(s.order) as i32;
        r += !s.improving as i32;
        r -= (s.order / p.lmr_history_div).clamp(-p.lmr_history_max, p.lmr_history_max);
        r.clamp(0, new_depth - 1)
    }

    /// Searches the move just made (at `ply + 1`, from `ply`'s view): the first move with the
    /// full window, a later one reduced with a null window, then at full depth if it beats
    /// alpha, then (PV nodes) with the full window if it lands inside it. Root and nodes share it.
    pub(super) fn search_move(
        &mut self,
        s: Step,
        depth: i32,
        new_depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if s.first {
            return -self.pvs(new_depth, -beta, -alpha, ply + 1);
        }
        let r = self.reduction(s, depth, new_depth);
        let mut score = -self.pvs(new_depth - r, -alpha - 1, -alpha, ply + 1);
        if score > alpha && r > 0 {
            score = -self.pvs(new_depth, -alpha - 1, -alpha, ply + 1);
        }
        if s.pv_node && score > alpha && score < beta {
            score = -self.pvs(new_depth, -beta, -alpha, ply + 1);
        }
        score
    }

    /// Alpha-beta with PVS below the root; returns a fail-soft score for the side to move.
    pub(crate) fn pvs(&mut self, mut depth: i32, mut alpha: i32, mut beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = ply;
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, self.shared.features.quiet_checks_in_qsearch);
        }
        if self.count_node_and_check_stop() {
            return 0;
        }
        let pv_node = beta - alpha > 1;
        self.seldepth = self.seldepth.max(ply);
        if let Some(v) = self.rule_score(ply) {
            return v;
        }
        if ply >= MAX_PLY {
            return self.static_eval();
        }
        // Mate-distance pruning: no line from here beats a mate already found nearer the root.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let alpha_in = alpha;
        let key = self.pos.key();
        // A singular-extension test searches this node without one move: the table's entry
        // is about the full node, so it is neither used nor overwritten.
        let excluded = self.excluded[ply];
        let tt = if excluded.is_null() { self.tt.probe(key, ply) } else { None };
        let tt_move = tt.map_or(Move::NULL, |e| e.mv);
        if let Some(e) = tt {
            // Not at a repeated position: its stored score may predate the repetition.
            if !pv_node && e.depth >= depth && e.cuts(alpha, beta) && !self.node_repeats {
                return e.score;
            }
        }

        let in_check = self.in_check();
        // The table keeps the raw evaluation; the correction is applied on top.
        let raw_eval = if in_check { -INF } else { tt.map_or_else(|| self.static_eval(), |e| e.eval) };
        let eval = if in_check { -INF } else { self.corrected_eval(raw_eval) };
        self.stack[ply].eval = eval;
        let improving = !in_check && ply >= 2 && eval > self.stack[ply - 2].eval;
        let features = self.shared.features;
        let p = self.params();

        if !pv_node && !in_check && beta.abs() < RULE_WIN / 2 {
            // Reverse futility: far above beta near the leaves, a quiet move won't drop it.
            if features.reverse_futility
                && depth <= p.rfp_max_depth
                && eval - p.rfp_margin * (depth - improving as i32) >= beta
            {
                return eval;
            }
            // Null move: if passing still beats beta, a real move will too (not in endgames
            // thin enough for zugzwang, never twice in a row).
            if features.null_move
                && excluded.is_null()
                && depth >= p.nmp_min_depth
                && eval >= beta
                && !self.stack[ply - 1].mv.is_null()
                && self.null_move_safe()
            {
                let r = p.nmp_base + depth / p.nmp_depth_div + ((eval - beta) / p.nmp_eval_div).min(p.nmp_eval_max);
                self.stack[ply] = Frame { eval, mv: Move::NULL, piece: 0 };
                let u = self.push_null();
                let v = -self.pvs(depth - 1 - r, -beta, -beta + 1, ply + 1);
                self.pop_null(u);
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    return if v >= RULE_WIN / 2 { beta } else { v };
                }
            }
        }

        // ProbCut: a capture that beats beta by a margin in a shallow search very likely
        // beats beta in the full one.
        if features.probcut
            && !pv_node
            && !in_check
            && excluded.is_null()
            && depth >= p.probcut_min_depth
            && beta.abs() < RULE_BOUND
            && !tt.is_some_and(|e| e.depth >= depth - 3 && e.score < beta + p.probcut_margin)
        {
            if let Some(v) = self.probcut(key, (eval, raw_eval), depth, beta, ply) {
                return v;
            }
            if self.stopped {
                return 0;
            }
        }

        // No table move (any node type): a shallower search costs less than a bad order.
        if depth >= p.iir_min_depth && tt_move.is_null() && excluded.is_null() {
            depth -= 1;
        }

        // The moves one and two plies back (none across a null move or before the root).
        let earlier = [1, 2].map(|back| {
            let f = self.stack[ply.checked_sub(back)?];
            (!f.mv.is_null()).then_some((f.piece, f.mv))
        });
        // The table's move is tried before any generation: it often cuts at once.
        let mut tt_move_first = !tt_move.is_null() && self.pos.is_legal(tt_move);
        let exchange =
            if self.shared.features.see_ordering { self.shared.exchange } else { self.shared.exchange.never_losing() };
        let mut picker = MovePicker::new(tt_move, &self.heur, ply, earlier, exchange);
        // Legal moves seen (the excluded one too): none means checkmate or stalemate.
        let mut legal = tt_move_first as usize;
        let mut best = -INF;
        let mut best_move = Move::NULL;
        let mut move_count = 0usize;
        let mut quiets: ArrayVec<(usize, Move), 64> = ArrayVec::new();
        let mut captures: ArrayVec<Move, 32> = ArrayVec::new();

        loop {
            let (m, order) = if tt_move_first {
                tt_move_first = false;
                (tt_move, i32::MAX)
            } else {
                match picker.next(&self.pos, &self.heur) {
                    Some(next) => {
                        legal += 1;
                        if next.0 == excluded {
                            continue;
                        }
                        next
                    }
                    None => break,
                }
            };
            move_count += 1;
            let capture = self.pos.is_capture(m);
            // Whether `m` checks: found once, by the first test that needs it.
            let mut checks = None;
            let piece = moving_piece(&self.pos, m);
            // Near the leaves, late quiet moves that can't lift the score are skipped.
            if !pv_node && !in_check && !capture && best > -RULE_WIN / 2 && !is_refutation(order) && m != tt_move {
                let p = self.params();
                let lmp_limit = (p.lmp_base + depth * depth * (1 + improving as i32)) as usize;
                let late = features.late_move_pruning && depth <= p.lmp_max_depth && quiets.len() >= lmp_limit;
                let futile =
                    features.futility && depth <= p.fp_max_depth && eval + p.fp_base + p.fp_per_depth * depth <= alpha;
                if (late || futile) && !*checks.get_or_insert_with(|| self.pos.gives_check(m)) {
                    continue;
                }
            }
            // Near the leaves, a move that loses material by exchange is skipped.
            if features.see_pruning && !in_check && best > -RULE_WIN / 2 && move_count > 1 && depth <= p.see_max_depth {
                let margin = if capture { -p.see_capture_margin * depth * depth } else { -p.see_quiet_margin * depth };
                if self.shared.exchange.see(&self.pos, m) < margin
                    && (capture || !*checks.get_or_insert_with(|| self.pos.gives_check(m)))
                {
                    continue;
                }
            }
            // Singular extension: if every other move fails well below the table's score, the
            // table's move is searched deeper; if even they beat beta, the node is cut.
            let mut extension = 0;
            if m == tt_move && move_count == 1 {
                match self.singular(tt, depth, beta, ply, pv_node) {
                    Singular::Cut(v) => return v,
                    Singular::Extend(e) => extension = e,
                }
                if self.stopped {
                    return 0;
                }
            }
            self.stack[ply] = Frame { eval, mv: m, piece };
            let u = self.push_move(m, checks);
            let gives_check = self.in_check();
            // Check extension, bounded so perpetual-check lines cannot run away.
            let new_depth = depth - 1 + (self.check_extension(gives_check, ply) as i32 + extension).min(2);
            let quiet = !capture && !gives_check && !in_check;
            let step = Step { first: move_count == 1, move_count, quiet, pv_node, improving, order };
            let score = self.search_move(step, depth, new_depth, alpha, beta, ply);
            self.pop_move(m, u);
            if self.stopped {
                return 0;
            }
            if self.raise(m, score, alpha, &mut best, &mut best_move, ply, pv_node) {
                if score >= beta {
                    let p = self.params();
                    let bonus = (depth * depth * p.history_mul).min(p.history_max);
                    if capture {
                        self.heur.update_capture(&self.pos, m, bonus);
                    } else {
                        self.heur.reward(ply, piece, m, bonus, earlier);
                        for &(p, q) in &quiets {
                            self.heur.punish(p, q, bonus, earlier);
                        }
                    }
                    // The captures tried before the cutting move did not cut.
                    for &c in &captures {
                        self.heur.update_capture(&self.pos, c, -bonus);
                    }
                    break;
                }
                alpha = score;
            }
            if !capture && !quiets.is_full() {
                quiets.push((piece, m));
            } else if capture && !captures.is_full() {
                captures.push(m);
            }
        }

        if legal == 0 {
            // Checkmate or stalemate: both lose.
            return -MATE + ply as i32;
        }
        if !excluded.is_null() {
            // Every move but the excluded one was searched (or there was no other): no store.
            return best.max(-MATE + ply as i32);
        }
        let bound = Bound::of(best, alpha_in, beta);
        // The correction learns from scores the quiet play decided, where the bound says
        // which side of the evaluation the true score lies.
        if features.correction_history
            && !in_check
            && (best_move.is_null() || !self.pos.is_capture(best_move))
            && best.abs() < RULE_BOUND
            && !(bound == Bound::Lower && best <= eval)
            && !(bound == Bound::Upper && best >= eval)
        {
            let k = self.corr_key();
            self.corr.update(&self.pos, k, best - raw_eval, depth, p.corr_limit_cp);
        }
        let stored_eval = if in_check { 0 } else { raw_eval };
        self.tt.store(key, best_move, best, stored_eval, depth, bound, ply);
        best
    }

    /// ProbCut at a non-PV node of `depth`: the captures whose exchange could lift the static
    /// evaluation past `beta + probcut_margin` are tried in quiescence, then by a search four
    /// plies shallower, against that raised bound. A score past it is returned (and stored).
    /// `evals`: the corrected and the raw static evaluation.
    fn probcut(&mut self, key: u64, evals: (i32, i32), depth: i32, beta: i32, ply: usize) -> Option<i32> {
        let (eval, raw_eval) = evals;
        let p = self.params();
        let pc_beta = beta + p.probcut_margin;
        let mut picker = MovePicker::quiescence(Move::NULL, QuietMoves::None);
        while let Some((m, _)) = picker.next(&self.pos, &self.heur) {
            if self.shared.exchange.see(&self.pos, m) < pc_beta - eval {
                continue;
            }
            let piece = moving_piece(&self.pos, m);
            self.stack[ply] = Frame { eval, mv: m, piece };
            let u = self.push_move(m, None);
            let mut v = -self.qsearch(-pc_beta, -pc_beta + 1, ply + 1, false);
            if v >= pc_beta && depth - 4 > 0 {
                v = -self.pvs(depth - 4, -pc_beta, -pc_beta + 1, ply + 1);
            }
            self.pop_move(m, u);
            if self.stopped {
                return None;
            }
            if v >= pc_beta {
                self.tt.store(key, m, v, raw_eval, depth - 3, Bound::Lower, ply);
                return Some(v);
            }
        }
        None
    }

    /// The singular-extension test of the table's move at a node of `depth`: the other moves
    /// are searched at half depth against the table's score less a margin.
    fn singular(&mut self, tt: Option<TtEntry>, depth: i32, beta: i32, ply: usize, pv_node: bool) -> Singular {
        let p = self.params();
        let Some(e) = tt else { return Singular::Extend(0) };
        if !self.shared.features.singular_extension
            || depth < p.se_min_depth
            || e.depth < depth - p.se_tt_depth_slack
            || e.bound == Bound::Upper
            || e.score.abs() >= RULE_BOUND
            || ply >= 2 * self.root_depth as usize
        {
            return Singular::Extend(0);
        }
        let s_beta = e.score - p.se_margin * depth;
        self.excluded[ply] = e.mv;
        let v = self.pvs((depth - 1) / 2, s_beta - 1, s_beta, ply);
        self.excluded[ply] = Move::NULL;
        if v < s_beta {
            Singular::Extend(1 + (!pv_node && v < s_beta - p.se_double_margin) as i32)
        } else if s_beta >= beta {
            Singular::Cut(s_beta)
        } else if e.score >= beta {
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        }
    }
}
