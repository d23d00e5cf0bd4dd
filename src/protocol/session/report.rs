//! The search's reports: the callback the search thread prints through (and whose drop tells
//! the loop the search ended), and `debug`'s line at `go`.

use super::Session;
use crate::board::{Move, Position};
use crate::protocol::policy::{self, Decision};
use crate::protocol::Event;
use crate::search::{Limits, Report, Score};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Carried by the report callback: when the engine drops the callback (the search has ended,
/// whether it announced a move or panicked) it marks the search ended and wakes the loop.
struct EndSignal {
    ended: Arc<AtomicBool>,
    wake: Sender<Event>,
}

impl Drop for EndSignal {
    fn drop(&mut self) {
        self.ended.store(true, Ordering::SeqCst);
        let _ = self.wake.send(Event::SearchEnded);
    }
}

/// `currmove` reports start after this much thinking.
pub const CURRMOVE_AFTER: Duration = Duration::from_secs(1);

impl Session {
    /// UCCI `debug`'s line at `go`: what is searched, with which limits and settings.
    pub(super) fn debug_go(&self, root_moves: usize, l: &Limits) -> String {
        let mut parts = Vec::new();
        let mut add = |what: &str, v: Option<u64>, unit: &str| {
            if let Some(v) = v {
                parts.push(format!("{what} {v}{unit}"));
            }
        };
        add("depth", l.depth.map(u64::from), "");
        add("nodes", l.nodes, "");
        add("movetime", l.movetime_ms, " ms");
        add("time", l.time_ms, " ms");
        add("increment", l.time_ms.map(|_| l.inc_ms), " ms");
        add("movestogo", l.movestogo.map(u64::from), "");
        add("hard cap", self.engine.hard_limit_ms(l), " ms");
        if l.pondering {
            parts.push("pondering".to_string());
        }
        if l.infinite || parts.is_empty() {
            parts.push("until stop".to_string());
        }
        let o = &self.opts;
        format!(
            "debug: go: {root_moves} root moves; {}; threads {}, hash {} MB, pruning {}, move overhead {} ms",
            parts.join(", "),
            o.threads,
            self.engine.hash_mb(),
            o.pruning,
            o.move_overhead_ms
        )
    }

    /// The callback the search thread reports through: info lines, then the move (with
    /// `debug`, after a line on the search's result and the draw/resign policy's inputs).
    /// Dropped, it sets `ended` and sends `Event::SearchEnded`.
    pub(super) fn reporter(
        &self,
        pos: Position,
        root: Vec<Move>,
        done: Arc<AtomicBool>,
        silent: Arc<AtomicBool>,
        ended: Arc<AtomicBool>,
    ) -> impl FnMut(Report) + Send + 'static {
        let end = EndSignal { ended, wake: self.wake.clone() };
        let (out, replies, history) = (self.out.clone(), self.replies.clone(), self.history.clone());
        let decision = self.decision.clone();
        let debug = self.opts.debug;
        let started = Instant::now();
        let mut last_pv: Vec<Move> = Vec::new();
        move |r: Report| {
            let _ = &end; // owned by the callback, so dropped with it
            if done.load(Ordering::SeqCst) || silent.load(Ordering::SeqCst) {
                done.store(true, Ordering::SeqCst);
                return;
            }
            match r {
                Report::Pv(info) => {
                    if info.multipv <= 1 && !info.pv.is_empty() {
                        last_pv.clone_from(&info.pv);
                    }
                    if let Some(line) = replies.info(&info) {
                        out.line(&line);
                    }
                }
                Report::CurrMove { depth, mv, number } => {
                    if started.elapsed() < CURRMOVE_AFTER {
                        return;
                    }
                    if let Some(line) = replies.currmove(depth, mv, number) {
                        out.line(&line);
                    }
                }
                Report::Done(res) => {
                    let mut lines = Vec::new();
                    let d: Decision = {
                        let mut h = history.lock().unwrap_or_else(|e| e.into_inner());
                        let offered = h.draw_offered;
                        let d = policy::decide(&pos, &root, &res, &last_pv, &mut h);
                        if debug {
                            let score = match res.score {
                                Score::Cp(cp) => format!("cp {cp}"),
                                Score::Mate(n) => format!("mate {n}"),
                            };
                            lines.push(replies.message(&format!(
                                "debug: search done: depth {}, score {score}, {} nodes; draw offered {offered}, \
                                 hopeless searches in a row {}",
                                res.depth, res.nodes, h.hopeless_streak
                            )));
                        }
                        d
                    };
                    lines.extend(replies.bestmove(&d));
                    *decision.lock().unwrap_or_else(|e| e.into_inner()) = Some(d);
                    out.final_lines(&lines, &done);
                }
            }
        }
    }
}
