//! The search driver: per-thread state, iterative deepening with aspiration windows over the
//! root moves (MultiPV, root restriction), Lazy SMP helpers, limits and reports. The threads
//! that run it live in `pool.rs`.

use super::correction::CorrectionHistory;
use super::ordering::{Exchange, Heuristics};
use super::pool::{Control, Job};
use super::pvs::Step;
use super::strength::Strength;
use super::time::TimeManager;
use super::tt::TranspositionTable;
use super::{Bound, Features, Limits, Report, SearchParams, SearchRequest, SearchResult, Settings};
use super::{INF, MATE, MATE_BOUND, MAX_PLY, RULE_BOUND, RULE_WIN};
use crate::board::{Move, Position};
use crate::eval::{EvalState, Evaluator};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::Arc;
use std::time::Instant;

mod report;

/// Deepest nominal depth an iteration may have (a deeper `go depth` is clamped to it).
pub const MAX_DEPTH: u32 = 100;

/// What every search thread shares.
pub(crate) struct Shared {
    pub tt: Arc<TranspositionTable>,
    /// Set by the driver to end every thread's search now.
    pub stop: AtomicBool,
    /// The user's `stop` and `ponderhit`, polled by the main thread.
    pub control: Arc<Control>,
    pub node_counts: Vec<AtomicU64>,
    pub limits: Limits,
    pub multipv: usize,
    /// Lines reported per iteration (the GUI's MultiPV; `multipv` may be more when weakened).
    pub shown_lines: usize,
    /// How much the main thread holds back, and the seed of its pick.
    pub strength: Strength,
    pub pick_seed: u64,
    pub features: Features,
    pub params: SearchParams,
    /// The exchange prices `params` sets.
    pub exchange: Exchange,
    pub start: Instant,
    /// How a repetition loop is judged (the rules' `loop_verdict`; replaceable in tests).
    pub loop_verdict: LoopJudge,
    /// The evaluation.
    pub evaluator: Evaluator,
}

/// A repetition judge: the position after the loop and the loop's moves.
pub(crate) type LoopJudge = fn(&Position, &[Move]) -> crate::rules::LoopVerdict;

impl Shared {
    /// Nodes searched by all threads so far.
    pub fn total_nodes(&self) -> u64 {
        self.node_counts.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

/// A root move with its score in this and the previous iteration and its line.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub prev_score: i32,
    pub bound: Bound,
    pub seldepth: usize,
    pub pv: Vec<Move>,
    /// Nodes spent on this move in the current iteration (re-searches included).
    pub nodes: u64,
}

impl RootMove {
    /// This iteration's score, or the last one's before this move was searched again.
    fn current_score(&self) -> i32 {
        if self.score == -INF {
            self.prev_score
        } else {
            self.score
        }
    }
}

/// Per-ply scratch of the search stack.
#[derive(Clone, Copy, Default)]
pub(crate) struct Frame {
    pub eval: i32,
    pub mv: Move,
    pub piece: usize,
}

/// Main-thread only: the clock and the pondering state.
pub(crate) struct Clock {
    pub tm: TimeManager,
    pub pondering: bool,
}

/// What a search thread learns that outlives its search: the move-ordering histories and the
/// evaluation corrections. Its pool thread keeps them from move to move until a new game.
pub(crate) struct ThreadTables {
    heur: Heuristics,
    corr: CorrectionHistory,
}

impl ThreadTables {
    /// Empty tables for a search with these settings.
    fn new(features: &Features, params: &SearchParams) -> ThreadTables {
        let mut t = ThreadTables { heur: Heuristics::new(MAX_PLY), corr: CorrectionHistory::new(params.corr_key) };
        t.follow(features);
        t
    }

    /// Reads and writes the histories the switches turn on.
    fn follow(&mut self, features: &Features) {
        self.heur.continuation_on = features.continuation_history;
        self.heur.captures_on = features.capture_history;
    }

