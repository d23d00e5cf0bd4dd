//! Search: the engine core the protocols drive. `Engine` owns the transposition table and
//! the search threads; a search runs in the background and reports through a callback.
//!
//! Files: `score.rs` (mate and rule bands, `Score`, `Bound`), `request.rs` (what a search is
//! asked: `SearchRequest`, `Limits`, `Settings`), `outcome.rs` (what it tells: `Report`,
//! `Info`, `SearchResult`), `pool.rs` (the search threads, parked between searches), `job.rs`
//! (what a thread is asked to do), `control.rs` (the user's signals), `driver.rs` (iterative
//! deepening, aspiration, MultiPV, Lazy SMP, reports), `worker.rs` (one search thread's state,
//! what the threads share), `pvs.rs` (alpha-beta, rules of the game, pruning, the move step the
//! root shares), `qsearch.rs`, `ordering.rs`, `correction.rs` (correction history), `tt.rs`,
//! `time.rs`, `params.rs` (every tunable number and switch). This file is the `Engine` on top
//! of them; none of them reads it.

mod control;
mod correction;
mod driver;
mod job;
mod ordering;
mod outcome;
mod params;
mod picker;
mod pool;
mod pvs;
mod qsearch;
mod request;
mod score;
mod strength;
mod time;
mod tt;
mod worker;

#[cfg(test)]
mod tests;

pub use driver::MAX_DEPTH;
pub use outcome::{Info, Report, SearchResult};
pub use params::{Features, ParamSpec, SearchParams, SwitchSpec, SPSA_LEARNING_RATE};
pub use request::{Limits, SearchRequest};
pub use score::{Bound, Score, MATE, MATE_BOUND, RULE_BOUND, RULE_WIN};
pub use strength::{Strength, ELO_RANGE, MAX_SKILL};

use crate::board::{Move, Position};
use crate::eval::Evaluator;
use control::Control;
use job::MainJob;
use pool::Pool;
use request::Settings;
use std::sync::mpsc::{channel, Receiver, TryRecvError};
use std::sync::Arc;
use tt::TranspositionTable;

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

/// The search engine: settings, table and the search threads, which live as long as it does.
pub struct Engine {
    tt: Arc<TranspositionTable>,
    hash_mb: usize,
    settings: Settings,
    control: Arc<Control>,
    pool: Pool,
    /// The search started last, until its result is taken.
    pending: Option<Pending>,
    /// Draws each search's `pick_seed`.
    rng: crate::board::zobrist::Rng,
}

