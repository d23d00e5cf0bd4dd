//! How engines used their clocks, read back from PGN: each move's time from its comment
//! (`{+0.35/12 1.2s}`), each side's control from `[TimeControl]` (or `[RedTimeControl]` and
//! `[BlackTimeControl]`). What `chuhe stats -clock` prints.

use super::engine::Limit;
use super::pgn::PgnGame;
use crate::rules::GameResult;

/// The time in a move comment as this runner and cutechess-cli write it (`+0.35/12 1.2s`):
/// the first word that is a number of seconds followed by `s`.
pub fn comment_ms(comment: &str) -> Option<u64> {
    comment.split_whitespace().find_map(|w| {
        let secs: f64 = w.strip_suffix('s')?.parse().ok()?;
        (secs.is_finite() && secs >= 0.0).then(|| (secs * 1000.0).round() as u64)
    })
}

/// One engine's clock use over many games.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClockUse {
    /// Games with at least one timed move.
    pub games: usize,
    /// Its moves with a time in their comment.
    pub moves: usize,
    /// Its moves without one (opening moves not counted).
    pub untimed: usize,
    /// Milliseconds used, summed over the games.
    pub used_ms: u64,
    /// Milliseconds it had (base per period started plus increments, or move times), summed.
    pub had_ms: u64,
    /// The lowest and highest share of its clock one game used.
    pub share_range: Option<(f64, f64)>,
    /// Its longest move.
    pub longest_ms: u64,
    /// The least time left on its clock after a move (before the increment); `None` without
    /// a clock.
    pub least_left_ms: Option<i64>,
    /// Games it lost on time.
    pub forfeits: usize,
}

impl ClockUse {
    /// Adds one game in which it played `side` (true: Red) under `limit`.
    pub fn add(&mut self, g: &PgnGame, red: bool, limit: Limit) {
        let black_first = g.tag("FEN").and_then(|f| f.split_whitespace().nth(1)) == Some("b");
        // Opening moves carry no comment: the engine's moves start at the first timed one.
        let Some(first) = g.comments.iter().position(|c| c.as_deref().and_then(comment_ms).is_some()) else {
            return;
        };
        let mut times = Vec::new();
        for (i, c) in g.comments.iter().enumerate().skip(first) {
            if (i % 2 == 0) == (red != black_first) {
                times.push(c.as_deref().and_then(comment_ms));
            }
        }
        let timed: Vec<u64> = times.iter().flatten().copied().collect();
        if timed.is_empty() {
            return;
        }
        let used: u64 = timed.iter().sum();
        let n = times.len() as u64;
        let had = match limit {
            Limit::Clock { moves, base_ms, inc_ms } => {
                let periods = if moves == 0 { 1 } else { n.div_ceil(moves as u64) };
                base_ms * periods + inc_ms * n
            }
            Limit::MoveTime(ms) => ms * n,
            Limit::Nodes(_) | Limit::Depth(_) => 0,
        };
        if let Limit::Clock { moves, base_ms, inc_ms } = limit {
            let (mut clock, mut least) = (base_ms as i64, i64::MAX);
            for (k, t) in times.iter().enumerate() {
                if moves > 0 && k > 0 && k % moves as usize == 0 {
                    clock += base_ms as i64;
                }
                clock -= t.unwrap_or(0) as i64;
                least = least.min(clock);
                clock += inc_ms as i64;
            }
            self.least_left_ms = Some(self.least_left_ms.map_or(least, |l| l.min(least)));
        }
        if had > 0 {
            let share = used as f64 / had as f64;
            self.share_range = Some(self.share_range.map_or((share, share), |(lo, hi)| (lo.min(share), hi.max(share))));
        }
        self.games += 1;
        self.moves += timed.len();
        self.untimed += times.len() - timed.len();
        self.used_ms += used;
        self.had_ms += had;
        self.longest_ms = self.longest_ms.max(timed.iter().copied().max().unwrap_or(0));
        let lost = g.result == Some(if red { GameResult::BlackWins } else { GameResult::RedWins });
        if lost && g.tag("Termination") == Some("time forfeit") {
            self.forfeits += 1;
        }
    }

