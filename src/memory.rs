//! How much memory the machine can still give: tables sized by the user (the engine's hash,
//! the tools' caches and worker tables) are checked against it before they are touched, so a
//! size beyond the machine is refused or shrunk with a message, never an out-of-memory kill.

/// Memory a table may take from, in MB: the system's available memory (Linux
/// `MemAvailable`), and no more than a cgroup (v2) memory limit leaves; `None` where unknown.
pub fn free_memory_mb() -> Option<usize> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kb = meminfo.lines().find_map(|l| l.strip_prefix("MemAvailable:"))?.trim().strip_suffix("kB")?;
    let mut free = kb.trim().parse::<usize>().ok()? / 1024;
    let read = |f: &str| std::fs::read_to_string(format!("/sys/fs/cgroup/{f}")).ok();
    if let (Some(max), Some(current)) = (read("memory.max"), read("memory.current")) {
        if let (Ok(max), Ok(current)) = (max.trim().parse::<usize>(), current.trim().parse::<usize>()) {
            free = free.min(max.saturating_sub(current) >> 20);
        }
    }
    Some(free)
}

/// The most a table may take of `free` MB: three quarters (the rest is left to the process
/// and the system), at least 1.
pub fn usable_of(free: usize) -> usize {
    (free / 4 * 3).max(1)
}

/// Refuses a total of `mb` megabytes (what `what` asks for) when it is more than three
/// quarters of the free memory; the error says both figures.
pub fn check_fits(mb: u64, what: &str) -> Result<(), String> {
    match free_memory_mb() {
        Some(free) if mb > usable_of(free) as u64 => Err(format!(
            "{what} asks for {mb} MB, but only {free} MB of memory is free (at most three quarters of it is used)"
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_fits_is_below_the_free_memory() {
        let Some(free) = free_memory_mb() else { return };
        assert!(check_fits(1, "one megabyte").is_ok());
        let err = check_fits(free as u64 + 1, "--hash").unwrap_err();
        assert!(err.starts_with("--hash asks for ") && err.contains(&format!("only {free} MB")), "{err}");
    }
}
