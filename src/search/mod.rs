//! Search: the engine core the protocols drive. `Engine` owns the transposition table and
//! the search threads; a search runs in the background and reports through a callback.
//!
//! STUB (to be completed under the search issue): a plain alpha-beta on one thread. The
//! public API below is the contract the protocol layer codes against.

use crate::board::{Move, MoveList, Position};
use crate::eval::evaluate;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

/// Scores at or beyond this magnitude are mates.
pub const MATE: i32 = 30000;
/// Largest score below mate scores.
pub const MATE_BOUND: i32 = MATE - 1000;

/// A score from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (positive: we mate; negative: we are mated).
    Mate(i32),
}

impl Score {
    /// Converts an internal score (mates as `±(MATE - ply)`) into a `Score`.
    pub fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-((MATE + v) / 2))
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
    pub ponder: bool,
    /// Safety margin per move for communication delays.
    pub move_overhead_ms: u64,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// Best move, or `None` when there is no legal move.
    pub best: Option<Move>,
    /// Expected reply.
    pub ponder: Option<Move>,
    /// Score of the best move.
    pub score: Score,
    /// Depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// A transposition-table entry as `probe` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeInfo {
    /// Stored best move.
    pub mv: Option<Move>,
    /// Stored score (internal units) and its bound.
    pub score: i32,
    /// Exact, lower or upper.
    pub bound: Bound,
    /// Stored depth.
    pub depth: u32,
}

/// The search engine: settings, table and the background search.
pub struct Engine {
    hash_mb: usize,
    threads: usize,
    multipv: usize,
    stop: Arc<AtomicBool>,
    ponderhit: Arc<AtomicBool>,
    handle: Option<JoinHandle<SearchResult>>,
    last: Arc<Mutex<Option<SearchResult>>>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// A new engine with a 16 MB table and one thread.
    pub fn new() -> Engine {
        Engine {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            stop: Arc::new(AtomicBool::new(false)),
            ponderhit: Arc::new(AtomicBool::new(false)),
            handle: None,
            last: Arc::new(Mutex::new(None)),
        }
    }

    /// Resizes the table (call while idle).
    pub fn set_hash_mb(&mut self, mb: usize) {
        self.hash_mb = mb.max(1);
    }

    /// Current table size in MB.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Sets the number of search threads (call while idle).
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.max(1);
    }

    /// Sets how many principal variations to report.
    pub fn set_multipv(&mut self, n: usize) {
        self.multipv = n.max(1);
    }

    /// Forgets everything learned (new game).
    pub fn clear(&mut self) {}

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.handle.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// Starts a background search of the position reached by playing `moves` (legal, already
    /// checked) from `start`. `root_moves` restricts the root (empty: all legal moves).
    /// `report` is called from the search thread; its last call is `Report::Done`.
    pub fn start(
        &mut self,
        start: &Position,
        moves: &[Move],
        limits: Limits,
        root_moves: &[Move],
        mut report: impl FnMut(Report) + Send + 'static,
    ) {
        self.wait();
        self.stop.store(false, Ordering::SeqCst);
        self.ponderhit.store(false, Ordering::SeqCst);
        let mut pos = start.clone();
        for &m in moves {
            pos.make_move(m);
        }
        let root_moves: Vec<Move> = root_moves.to_vec();
        let stop = self.stop.clone();
        let ponderhit = self.ponderhit.clone();
        let last = self.last.clone();
        self.handle = Some(std::thread::spawn(move || {
            let result = simple_search(&mut pos, &limits, &root_moves, &stop, &mut report);
            while limits.ponder && !stop.load(Ordering::SeqCst) && !ponderhit.load(Ordering::SeqCst) {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            *last.lock().unwrap() = Some(result.clone());
            report(Report::Done(result.clone()));
            result
        }));
    }

    /// Asks the running search to finish now.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// The pondered move was played: the clock limits apply from now.
    pub fn ponderhit(&self) {
        self.ponderhit.store(true, Ordering::SeqCst);
    }

    /// Waits for the running search (if any) and returns its result.
    pub fn wait(&mut self) -> Option<SearchResult> {
        self.handle.take().and_then(|h| h.join().ok())
    }

    /// Looks `pos` up in the transposition table.
    pub fn probe(&self, _pos: &Position) -> Option<ProbeInfo> {
        None
    }

    /// Searches synchronously (for `bench` and tests) and returns the result.
    pub fn search_sync(&mut self, start: &Position, moves: &[Move], limits: Limits) -> SearchResult {
        self.start(start, moves, limits, &[], |_| {});
        self.wait().expect("search thread finished")
    }
}

fn simple_search(
    pos: &mut Position,
    limits: &Limits,
    root_moves: &[Move],
    stop: &AtomicBool,
    report: &mut impl FnMut(Report),
) -> SearchResult {
    let start = Instant::now();
    let mut moves = pos.legal_moves();
    if !root_moves.is_empty() {
        moves.retain(|m| root_moves.contains(m));
    }
    let mut result =
        SearchResult { best: moves.first().copied(), ponder: None, score: Score::Cp(0), depth: 0, nodes: 0 };
    let max_depth = limits.depth.unwrap_or(if limits.infinite || limits.ponder { 64 } else { 4 }).min(64);
    let budget = limits.movetime_ms.or(limits.time_ms.map(|t| t / 30 + limits.inc_ms / 2));
    let mut nodes = 0u64;
    for depth in 1..=max_depth {
        let mut best = (-MATE - 1, None);
        for &m in &moves {
            let u = pos.make_move(m);
            let v = -alphabeta(pos, depth - 1, -MATE - 1, -best.0, 1, &mut nodes, stop);
            pos.unmake_move(m, u);
            if v > best.0 {
                best = (v, Some(m));
            }
        }
        if stop.load(Ordering::Relaxed) {
            break;
        }
        result = SearchResult { best: best.1, ponder: None, score: Score::from_internal(best.0), depth, nodes };
        let ms = start.elapsed().as_millis() as u64;
        report(Report::Pv(Info {
            depth,
            seldepth: depth,
            multipv: 1,
            score: result.score,
            bound: Bound::Exact,
            nodes,
            nps: nodes * 1000 / ms.max(1),
            time_ms: ms,
            hashfull: 0,
            pv: best.1.into_iter().collect(),
        }));
        if budget.is_some_and(|b| ms * 2 > b) || limits.nodes.is_some_and(|n| nodes >= n) {
            break;
        }
    }
    result
}

fn alphabeta(
    pos: &mut Position,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    ply: i32,
    nodes: &mut u64,
    stop: &AtomicBool,
) -> i32 {
    *nodes += 1;
    if depth == 0 || stop.load(Ordering::Relaxed) {
        return evaluate(pos);
    }
    let mut moves = MoveList::new();
    pos.generate_legal(&mut moves);
    if moves.is_empty() {
        return -MATE + ply;
    }
    for &m in &moves {
        let u = pos.make_move(m);
        let v = -alphabeta(pos, depth - 1, -beta, -alpha, ply + 1, nodes, stop);
        pos.unmake_move(m, u);
        if v >= beta {
            return v;
        }
        alpha = alpha.max(v);
    }
    alpha
}