    /// The tables for a thread's next search: its last search's, aged, if they suit the
    /// settings; otherwise empty ones.
    fn for_search(kept: Option<ThreadTables>, features: &Features, params: &SearchParams) -> ThreadTables {
        match kept {
            Some(mut t) if t.corr.keyed_by(params.corr_key) => {
                t.heur.age();
                t.follow(features);
                t
            }
            _ => ThreadTables::new(features, params),
        }
    }
}

/// A helper's last completed iteration: its depth and best line, if it completed one.
pub(crate) type Completed = Option<(i32, RootMove)>;

/// One search as the helpers see it: the shared state, the game and the root moves.
pub(crate) struct SearchJob {
    pub shared: Shared,
    start: Position,
    moves: Vec<Move>,
    root: Vec<Move>,
}

/// One search thread's state.
pub(crate) struct Worker<'a> {
    pub shared: &'a Shared,
    /// The shared table, one load away in the hot path (`shared.tt` is behind an `Arc`).
    pub tt: &'a TranspositionTable,
    pub id: usize,
    pub pos: Position,
    /// Keys of the game positions then of the search path; `keys[i]` is before `moves[i]`.
    pub keys: Vec<u64>,
    pub moves: Vec<Move>,
    /// Index in `keys` of the root position.
    pub root_index: usize,
    /// Whether the position last checked by `rule_score` occurred before (game or path).
    pub node_repeats: bool,
    pub nodes: u64,
    pub seldepth: usize,
    pub heur: Heuristics,
    pub corr: CorrectionHistory,
    /// The correction history's structure key along the search path (root first).
    pub corr_keys: Vec<u64>,
    /// Whether the side to move is in check, along the search path (root first): known from
    /// the move that led there, so no node tests it again.
    pub checks: Vec<bool>,
    /// The evaluator's state along the search path (a network's accumulators).
    pub eval: EvalState<'a>,
    /// Nodes between polls, less one (a power of two): fewer than 1024 under a small node
    /// budget, so weak skill levels stop near their cap.
    pub poll_mask: u64,
    pub pv: Vec<[Move; MAX_PLY + 1]>,
    pub pv_len: [usize; MAX_PLY + 1],
    pub stack: [Frame; MAX_PLY + 2],
    /// The move a singular-extension test leaves out at each ply (`Move::NULL`: none).
    pub excluded: [Move; MAX_PLY + 2],
    pub root_moves: Vec<RootMove>,
    pub pv_idx: usize,
    pub root_depth: i32,
    pub lmr: Vec<[i32; 64]>,
    pub clock: Option<Clock>,
    pub stopped: bool,
    /// Whether a stop may cut this thread's search: the main thread always finishes its
    /// first iteration, so every search shows a line and plays a searched move.
    pub may_stop: bool,
    /// Main thread: the first move and score of the last first line reported.
    pub last_reported: Option<(Move, i32)>,
    /// Helpers: the best line of the last completed iteration and its depth.
    pub completed: Option<(i32, RootMove)>,
}

