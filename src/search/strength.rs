//! Playing below full strength, for people: a depth cap and a random pick among the best lines.
//!
//! A weakened search looks at `lines` root lines (MultiPV, at least) within `node_cap` nodes
//! (so a level plays alike at any time control and on any machine), then plays the line whose score plus a uniform random bonus in `0..spread` is
//! highest. So the move played is never worse than the best by more than `spread` centipawns
//! in the engine's own judgement, and mates are never thrown away for a quiet move. UCI's
//! `Skill Level` and `UCI_Elo` and UCCI's `randomness` are all expressed this way; the
//! calibration of levels against Elo is in `docs/strength.md`.

use crate::board::zobrist::Rng;

/// How the engine holds back in one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// Most nodes searched (`None`: no cap).
    pub node_cap: Option<u64>,
    /// Root lines the pick chooses among (1: the best line only).
    pub lines: usize,
    /// Random bonus range in centipawns (0: always the best line).
    pub spread_cp: i32,
}

/// Skill levels run from 0 to this (full strength).
pub const MAX_SKILL: u32 = 20;
/// Root lines a weakened search compares.
pub const WEAK_LINES: usize = 4;
/// Random spread per skill level below the top, centipawns.
pub const SPREAD_PER_LEVEL: f64 = 10.0;
/// The node cap of skill level L is `NODES_AT_ZERO · 2^(NODES_DOUBLING · L)`: 300 nodes at
/// level 0 (about the first iteration from the start, which always completes), 8,300 at 8,
/// 630,000 at 19 (a second or so).
pub const NODES_AT_ZERO: f64 = 300.0;
/// See `NODES_AT_ZERO`: each level multiplies the budget by 2^0.6 ≈ 1.5.
pub const NODES_DOUBLING: f64 = 0.6;

/// UCCI `randomness` grades and their spread in centipawns: small enough below `large` that
/// the engine plays a sound game with variety, visibly loose at `huge`.
pub const RANDOMNESS_SPREAD: [(&str, i32); 6] =
    [("none", 0), ("tiny", 8), ("small", 16), ("medium", 32), ("large", 64), ("huge", 128)];

/// Measured Elo of skill levels on the `UCI_Elo` scale, weakest first: full strength is set at
/// 2500 and each level below follows from the measured difference to the next
/// (`docs/strength.md`, "Skill levels").
pub const SKILL_ELO: [(f64, i32); 8] =
    [(0.0, 363), (3.0, 686), (6.0, 1049), (9.0, 1625), (12.0, 1988), (15.0, 2236), (18.0, 2321), (20.0, 2500)];

/// Lowest and highest `UCI_Elo`.
pub const ELO_RANGE: (i32, i32) = (SKILL_ELO[0].1, SKILL_ELO[SKILL_ELO.len() - 1].1);

impl Strength {
    /// Full strength: no cap, the best line.
    pub const FULL: Strength = Strength { node_cap: None, lines: 1, spread_cp: 0 };

    /// Whether this holds nothing back.
    pub fn is_full(&self) -> bool {
        self.node_cap.is_none() && self.spread_cp == 0
    }

    /// A skill level in `0.0..=20.0` (fractions blend between levels); 20 is full strength.
    /// Each level below 20 allows about 1.6 times fewer nodes (level 0: the first iteration
    /// only) and 10 cp more spread. Nodes, not depth: a depth cap makes odd and even levels
    /// differ in kind (measured: level 2 at 3 plies beat level 3 at 4, 55-38-7).
    pub fn skill(level: f64) -> Strength {
        let level = level.clamp(0.0, MAX_SKILL as f64);
        if level >= MAX_SKILL as f64 {
            return Strength::FULL;
        }
        Strength {
            node_cap: Some((NODES_AT_ZERO * (NODES_DOUBLING * level).exp2()).round() as u64),
            lines: WEAK_LINES,
            spread_cp: ((MAX_SKILL as f64 - level) * SPREAD_PER_LEVEL).round() as i32,
        }
    }

    /// The skill that plays at `elo` on the calibrated scale (clamped to its range).
    pub fn elo(elo: i32) -> Strength {
        Strength::skill(skill_for_elo(elo))
    }

    /// Adds UCCI `randomness` (a grade of `RANDOMNESS_SPREAD`) to this strength.
    pub fn with_randomness(self, grade: &str) -> Strength {
        let spread = RANDOMNESS_SPREAD.iter().find(|(g, _)| g.eq_ignore_ascii_case(grade)).map_or(0, |&(_, s)| s);
        if spread == 0 {
            return self;
        }
        Strength { lines: self.lines.max(WEAK_LINES), spread_cp: self.spread_cp.max(spread), ..self }
    }
}