    /// One line: `NAME (TC): 100 games, 7512 timed moves; 26.7 s a game, 78% of its clock
    /// (51-95% by game); longest move 2.31 s; least left 1.20 s; 0 time forfeits`.
    pub fn line(&self, name: &str, tc: &str) -> String {
        let s = |ms: u64| format!("{:.2} s", ms as f64 / 1000.0);
        let mut out = format!("{name} ({tc}): {} games, {} timed moves", self.games, self.moves);
        if self.untimed > 0 {
            out += &format!(" ({} without a time)", self.untimed);
        }
        if self.games == 0 {
            return out;
        }
        out += &format!("; {:.1} s a game", self.used_ms as f64 / 1000.0 / self.games as f64);
        if let (true, Some((lo, hi))) = (self.had_ms > 0, self.share_range) {
            let pct = 100.0 * self.used_ms as f64 / self.had_ms as f64;
            out += &format!(", {pct:.0}% of its clock ({:.0}-{:.0}% by game)", 100.0 * lo, 100.0 * hi);
        }
        out += &format!("; longest move {}", s(self.longest_ms));
        if let Some(l) = self.least_left_ms {
            let sign = if l < 0 { "-" } else { "" };
            out += &format!("; least left {sign}{}", s(l.unsigned_abs()));
        }
        out + &format!("; {} time forfeits", self.forfeits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::pgn::read_games;

    #[test]
    fn comment_times() {
        assert_eq!(comment_ms("+0.35/12 1.2s"), Some(1200));
        assert_eq!(comment_ms("-M2 123s"), Some(123_000));
        assert_eq!(comment_ms("0.00/1 0s"), Some(0));
        assert_eq!(comment_ms("book"), None);
        assert_eq!(comment_ms("Red makes an illegal move: a0a9"), None);
        assert_eq!(comment_ms("-1s"), None);
    }

    const GAME: &str = "[Red \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n[TimeControl \"2+0.5\"]\n\
        [Termination \"time forfeit\"]\n\
        1. H2-E2 H9-G7 2. H0-G2 {+0.10/5 1s} G9-E7 {-0.2/5 0.5s} 3. I0-H0 {+0.1/6 1.2s} \
        E7-G9 {0.00/6 0.25s} 4. H0-H4 {+0.3/7 1.40s} {Red loses on time} 0-1\n";

    #[test]
    fn one_game_by_side() {
        let g = &read_games(GAME)[0];
        assert_eq!(g.comments.len(), 7);
        assert_eq!(g.comments[0], None);
        assert_eq!(g.comments[6].as_deref(), Some("+0.3/7 1.40s"));
        let tc = Limit::Clock { moves: 0, base_ms: 2_000, inc_ms: 500 };
        let mut red = ClockUse::default();
        red.add(g, true, tc);
        // Red: 1 s, 1.2 s, 1.4 s out of 2 s + 3 × 0.5 s; its clock 1.0, 0.3 (after +0.5), -0.6.
        assert_eq!((red.games, red.moves, red.used_ms, red.had_ms), (1, 3, 3_600, 3_500));
        assert_eq!((red.longest_ms, red.least_left_ms, red.forfeits), (1_400, Some(-600), 1));
        let mut black = ClockUse::default();
        black.add(g, false, tc);
        assert_eq!((black.moves, black.used_ms, black.had_ms, black.forfeits), (2, 750, 3_000, 0));
        assert_eq!(black.least_left_ms, Some(1_500));
        let line = red.line("A", "2+0.5");
        assert!(
            line.starts_with("A (2+0.5): 1 games, 3 timed moves; 3.6 s a game, 103% of its clock (103-103% by game)"),
            "{line}"
        );
        assert!(line.ends_with("least left -0.60 s; 1 time forfeits"), "{line}");
    }

    #[test]
    fn periods_and_move_times() {
        let g = &read_games(GAME)[0];
        // Two moves a period: Red's third move starts a new period of 2 s.
        let mut red = ClockUse::default();
        red.add(g, true, Limit::Clock { moves: 2, base_ms: 2_000, inc_ms: 0 });
        assert_eq!((red.had_ms, red.least_left_ms), (4_000, Some(-200)));
        let mut fixed = ClockUse::default();
        fixed.add(g, false, Limit::MoveTime(1_000));
        assert_eq!((fixed.had_ms, fixed.least_left_ms), (2_000, None));
        let mut nodes = ClockUse::default();
        nodes.add(g, false, Limit::Nodes(100));
        assert_eq!((nodes.had_ms, nodes.share_range), (0, None));
        assert!(!nodes.line("B", "inf").contains('%'));
    }
}
