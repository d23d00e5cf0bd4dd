//! Time management: from the `go` limits to a soft limit (do not start another iteration
//! past it; stretched in unstable positions) and a hard limit (stop at once), both leaving
//! `move_overhead_ms` so the engine never loses on time.

use super::params::SearchParams;
use super::request::Limits;
use std::time::Instant;

/// Soft and hard limits for one move, in milliseconds from `start`.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    /// When the clock for this move started (reset at ponderhit).
    pub start: Instant,
    /// Target time; `None` means no clock.
    pub soft_ms: Option<u64>,
    /// Never search past this.
    pub hard_ms: Option<u64>,
    /// A fixed move time, or the last move before a control: use all of the budget.
    pub exact: bool,
    /// No new iteration past this share of the target (percent).
    soft_pct: u64,
}

impl TimeManager {
    /// Limits for `limits`, starting now.
    pub fn new(limits: &Limits, p: &SearchParams) -> TimeManager {
        let (soft_ms, hard_ms) = Self::budget(limits, p);
        // `movestogo 1` is how UCCI sends a fixed time per move, and before a control the
        // clock is about to be refilled: search to the hard limit, not just past an iteration.
        let exact = limits.movetime_ms.is_some() || (limits.time_ms.is_some() && limits.movestogo == Some(1));
        TimeManager { start: Instant::now(), soft_ms, hard_ms, exact, soft_pct: p.tm_soft_pct as u64 }
    }

    fn budget(limits: &Limits, p: &SearchParams) -> (Option<u64>, Option<u64>) {
        let overhead = limits.move_overhead_ms;
        if let Some(mt) = limits.movetime_ms {
            let t = mt.saturating_sub(overhead).max(1);
            return (Some(t), Some(t));
        }
        let Some(time) = limits.time_ms else {
            return (None, None);
        };
        // The overhead comes off once: the clock the GUI sends already shows what earlier
        // moves' transport cost, so later budgets shrink with it.
        let mtg = limits.movestogo.map_or(p.tm_moves_to_go as u64, |m| m.clamp(1, 60) as u64);
        let avail = time.saturating_sub(overhead).max(1);
        let ideal = avail / mtg + limits.inc_ms * p.tm_inc_pct as u64 / 100;
        // Never plan to use more than a share of the clock on one move.
        let cap_pct = if mtg == 1 { p.tm_last_cap_pct } else { p.tm_cap_pct } as u64;
        let cap = avail * cap_pct / 100;
        let hard = (ideal * p.tm_hard_mul as u64).min(cap).max(1);
        let soft = ideal.min(hard).max(1);
        (Some(soft), Some(hard))
    }

    /// How much to stretch the target after an iteration: more when the best move keeps
    /// changing (`best_changes`, decayed) or the score fell (`fall_cp`); scaled down when the
    /// best move took most of the iteration's nodes (`best_share`: the others were refuted
    /// quickly), up when the alternatives were hard to refute.
    pub fn stretch(p: &SearchParams, best_changes: f64, fall_cp: i32, best_share: Option<f64>) -> f64 {
        let pct = |v: i32| v as f64 / 100.0;
        let mut s = 1.0 + best_changes * pct(p.tm_change_pct) + fall_cp as f64 / p.tm_fall_cp as f64;
        if let Some(share) = best_share {
            s *= pct(p.tm_node_base_pct) + (1.0 - share) * pct(p.tm_node_mul_pct);
        }
        s.min(pct(p.tm_stretch_max_pct))
    }

    /// Milliseconds since the clock started.
    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Whether the hard limit has passed.
    pub fn hard_passed(&self) -> bool {
        self.hard_ms.is_some_and(|h| self.elapsed_ms() >= h)
    }

    /// Whether to stop after an iteration, given a stretch factor (1.0 for a quiet position,
    /// more when the best move changes or the score drops).
    pub fn soft_passed(&self, stretch: f64) -> bool {
        if self.exact {
            return false;
        }
        match (self.soft_ms, self.hard_ms) {
            (Some(s), Some(h)) => {
                let target = ((s as f64 * stretch) as u64).min(h);
                // An iteration takes a few times the previous one: don't start one that can't end.
                self.elapsed_ms() as f64 >= target as f64 * (self.soft_pct as f64 / 100.0)
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_leave_the_overhead_and_respect_the_clock() {
        let l = Limits { movetime_ms: Some(1000), move_overhead_ms: 50, ..Limits::default() };
        let tm = TimeManager::new(&l, &SearchParams::DEFAULT);
        assert_eq!((tm.soft_ms, tm.hard_ms), (Some(950), Some(950)));

        let l = Limits { time_ms: Some(60_000), inc_ms: 1000, move_overhead_ms: 30, ..Limits::default() };
        let tm = TimeManager::new(&l, &SearchParams::DEFAULT);
        let (s, h) = (tm.soft_ms.unwrap(), tm.hard_ms.unwrap());
        assert!(s <= h && h < 60_000 - 30 && s > 1000, "{s} {h}");

        // Very little time left: still a positive budget below the remaining time.
        let l = Limits { time_ms: Some(40), move_overhead_ms: 30, ..Limits::default() };
        let tm = TimeManager::new(&l, &SearchParams::DEFAULT);
        assert!(tm.hard_ms.unwrap() <= 10);

        // One move to the control: may use most, never all, of the clock.
        let l = Limits { time_ms: Some(10_000), movestogo: Some(1), move_overhead_ms: 100, ..Limits::default() };
        let tm = TimeManager::new(&l, &SearchParams::DEFAULT);
        assert!(tm.hard_ms.unwrap() < 9_900 && tm.soft_ms.unwrap() > 5_000);
        // ... and searches to that limit instead of stopping after an iteration.
        assert!(tm.exact);
        let l = Limits { movestogo: Some(2), ..l };
        assert!(!TimeManager::new(&l, &SearchParams::DEFAULT).exact);

        assert_eq!(TimeManager::new(&Limits::default(), &SearchParams::DEFAULT).hard_ms, None);
    }

    #[test]
    fn the_stretch_follows_stability_and_the_best_moves_share_of_nodes() {
        let p = SearchParams::DEFAULT;
        assert_eq!(TimeManager::stretch(&p, 0.0, 0, None), 1.0);
        // A best move that took nearly every node: well under the target.
        let stable = TimeManager::stretch(&p, 0.0, 0, Some(0.95));
        assert!(stable < 0.6, "{stable}");
        // Hard alternatives, a changing best move or a falling score: more time.
        let contested = TimeManager::stretch(&p, 0.0, 0, Some(0.4));
        assert!(contested > 1.2, "{contested}");
        assert!(TimeManager::stretch(&p, 1.0, 0, Some(0.95)) > stable);
        assert!(TimeManager::stretch(&p, 0.0, 100, Some(0.95)) > stable);
        // Never past the cap.
        let max = p.tm_stretch_max_pct as f64 / 100.0;
        assert_eq!(TimeManager::stretch(&p, 5.0, p.tm_fall_cp, Some(0.0)), max);
    }
}