/// The fractional skill level whose calibrated Elo is `elo` (linear between measured levels).
pub fn skill_for_elo(elo: i32) -> f64 {
    let (first, last) = (SKILL_ELO[0], SKILL_ELO[SKILL_ELO.len() - 1]);
    if elo <= first.1 {
        return first.0;
    }
    if elo >= last.1 {
        return last.0;
    }
    for w in SKILL_ELO.windows(2) {
        let ((s0, e0), (s1, e1)) = (w[0], w[1]);
        if elo <= e1 && e1 > e0 {
            return s0 + (s1 - s0) * (elo - e0) as f64 / (e1 - e0) as f64;
        }
    }
    last.0
}

/// Which of `scores` (the lines' scores, best first) to play: the highest score plus a random
/// bonus in `0..spread_cp`. Decisive scores (at or beyond `decisive`) get no bonus, so a mate
/// is never traded for a quiet move and a quiet move never for a mate against.
pub fn pick_line(scores: &[i32], spread_cp: i32, decisive: i32, rng: &mut Rng) -> usize {
    if spread_cp <= 0 || scores.len() < 2 {
        return 0;
    }
    let mut best = (0, i64::MIN);
    for (i, &s) in scores.iter().enumerate() {
        let bonus = if s.abs() >= decisive { 0 } else { rng.below(spread_cp as usize) as i64 };
        let value = s as i64 + bonus;
        if value > best.1 {
            best = (i, value);
        }
    }
    best.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_cap_depth_and_widen_the_spread() {
        assert_eq!(Strength::skill(20.0), Strength::FULL);
        assert!(Strength::FULL.is_full());
        let zero = Strength { node_cap: Some(300), lines: WEAK_LINES, spread_cp: 200 };
        assert_eq!(Strength::skill(0.0), zero);
        let ten = Strength { node_cap: Some(19200), lines: WEAK_LINES, spread_cp: 100 };
        assert_eq!(Strength::skill(10.0), ten);
        assert_eq!(Strength::skill(19.5).spread_cp, 5);
        assert_eq!(Strength::skill(-3.0), Strength::skill(0.0));
        for l in 0..20 {
            let (a, b) = (Strength::skill(l as f64), Strength::skill(l as f64 + 1.0));
            assert!(a.spread_cp > b.spread_cp, "level {l}");
            assert!(a.node_cap < b.node_cap.or(Some(u64::MAX)), "level {l}");
        }
    }

    #[test]
    fn randomness_only_adds() {
        assert_eq!(Strength::FULL.with_randomness("none"), Strength::FULL);
        assert_eq!(Strength::FULL.with_randomness("bogus"), Strength::FULL);
        let r = Strength::FULL.with_randomness("Medium");
        assert_eq!(r, Strength { node_cap: None, lines: WEAK_LINES, spread_cp: 32 });
        assert_eq!(Strength::skill(0.0).with_randomness("huge").spread_cp, 200, "the larger spread wins");
        assert_eq!(Strength::skill(19.0).with_randomness("huge").spread_cp, 128);
    }

    #[test]
    fn elo_maps_into_the_measured_range_monotonically() {
        assert_eq!(skill_for_elo(ELO_RANGE.0 - 500), 0.0);
        assert_eq!(skill_for_elo(ELO_RANGE.1 + 500), MAX_SKILL as f64);
        assert!(Strength::elo(ELO_RANGE.1).is_full());
        let mut last = -1.0;
        for elo in (ELO_RANGE.0..=ELO_RANGE.1).step_by(25) {
            let s = skill_for_elo(elo);
            assert!(s >= last, "{elo}: {s} < {last}");
            last = s;
        }
        for w in SKILL_ELO.windows(2) {
            assert!(w[0].0 < w[1].0 && w[0].1 < w[1].1, "the table rises: {w:?}");
            assert!((skill_for_elo(w[1].1) - w[1].0).abs() < 1e-9);
        }
    }

    #[test]
    fn the_pick_stays_within_the_spread_and_follows_it() {
        let mut rng = Rng::new(7);
        let scores = [50, 45, 20, -200];
        let mut counts = [0; 4];
        for _ in 0..10_000 {
            counts[pick_line(&scores, 40, 20_000, &mut rng)] += 1;
        }
        assert_eq!(counts[3], 0, "250 cp below the best, beyond a 40 cp spread");
        assert!(counts[0] > counts[1] && counts[1] > counts[2] && counts[2] > 0, "{counts:?}");
        assert_eq!(pick_line(&scores, 0, 20_000, &mut rng), 0);
        assert_eq!(pick_line(&[10], 500, 20_000, &mut rng), 0);
        for _ in 0..1000 {
            assert_eq!(pick_line(&[29_990, 100, 90], 500, 20_000, &mut rng), 0, "a mate is kept");
            assert_ne!(pick_line(&[100, -29_990], 500, 20_000, &mut rng), 1, "a mate against is avoided");
        }
    }
}
