//! The pieces of CECP (XBoard protocol 2) the match runner needs as the GUI: `feature` lines,
//! the time-control commands, thinking output and result claims. The exchange itself is in
//! `engine/cecp.rs`.

use super::engine::{seconds, Eval, Limit};

/// The words of a `feature` line as (name, value) pairs, quotes removed:
/// `feature ping=1 myname="A B" done=1`.
pub fn features(line: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = line.trim_start().strip_prefix("feature").unwrap_or("").trim_start();
    while let Some(eq) = rest.find('=') {
        let name = rest[..eq].trim().to_string();
        let after = &rest[eq + 1..];
        let (value, next) = match after.strip_prefix('"') {
            Some(q) => match q.find('"') {
                Some(end) => (&q[..end], &q[end + 1..]),
                None => (q, ""),
            },
            None => after.split_at(after.find(char::is_whitespace).unwrap_or(after.len())),
        };
        if name.is_empty() || name.contains(char::is_whitespace) {
            break; // not a feature line we can read further
        }
        out.push((name, value.to_string()));
        rest = next.trim_start();
    }
    out
}

/// Whether a feature value we cannot honour is one to refuse: `san=1` (we read coordinates
/// only), `sigint=1`/`sigterm=1` (we send no signals).
pub fn refused(name: &str, value: &str) -> bool {
    matches!(name, "san" | "sigint" | "sigterm") && value == "1"
}

/// The option names in `feature option="NAME -type ..."`.
pub fn option_name(value: &str) -> &str {
    value.find(" -").map_or(value, |i| &value[..i]).trim()
}

/// `level` base time: whole minutes, else `m:ss` (fractions of a second kept).
fn level_base(ms: u64) -> String {
    let (min, rest) = (ms / 60_000, ms % 60_000);
    if rest == 0 {
        return min.to_string();
    }
    let secs = seconds(rest);
    let pad = if rest < 10_000 { "0" } else { "" };
    format!("{min}:{pad}{secs}")
}

/// The commands that give an engine `limit` (sent after `new`, which clears `sd`). A depth
/// limit also gets `st` at the move timeout, so an engine always has a time to keep to.
pub fn time_control(limit: Limit, timeout_ms: u64) -> Vec<String> {
    match limit {
        Limit::Clock { moves, base_ms, inc_ms } => {
            vec![format!("level {moves} {} {}", level_base(base_ms), seconds(inc_ms))]
        }
        Limit::MoveTime(ms) => vec![format!("st {}", seconds(ms))],
        Limit::Depth(d) => vec![format!("st {}", seconds(timeout_ms.max(1000))), format!("sd {d}")],
        // Refused when the match is set up: CECP has no node limit.
        Limit::Nodes(_) => Vec::new(),
    }
}

/// A thinking line, `ply score time nodes pv...` (score in centipawns from the engine's side,
/// mates as ±(100000 + moves)): its depth and eval.
pub fn thinking(line: &str) -> Option<(u32, Eval)> {
    let mut w = line.split_whitespace();
    let ply: u32 = w.next()?.trim_end_matches(|c: char| !c.is_ascii_digit()).parse().ok()?;
    let score: i64 = w.next()?.parse().ok()?;
    w.next()?.parse::<u64>().ok()?;
    w.next()?.parse::<u64>().ok()?;
    let eval = if score.abs() >= 100_000 {
        let moves = (score.abs() - 100_000).min(1000) as i32;
        Eval::Mate(if score > 0 { moves } else { -moves })
    } else {
        Eval::Cp(score.clamp(-99_999, 99_999) as i32)
    };
    Some((ply, eval))
}

/// A result claim, `1-0 {...}`, `0-1 {...}` or `1/2-1/2 {...}`: the line as the claim.
pub fn claim(line: &str) -> Option<&str> {
    let first = line.split_whitespace().next()?;
    matches!(first, "1-0" | "0-1" | "1/2-1/2").then_some(line.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_feature_lines() {
        let f = features(r#"feature ping=1 myname="Fairy SF 1.0" variants="normal,xiangqi" done=1"#);
        let want = [("ping", "1"), ("myname", "Fairy SF 1.0"), ("variants", "normal,xiangqi"), ("done", "1")];
        assert_eq!(f, want.map(|(a, b)| (a.to_string(), b.to_string())).to_vec());
        assert_eq!(features(r#"feature option="Move Overhead -spin 30 0 5000""#)[0].1, "Move Overhead -spin 30 0 5000");
        assert_eq!(option_name("Move Overhead -spin 30 0 5000"), "Move Overhead");
        assert_eq!(option_name("Clear Hash -button"), "Clear Hash");
        assert!(features("feature").is_empty());
        assert!(refused("san", "1") && !refused("san", "0") && !refused("ping", "1"));
    }

    #[test]
    fn time_control_commands() {
        let tc = |moves, base_ms, inc_ms| time_control(Limit::Clock { moves, base_ms, inc_ms }, 0);
        assert_eq!(tc(40, 60_000, 0), ["level 40 1 0"]);
        assert_eq!(tc(0, 10_000, 100), ["level 0 0:10 0.1"]);
        assert_eq!(tc(0, 90_000, 500), ["level 0 1:30 0.5"]);
        assert_eq!(tc(0, 2_500, 50), ["level 0 0:02.5 0.05"]);
        assert_eq!(time_control(Limit::MoveTime(500), 0), ["st 0.5"]);
        assert_eq!(time_control(Limit::Depth(4), 60_000), ["st 60", "sd 4"]);
    }

    #[test]
    fn reads_thinking_and_claims() {
        assert_eq!(thinking("9 35 120 5000 h2e2 h9g7"), Some((9, Eval::Cp(35))));
        assert_eq!(thinking("12& -120 40 900 0 0\t h2e2"), Some((12, Eval::Cp(-120))));
        assert_eq!(thinking("5 100003 1 20 a0a9"), Some((5, Eval::Mate(3))));
        assert_eq!(thinking("5 -100002 1 20 a0a9"), Some((5, Eval::Mate(-2))));
        assert_eq!(thinking("move h2e2"), None);
        assert_eq!(thinking("1 2 3"), None);
        assert_eq!(claim("1/2-1/2 {Draw: repetition}"), Some("1/2-1/2 {Draw: repetition}"));
        assert_eq!(claim("resign"), None);
    }
}