/// A started search's result: on its way, or arrived before anyone waited.
struct Pending {
    result: Receiver<SearchResult>,
    arrived: Option<SearchResult>,
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
            tt: Arc::new(TranspositionTable::new(16)),
            hash_mb: 16,
            settings: Settings {
                threads: 1,
                multipv: 1,
                features: Features::default(),
                params: SearchParams::DEFAULT,
                strength: Strength::FULL,
                pick_seed: 0,
                loop_verdict: crate::rules::loop_verdict,
                evaluator: Evaluator::default(),
            },
            control: Arc::default(),
            pool: Pool::default(),
            pending: None,
            rng: crate::board::zobrist::Rng::from_clock(),
        }
    }

    /// Resizes the table to `mb` megabytes (call while idle; clears it). When the machine
    /// cannot give that much (more than three quarters of the free memory, or the allocation
    /// fails) the size is halved until it fits, and the returned note says what was used.
    pub fn set_hash_mb(&mut self, mb: usize) -> Option<String> {
        let mb = mb.max(1);
        self.stop_and_wait();
        if mb == self.hash_mb {
            return None;
        }
        self.hash_mb = mb;
        // Free the old table before allocating the new one.
        self.tt = Arc::new(TranspositionTable::new(1));
        let mut size = mb;
        let mut why = None;
        if let Some(free) = crate::memory::free_memory_mb() {
            let cap = crate::memory::usable_of(free);
            if size > cap {
                while size > cap && size > 1 {
                    size /= 2;
                }
                why = Some(format!("only {free} MB of memory is free"));
            }
        }
        loop {
            if let Some(table) = TranspositionTable::try_new(size) {
                self.tt = Arc::new(table);
                break;
            }
            why = Some("the memory could not be allocated".to_string());
            if size == 1 {
                // The 1 MB table allocated above stays.
                break;
            }
            size /= 2;
        }
        why.map(|why| format!("Hash {mb} MB: {why}; using {} MB", self.hash_mb()))
    }

    /// Current table size in MB (as allocated).
    pub fn hash_mb(&self) -> usize {
        self.tt.bytes() >> 20
    }

    /// Sets the number of search threads: threads are started or ended now if searches have
    /// started any (a search running is stopped first). More threads than the machine has
    /// cores are kept (they share the cores; each costs well under a megabyte), and the
    /// returned note says so.
    pub fn set_threads(&mut self, n: usize) -> Option<String> {
        self.stop_and_wait();
        self.settings.threads = n.clamp(1, 256);
        if self.pool.started() {
            self.pool.resize(self.settings.threads);
        }
        let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
        (self.settings.threads > cores).then(|| {
            format!(
                "Threads {}: this machine has {cores} logical core{}; the threads share them",
                self.settings.threads,
                if cores == 1 { "" } else { "s" }
            )
        })
    }

    /// Number of search threads.
    pub fn threads(&self) -> usize {
        self.settings.threads
    }

    /// Sets how many principal variations to report.
    pub fn set_multipv(&mut self, n: usize) {
        self.settings.multipv = n.clamp(1, 500);
    }

    /// Switches selective-search techniques on or off (for measuring them).
    pub fn set_features(&mut self, features: Features) {
        self.settings.features = features;
    }

    /// Sets how much the engine holds back from the next search on.
    pub fn set_strength(&mut self, strength: Strength) {
        self.settings.strength = strength;
    }

    /// How much the engine holds back now.
    pub fn strength(&self) -> Strength {
        self.settings.strength
    }

    /// Seeds the pick among lines of weakened searches (tests; play seeds from the clock).
    pub fn seed_strength_pick(&mut self, seed: u64) {
        self.rng = crate::board::zobrist::Rng::new(seed);
    }

    /// The search's tunable numbers now.
    pub fn params(&self) -> SearchParams {
        self.settings.params
    }

    /// Whether `name` is a switch or parameter `set_tunable` takes.
    pub fn is_tunable(name: &str) -> bool {
        Features::default().switch(name).is_some() || SearchParams::spec(name).is_some()
    }

    /// Sets a selective-technique switch (`null_move`, `lmr`, ...: true/false) or a search
    /// parameter (`rfp_margin`, ...: an integer in its range) by name; the protocols' hidden
    /// options, so `chuhe match` and tuners reach them. Takes effect at the next search.
    pub fn set_tunable(&mut self, name: &str, value: &str) -> Result<(), String> {
        let value = value.trim();
        if let Some(flag) = self.settings.features.switch(name) {
            *flag = match value.to_ascii_lowercase().as_str() {
                "true" | "on" | "1" => true,
                "false" | "off" | "0" => false,
                _ => return Err(format!("{name} takes true or false, not '{value}'")),
            };
            return Ok(());
        }
        let spec = SearchParams::spec(name).ok_or_else(|| format!("no search parameter or switch '{name}'"))?;
        let number = value.parse().map_err(|_| format!("{} takes an integer, not '{value}'", spec.name))?;
        self.settings.params.set(spec.name, number)
    }

    /// Sets the evaluation the next searches call.
    pub fn set_evaluator(&mut self, evaluator: Evaluator) {
        self.stop_and_wait();
        self.settings.evaluator = evaluator;
    }

    /// The evaluation searches call now.
    pub fn evaluator(&self) -> &Evaluator {
        &self.settings.evaluator
    }

    /// Replaces the repetition judge (tests check the search against a known verdict).
    #[cfg(test)]
    pub(crate) fn set_loop_verdict(&mut self, judge: request::LoopJudge) {
        self.settings.loop_verdict = judge;
    }

    /// Forgets everything learned (new game): the table and each thread's histories. A table of 64 MB or more is swapped for a fresh
    /// one instead of wiped: Xiangqi Lab sends `ucinewgame` before every search with `Hash
    /// 2048`, and wiping 2 GB costs more than its short searches; a fresh table costs only the
    /// pages the next search touches (large allocations come straight from the kernel, zeroed).
    pub fn clear(&mut self) {
        self.stop_and_wait();
        match (self.tt.bytes() >= 64 << 20).then(|| self.tt.fresh()).flatten() {
            Some(table) => self.tt = Arc::new(table),
            None => self.tt.clear_with(self.settings.threads),
        }
        self.pool.forget();
    }

    /// Whether a search is running (one that ended without a result, by a panic, is not).
    pub fn is_searching(&mut self) -> bool {
        let Some(p) = &mut self.pending else { return false };
        if p.arrived.is_none() {
            match p.result.try_recv() {
                Ok(r) => p.arrived = Some(r),
                Err(TryRecvError::Empty) => return true,
                Err(TryRecvError::Disconnected) => {}
            }
        }
        false
    }

    /// Starts a background search of `request` (its moves legal, already checked; if none of
    /// its root moves is legal the result has no best move). `report` is called from the
    /// search thread; its last call is `Report::Done`, which a ponder or infinite search sends
    /// only after `stop` (or, pondering, after `ponderhit` and a limit). `report` is dropped
    /// when the search has ended, also when it ended without `Done` (a panic).
    pub fn start(&mut self, request: SearchRequest, report: impl FnMut(Report) + Send + 'static) {
        let pick_seed = self.rng.next_u64();
        self.launch(request, pick_seed, Box::new(report));
    }

    /// Starts a search on the pool's thread 0 with this seed for a weakened pick.
    fn launch(&mut self, request: SearchRequest, pick_seed: u64, report: Box<dyn FnMut(Report) + Send>) {
        // A search still running (even an infinite one) is stopped first, never waited on.
        self.stop_and_wait();
        self.control.reset();
        self.pool.resize(self.settings.threads);
        let (result, arrives) = channel();
        let settings = Settings { pick_seed, ..self.settings.clone() };
        self.pool.run(MainJob {
            tt: self.tt.clone(),
            control: self.control.clone(),
            request,
            settings,
            report,
            result,
        });
        self.pending = Some(Pending { result: arrives, arrived: None });
    }

    /// Asks the running search to finish now.
    pub fn stop(&self) {
        self.control.stop();
    }

    /// The pondered move was played: the clock limits apply from now.
    pub fn ponderhit(&self) {
        self.control.ponderhit();
    }

    /// The hard time limit a search with `limits` stops at, in milliseconds from its start
    /// (from `ponderhit` when pondering); `None`: no clock.
    pub fn hard_limit_ms(&self, limits: &Limits) -> Option<u64> {
        time::TimeManager::new(limits, &self.settings.params).hard_ms
    }

    /// Stops the running search, if any, and waits for its `Done`.
    fn stop_and_wait(&mut self) {
        if self.pending.is_some() {
            self.stop();
            self.wait();
        }
    }

    /// Waits for the search started last (if its result was not taken yet) and returns its
    /// result; `None` when there is none or it ended without one.
    pub fn wait(&mut self) -> Option<SearchResult> {
        let p = self.pending.take()?;
        p.arrived.or_else(|| p.result.recv().ok())
    }

    /// Looks `pos` up in the transposition table.
    pub fn probe(&self, pos: &Position) -> Option<ProbeInfo> {
        self.tt.probe(pos.key(), 0).map(|e| ProbeInfo {
            mv: (!e.mv.is_null()).then_some(e.mv),
            score: e.score,
            bound: e.bound,
            depth: e.depth.max(0) as u32,
        })
    }

    /// Searches synchronously (for `bench` and tests) and returns the result.
    pub fn search_sync(&mut self, start: &Position, moves: &[Move], limits: Limits) -> SearchResult {
        self.start(SearchRequest::new(start, moves, limits), |_| {});
        self.wait().expect("the search ended without a result")
    }

    /// Searches synchronously, collecting every report but the final `Done` (for tests and
    /// tools; a weakened pick is seeded with 0, so the same search picks the same).
    pub fn search_collect(&mut self, request: &SearchRequest) -> (SearchResult, Vec<Report>) {
        let (tx, reports) = channel();
        let report = move |r: Report| {
            if !matches!(r, Report::Done(_)) {
                let _ = tx.send(r);
            }
        };
        self.launch(request.clone(), self.settings.pick_seed, Box::new(report));
        let result = self.wait().expect("the search ended without a result");
        (result, reports.try_iter().collect())
    }
}

impl Drop for Engine {
    /// Stops a running search, so the threads can end.
    fn drop(&mut self) {
        self.stop_and_wait();
    }
}