impl<'a> Worker<'a> {
    /// A worker at the position reached by `moves` from `start`, searching `root_moves`.
    pub fn new(
        shared: &'a Shared,
        id: usize,
        start: &Position,
        moves: &[Move],
        root: &[Move],
        tables: ThreadTables,
    ) -> Worker<'a> {
        let mut pos = start.clone();
        let mut keys = Vec::with_capacity(moves.len() + MAX_PLY + 8);
        let mut history = Vec::with_capacity(moves.len() + MAX_PLY + 8);
        for &m in moves {
            keys.push(pos.key());
            history.push(m);
            pos.make_move(m);
        }
        keys.push(pos.key());
        let root_moves = root
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INF,
                prev_score: -INF,
                bound: Bound::Upper,
                seldepth: 0,
                pv: vec![mv],
                nodes: 0,
            })
            .collect();
        let mut lmr = vec![[0i32; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate() {
            for (m, r) in row.iter_mut().enumerate() {
                *r = shared.params.lmr_table_entry(d, m);
            }
        }
        let eval = EvalState::new(&shared.evaluator, &pos, MAX_PLY + 2);
        let mut corr_keys = Vec::with_capacity(MAX_PLY + 8);
        corr_keys.push(tables.corr.key(&pos));
        let mut checks = Vec::with_capacity(MAX_PLY + 8);
        checks.push(pos.in_check());
        let tm = TimeManager::new(&shared.limits, &shared.params);
        let clock = (id == 0).then_some(Clock { tm, pondering: shared.limits.pondering });
        Worker {
            shared,
            tt: &shared.tt,
            id,
            pos,
            keys,
            root_index: moves.len(),
            node_repeats: false,
            moves: history,
            nodes: 0,
            seldepth: 0,
            poll_mask: shared.limits.nodes.map_or(1024, |n| (n / 16).clamp(1, 1024).next_power_of_two()) - 1,
            eval,
            corr_keys,
            checks,
            corr: tables.corr,
            heur: tables.heur,
            pv: vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            stack: [Frame::default(); MAX_PLY + 2],
            excluded: [Move::NULL; MAX_PLY + 2],
            root_moves,
            pv_idx: 0,
            root_depth: 0,
            lmr,
            clock,
            stopped: false,
            may_stop: id != 0,
            last_reported: None,
            completed: None,
        }
    }

    /// What this thread keeps for its next search.
    fn into_tables(self) -> ThreadTables {
        ThreadTables { heur: self.heur, corr: self.corr }
    }

    /// The search's tunable numbers (borrowed from the shared state, not from `self`).
    #[inline]
    pub fn params(&self) -> &'a SearchParams {
        &self.shared.params
    }

    /// Plays `m` on the search path.
    #[inline]
    pub fn push_move(&mut self, m: Move) -> crate::board::Undo {
        self.moves.push(m);
        self.eval.push_move(&self.pos, m);
        self.corr_keys.push(self.corr.key_after(&self.pos, m, self.corr_key()));
        self.checks.push(self.pos.gives_check(m));
        let u = self.pos.make_move(m);
        self.keys.push(self.pos.key());
        u
    }

    /// Takes back the last move of the search path.
    #[inline]
    pub fn pop_move(&mut self, m: Move, u: crate::board::Undo) {
        self.keys.pop();
        self.moves.pop();
        self.eval.pop();
        self.corr_keys.pop();
        self.checks.pop();
        self.pos.unmake_move(m, u);
    }

    /// Passes the turn on the search path (null move).
    #[inline]
    pub fn push_null(&mut self) -> crate::board::Undo {
        self.moves.push(Move::NULL);
        self.eval.push_null();
        self.corr_keys.push(self.corr_key());
        let u = self.pos.make_null();
        self.checks.push(self.pos.in_check());
        self.keys.push(self.pos.key());
        u
    }

    /// Takes back a null move.
    #[inline]
    pub fn pop_null(&mut self, u: crate::board::Undo) {
        self.keys.pop();
        self.moves.pop();
        self.eval.pop();
        self.corr_keys.pop();
        self.checks.pop();
        self.pos.unmake_null(u);
    }

    /// The static evaluation of the position at the top of the search path.
    #[inline]
    pub fn static_eval(&mut self) -> i32 {
        self.eval.evaluate(&self.pos)
    }

    /// A raw static evaluation with the correction history's adjustment (when switched on),
    /// kept clear of the rule and mate bands.
    #[inline]
    pub fn corrected_eval(&self, raw: i32) -> i32 {
        if !self.shared.features.correction_history {
            return raw;
        }
        (raw + self.corr.get(&self.pos, self.corr_key())).clamp(-RULE_BOUND + 1, RULE_BOUND - 1)
    }

    /// Whether the side to move is in check at the top of the search path.
    #[inline]
    pub fn in_check(&self) -> bool {
        *self.checks.last().expect("the root's entry is always there")
    }

    /// The correction history's structure key of the current position.
    #[inline]
    pub fn corr_key(&self) -> u64 {
        *self.corr_keys.last().expect("the root's key is always there")
    }

    /// Counts a node; returns true when the search must unwind now.
    #[inline]
    pub fn count_node_and_check_stop(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & self.poll_mask == 0 {
            self.poll();
        }
        if !self.stopped && self.may_stop && self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        self.stopped
    }

    /// Publishes the node count; the main thread also checks the clock and the node budget.
    fn poll(&mut self) {
        self.shared.node_counts[self.id].store(self.nodes, Ordering::Relaxed);
        let Some(clock) = &mut self.clock else {
            return;
        };
        if self.shared.control.stopped() {
            self.shared.stop.store(true, Ordering::Relaxed);
            return;
        }
        if clock.pondering {
            if !self.shared.control.ponderhit_came() {
                return;
            }
            clock.pondering = false;
            clock.tm.start = Instant::now();
        }
        let over_nodes = self.shared.limits.nodes.is_some_and(|n| self.shared.total_nodes() >= n);
        if over_nodes || clock.tm.hard_passed() {
            self.shared.stop.store(true, Ordering::Relaxed);
        }
    }

    fn elapsed_ms(&self) -> u64 {
        self.shared.start.elapsed().as_millis() as u64
    }

    /// Iterative deepening; the main thread reports through `report` and decides when to stop.
    pub fn iterate(&mut self, report: &mut dyn FnMut(Report)) {
        let limits = self.shared.limits.clone();
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH) as i32;
        let multipv = self.shared.multipv.min(self.root_moves.len()).max(1);
        let main = self.id == 0;
        let p = self.params();
        let mut last_best = Move::NULL;
        let mut best_changes = 0.0f64;
        let mut prev_iter_score = -INF;
        let mut d = 1;
        while d <= max_depth {
            // Helpers spread over depths so they fill the table ahead of the main thread.
            let depth = if main { d } else { (d + (self.id as i32 % 2)).min(max_depth) };
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                // A move that failed low has no score; an older iteration's would let it jump
                // ahead of the best when this iteration is stopped early.
                rm.prev_score = rm.score;
                rm.score = -INF;
                rm.nodes = 0;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta = p.asp_delta;
                let aspirate = depth >= p.asp_min_depth && prev.abs() < RULE_WIN / 2;
                let (mut alpha, mut beta) = if aspirate { (prev - delta, prev + delta) } else { (-INF, INF) };
                loop {
                    let score = self.root_search(depth, alpha, beta, report);
                    self.sort_root(pv_idx);
                    if self.stopped {
                        break;
                    }
                    if score <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-INF);
                        if main && self.elapsed_ms() > 1000 {
                            self.report_line(depth, pv_idx, Bound::Upper, report);
                        }
                    } else if score >= beta {
                        beta = (score + delta).min(INF);
                        if main && self.elapsed_ms() > 1000 {
                            self.report_line(depth, pv_idx, Bound::Lower, report);
                        }
                    } else {
                        break;
                    }
                    delta += delta;
                    if delta > p.asp_full_after {
                        alpha = -INF;
                        beta = INF;
                    }
                }
                // Keep the lines found so far in MultiPV order.
                self.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            self.shared.node_counts[self.id].store(self.nodes, Ordering::Relaxed);
            if !main {
                self.completed = Some((depth, self.root_moves[0].clone()));
                d += 1;
                continue;
            }
            self.may_stop = true;
            for i in 0..multipv {
                self.report_line(depth, i, Bound::Exact, report);
            }
            let best = self.root_moves[0].clone();
            if best.mv != last_best && d > 1 {
                best_changes += 1.0;
            }
            last_best = best.mv;
            if limits.mate.is_some_and(|n| best.score >= MATE_BOUND && (MATE - best.score + 1) / 2 <= n as i32) {
                break;
            }
            if let Some(clock) = &self.clock {
                if !clock.pondering {
                    // More time when the best move keeps changing or the score falls.
                    let fall =
                        if prev_iter_score > -INF { (prev_iter_score - best.score).clamp(0, p.tm_fall_cp) } else { 0 };
                    let total: u64 = self.root_moves.iter().map(|rm| rm.nodes).sum();
                    let share =
                        (self.shared.features.node_share_time && multipv == 1 && d >= p.tm_node_min_depth && total > 0)
                            .then(|| best.nodes as f64 / total as f64);
                    let stretch = TimeManager::stretch(p, best_changes, fall, share);
                    let single = self.root_moves.len() == 1 && d >= p.tm_single_depth;
                    if clock.tm.soft_passed(stretch) || (single && clock.tm.soft_ms.is_some()) {
                        break;
                    }
                }
            }
            best_changes *= p.tm_change_keep_pct as f64 / 100.0;
            prev_iter_score = best.score;
            d += 1;
        }
        self.shared.node_counts[self.id].store(self.nodes, Ordering::Relaxed);
    }

    /// Stable sort of the root moves from `from` on, best score first (previous score breaks ties).
    fn sort_root(&mut self, from: usize) {
        self.root_moves[from..].sort_by_key(|rm| std::cmp::Reverse((rm.score, rm.prev_score)));
    }

    /// Searches the root moves from `pv_idx` on with window (alpha, beta).
    fn root_search(&mut self, depth: i32, mut alpha: i32, beta: i32, report: &mut dyn FnMut(Report)) -> i32 {
        let mut best = -INF;
        let in_check = self.in_check();
        self.pv_len[0] = 0;
        for i in self.pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            if self.id == 0 && self.elapsed_ms() > 1000 {
                report(Report::CurrMove { depth: depth as u32, mv: m, number: (i + 1) as u32 });
            }
            let capture = self.pos.is_capture(m);
            let piece = super::ordering::moving_piece(&self.pos, m);
            self.stack[0] = Frame { eval: 0, mv: m, piece };
            let nodes_before = self.nodes;
            let u = self.push_move(m);
            let gives_check = self.in_check();
            let new_depth = depth - 1 + self.check_extension(gives_check, 0) as i32;
            let first = i == self.pv_idx;
            let quiet = !capture && !gives_check && !in_check;
            // A PV node whose moves all count as improving, with no history: only the move
            // number and depth set a reduction.
            let step = Step { first, move_count: i - self.pv_idx, quiet, pv_node: true, improving: true, order: 0 };
            let score = self.search_move(step, depth, new_depth, alpha, beta, 0);
            self.pop_move(m, u);
            self.root_moves[i].nodes += self.nodes - nodes_before;
            if self.stopped {
                return best;
            }
            if first || score > alpha {
                let rm = &mut self.root_moves[i];
                rm.score = score;
                rm.seldepth = self.seldepth;
                rm.bound = Bound::of(score, alpha, beta);
                rm.pv.clear();
                rm.pv.push(m);
                let child = &self.pv[1][1..self.pv_len[1].max(1)];
                rm.pv.extend_from_slice(child);
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// Runs a whole search on this thread (pool thread 0) with `helpers` searching beside it, and
/// returns the result and this thread's tables. `tables` are its last search's (`None`: a new
/// game); `control` carries the user's stop and ponderhit.
pub(crate) fn run_search(
    tt: Arc<TranspositionTable>,
    control: Arc<Control>,
    request: &SearchRequest,
    settings: &Settings,
    tables: Option<ThreadTables>,
    helpers: &[Sender<Job>],
    report: &mut dyn FnMut(Report),
) -> (SearchResult, ThreadTables) {
    let t0 = Instant::now();
    tt.new_search();
    let (start, moves) = (&request.start, &request.moves[..]);
    let mut root_pos = start.clone();
    for &m in moves {
        root_pos.make_move(m);
    }
    let mut root: Vec<Move> = root_pos.legal_moves().into_iter().collect();
    if !request.root_moves.is_empty() {
        root.retain(|m| request.root_moves.contains(m));
    }
    // Order the first iteration by the table's move, then captures.
    if let Some(e) = tt.probe(root_pos.key(), 0) {
        if let Some(i) = root.iter().position(|&m| m == e.mv) {
            root[..=i].rotate_right(1);
        }
    }
    let shared = Shared {
        tt,
        stop: AtomicBool::new(false),
        control,
        node_counts: (0..settings.threads).map(|_| AtomicU64::new(0)).collect(),
        limits: Limits {
            nodes: match (request.limits.nodes, settings.strength.node_cap) {
                (Some(n), Some(cap)) => Some(n.min(cap)),
                (n, cap) => n.or(cap),
            },
            ..request.limits.clone()
        },
        // A weakened search needs lines to choose from.
        multipv: if settings.strength.spread_cp > 0 {
            settings.multipv.max(settings.strength.lines)
        } else {
            settings.multipv
        },
        shown_lines: settings.multipv,
        strength: settings.strength,
        pick_seed: settings.pick_seed,
        features: settings.features,
        params: settings.params,
        exchange: Exchange::new(&settings.params),
        start: t0,
        loop_verdict: settings.loop_verdict,
        evaluator: settings.evaluator.clone(),
    };
    let job = Arc::new(SearchJob { shared, start: start.clone(), moves: moves.to_vec(), root });
    let tables = ThreadTables::for_search(tables, &settings.features, &settings.params);
    let mut main = Worker::new(&job.shared, 0, &job.start, &job.moves, &job.root, tables);
    if job.root.is_empty() {
        return (main.result(0), main.into_tables());
    }
    let (done, lines) = channel();
    for h in helpers {
        // A helper thread that is gone just does not help.
        let _ = h.send(Job::Helper { search: job.clone(), done: done.clone() });
    }
    drop(done);
    // Should the main thread's search panic, the helpers still stop.
    let stop_helpers = StopOnDrop(&job.shared.stop);
    main.iterate(report);
    drop(stop_helpers);
    // Every helper answers once, then drops its sender (a panicked one only drops it).
    let mut completed: Vec<(usize, Completed)> = lines.iter().collect();
    completed.sort_by_key(|&(id, _)| id);
    let completed: Vec<Completed> = completed.into_iter().map(|(_, c)| c).collect();
    let depth = main.root_depth as u32 - main.stopped as u32;
    main.finish(&completed, report);
    (main.result(depth.max(1)), main.into_tables())
}

/// Helper `id`'s part of `job`: iterative deepening beside the main thread until it stops.
/// Returns its last completed line and its tables.
pub(crate) fn help(id: usize, job: &SearchJob, tables: Option<ThreadTables>) -> (Completed, ThreadTables) {
    let tables = ThreadTables::for_search(tables, &job.shared.features, &job.shared.params);
    let mut w = Worker::new(&job.shared, id, &job.start, &job.moves, &job.root, tables);
    w.iterate(&mut |_| {});
    (w.completed.take(), w.into_tables())
}

/// Raises a stop flag when dropped, also while unwinding.
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}
