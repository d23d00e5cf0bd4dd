//! The CPU time an engine process has used, read from `/proc` (Linux). The runner sets it
//! beside the wall-clock time each engine thought: an engine that got much less than a core
//! while its clock ran was starved (other processes, more games than cores) or waited, and
//! its games measure the machine, not the engine.

/// Clock ticks per second of `/proc/PID/stat` (`USER_HZ`, 100 on Linux's common ports).
const TICKS_PER_SECOND: u64 = 100;
/// Below this share of a core while thinking an engine is reported as starved.
pub const STARVED_BELOW: f64 = 0.9;
/// Less thinking than this (milliseconds) is too little to judge a share from ticks.
pub const JUDGED_FROM_MS: u64 = 1000;

/// CPU time (user and system, all threads) process `pid` has used so far, in milliseconds;
/// `None` where `/proc` does not tell.
pub fn cpu_ms(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_stat(&stat)
}

/// `utime + stime` of a `/proc/PID/stat` line, in milliseconds.
fn parse_stat(stat: &str) -> Option<u64> {
    // Field 2 is the command in parentheses and may hold spaces: count from the last ')'.
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace();
    // `rest` starts at field 3 (state); utime and stime are fields 14 and 15.
    let utime: u64 = fields.nth(11)?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some((utime + stime) * 1000 / TICKS_PER_SECOND)
}

/// One engine's thinking over a match: wall-clock and CPU milliseconds, summed over the moves
/// where both are known.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CpuUse {
    /// Wall-clock time between `go` and the move.
    pub thinking_ms: u64,
    /// CPU time the process used meanwhile.
    pub cpu_ms: u64,
}

impl CpuUse {
    /// Adds one move.
    pub fn add(&mut self, thinking_ms: u64, cpu_ms: u64) {
        self.thinking_ms += thinking_ms;
        self.cpu_ms += cpu_ms;
    }

    /// CPU time per wall-clock time while thinking (1.0: a full core), once there is enough.
    pub fn share(&self) -> Option<f64> {
        (self.thinking_ms >= JUDGED_FROM_MS).then(|| self.cpu_ms as f64 / self.thinking_ms as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_user_and_system_time_past_a_command_with_spaces() {
        let line = "4242 (my engine (x)) S 1 4242 4242 0 -1 4194304 100 0 0 0 250 30 0 0 20 0 3 0 99 0 0";
        assert_eq!(parse_stat(line), Some(2800));
        assert_eq!(parse_stat("4242 (short) S 1"), None);
    }

    #[test]
    fn this_process_has_used_some_cpu() {
        if cfg!(target_os = "linux") {
            assert!(cpu_ms(std::process::id()).is_some());
        }
    }

    #[test]
    fn a_share_needs_enough_thinking() {
        let mut u = CpuUse::default();
        u.add(600, 590);
        assert_eq!(u.share(), None);
        u.add(600, 10);
        assert_eq!(u.share(), Some(0.5));
    }
}
