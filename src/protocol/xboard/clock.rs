//! CECP time control: `level` (moves per period, base, increment), `st` (seconds per move),
//! `sd` (depth), and the engine's clock from `time`, estimated between `time` commands.

use super::super::command::Go;
use super::super::words::{parse_count, parse_time, small, Words};
use std::time::Instant;

/// Time control from `level`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// Moves per period (0: the whole game).
    pub mps: u32,
    /// Time per period, ms.
    pub base_ms: u64,
    /// Increment per move, ms.
    pub inc_ms: u64,
}

/// CECP's default (XBoard's own): 40 moves in 5 minutes.
pub const DEFAULT_LEVEL: Level = Level { mps: 40, base_ms: 300_000, inc_ms: 0 };

impl Level {
    /// `MPS BASE INC`: BASE in minutes or `min:sec`, INC in seconds (fractions allowed).
    pub fn parse(w: &mut Words) -> Option<Level> {
        let mps = small(parse_count(w.next_word()?)?);
        let base_ms = parse_base(w.next_word()?)?;
        let inc_ms = parse_time(w.next_word()?, 1000)?;
        Some(Level { mps, base_ms, inc_ms })
    }
}

/// `level` base time: minutes, or `minutes:seconds`; in ms.
fn parse_base(w: &str) -> Option<u64> {
    match w.split_once(':') {
        None => parse_time(w, 60_000),
        Some((m, s)) => Some(parse_count(m)?.saturating_mul(60_000).saturating_add(parse_time(s, 1000)?)),
    }
}

/// The time control and the engine's clock.
#[derive(Clone, Debug)]
pub struct Clock {
    level: Level,
    /// `st`: exact time per move, ms (replaces `level` until the next `level`).
    st_ms: Option<u64>,
    /// `sd`: depth limit.
    sd: Option<u32>,
    /// Our clock from `time` (or estimated since), ms.
    own_ms: Option<u64>,
    /// When our current (non-ponder) search started.
    started: Option<Instant>,
}

impl Default for Clock {
    fn default() -> Self {
        Clock { level: DEFAULT_LEVEL, st_ms: None, sd: None, own_ms: None, started: None }
    }
}

impl Clock {
    /// `level`: a new time control; `st` and the clock estimate are dropped.
    pub fn set_level(&mut self, level: Level) {
        self.level = level;
        self.st_ms = None;
        self.own_ms = None;
    }

    /// `st`: this much per move.
    pub fn set_move_time(&mut self, ms: u64) {
        self.st_ms = Some(ms.max(1));
    }

    /// `sd`: a depth limit.
    pub fn set_depth(&mut self, depth: u32) {
        self.sd = Some(depth);
    }

    /// `time`: our clock.
    pub fn set_own(&mut self, ms: u64) {
        self.own_ms = Some(ms);
    }

    /// `new`: no depth limit, no clock reading (the time control stays).
    pub fn new_game(&mut self) {
        self.sd = None;
        self.own_ms = None;
    }

    /// Our search for a move starts now.
    pub fn start(&mut self) {
        self.started = Some(Instant::now());
    }

    /// Our search was dropped: no time is charged.
    pub fn cancel(&mut self) {
        self.started = None;
    }

    /// We moved: charge the time since [`Clock::start`] and add the increment.
    pub fn moved(&mut self) {
        if let (Some(t), Some(started)) = (self.own_ms, self.started.take()) {
            let used = started.elapsed().as_millis() as u64;
            self.own_ms = Some(t.saturating_sub(used) + self.level.inc_ms);
        }
    }

    /// The search limits for our move after `plies` plies of the game (a ponder search uses
    /// the same ones).
    pub fn limits(&self, plies: usize) -> Go {
        let mut go = Go { depth: self.sd, ..Go::default() };
        if let Some(st) = self.st_ms {
            go.movetime_ms = Some(st);
        } else {
            go.own_time_ms = Some(self.own_ms.unwrap_or(self.level.base_ms));
            go.own_inc_ms = Some(self.level.inc_ms);
            if self.level.mps > 0 {
                let ours_played = (plies / 2) as u32;
                go.movestogo = Some(self.level.mps - ours_played % self.level.mps);
            }
        }
        go
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_base() {
        assert_eq!(parse_base("5"), Some(300_000));
        assert_eq!(parse_base("0:30"), Some(30_000));
        assert_eq!(parse_base("1:05"), Some(65_000));
        assert_eq!(parse_base("x"), None);
        assert_eq!(parse_base("1:x"), None);
        assert_eq!(Level::parse(&mut Words::new("40 0:30 0.5")), Some(Level { mps: 40, base_ms: 30_000, inc_ms: 500 }));
        assert_eq!(Level::parse(&mut Words::new("40 5")), None);
    }

    #[test]
    fn limits_follow_level_st_and_time() {
        let mut c = Clock::default();
        let go = c.limits(10);
        assert_eq!((go.own_time_ms, go.movestogo, go.movetime_ms), (Some(300_000), Some(35), None));
        c.set_own(9_000);
        c.set_depth(7);
        assert_eq!((c.limits(0).own_time_ms, c.limits(0).depth), (Some(9_000), Some(7)));
        c.set_move_time(0);
        assert_eq!((c.limits(0).movetime_ms, c.limits(0).own_time_ms), (Some(1), None));
        c.set_level(Level { mps: 0, base_ms: 60_000, inc_ms: 1_000 });
        let go = c.limits(80);
        assert_eq!((go.own_time_ms, go.own_inc_ms, go.movestogo), (Some(60_000), Some(1_000), None));
        c.set_own(5_000);
        c.start();
        c.moved();
        assert!((5_900..=6_000).contains(&c.limits(0).own_time_ms.unwrap()));
    }
}
