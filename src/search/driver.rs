//! The search driver: iterative deepening with aspiration windows over the root moves
//! (MultiPV, root restriction), Lazy SMP helpers, limits and reports. The per-thread state it
//! drives is in `worker.rs`; the threads that run it live in `pool.rs`.

use super::control::Control;
use super::job::Job;
use super::ordering::Exchange;
use super::outcome::{Report, SearchResult};
use super::pvs::Step;
use super::request::{Limits, SearchRequest, Settings};
use super::score::{Bound, INF, MATE, MATE_BOUND, RULE_WIN};
use super::time::TimeManager;
use super::tt::TranspositionTable;
use super::worker::{Completed, Frame, SearchJob, Shared, ThreadTables, Worker};
use crate::board::Move;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::Arc;
use std::time::Instant;

mod report;

/// Deepest nominal depth an iteration may have (a deeper `go depth` is clamped to it).
pub const MAX_DEPTH: u32 = 100;

impl Worker<'_> {
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
            let u = self.push_move(m, None);
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
