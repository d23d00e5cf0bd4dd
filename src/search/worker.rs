//! One search thread's state (`Worker`): the position and the path to it, the histories and
//! corrections, the evaluator's state, the search stack and the root moves; making and taking
//! back moves on the path, the evaluation, the node count and the poll. What the threads share
//! (`Shared`), one search as the helpers see it (`SearchJob`) and what a thread keeps from
//! search to search (`ThreadTables`). The search itself is in `driver.rs`, `pvs.rs` and
//! `qsearch.rs`.

use super::control::Control;
use super::correction::CorrectionHistory;
use super::ordering::{Exchange, Heuristics};
use super::params::{Features, SearchParams};
use super::request::{Limits, LoopJudge};
use super::score::{Bound, INF, MAX_PLY, RULE_BOUND};
use super::strength::Strength;
use super::time::TimeManager;
use super::tt::TranspositionTable;
use crate::board::{Move, Position};
use crate::eval::{EvalState, Evaluator};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

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
    pub(super) fn current_score(&self) -> i32 {
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
    pub(super) fn for_search(kept: Option<ThreadTables>, features: &Features, params: &SearchParams) -> ThreadTables {
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
    pub start: Position,
    pub moves: Vec<Move>,
    pub root: Vec<Move>,
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
    pub(super) fn into_tables(self) -> ThreadTables {
        ThreadTables { heur: self.heur, corr: self.corr }
    }

    /// The search's tunable numbers (borrowed from the shared state, not from `self`).
    #[inline]
    pub fn params(&self) -> &'a SearchParams {
        &self.shared.params
    }

    /// Plays `m` on the search path; `gives_check` is whether it checks, if the caller
    /// already knows (else it is found here).
    #[inline]
    pub fn push_move(&mut self, m: Move, gives_check: Option<bool>) -> crate::board::Undo {
        self.tt.prefetch(self.pos.key_after(m));
        self.moves.push(m);
        self.eval.push_move(&self.pos, m);
        self.corr_keys.push(self.corr.key_after(&self.pos, m, self.corr_key()));
        self.checks.push(gives_check.unwrap_or_else(|| self.pos.gives_check(m)));
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

    pub(super) fn elapsed_ms(&self) -> u64 {
        self.shared.start.elapsed().as_millis() as u64
    }
}
