//! What Chuhe says in CECP: the feature list, thinking lines (`ply score time nodes pv`),
//! `move`, the analysis status `stat01`, and the error words XBoard shows.

use super::super::options::{
    Key, OptionSet, Spec, Style, BOOK_FILE, CLEAR_HASH, EVAL_FILE, HASH, MOVE_OVERHEAD, MULTIPV, OWN_BOOK, SKILL_LEVEL,
    THREADS, USE_NNUE,
};
use super::super::policy::Decision;
use super::super::words::clip;
use super::super::{push_moves, Replies, ENGINE_NAME};
use crate::board::Move;
use crate::search::{Info, ProbeInfo, Score};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};

/// CECP's mate score: mate in `n` moves is reported as `MATE_SCORE + n`, mated in `n` as
/// `-(MATE_SCORE + n)`.
pub const MATE_SCORE: i32 = 100_000;

/// Table size and threads come from `memory` and `cores` (which set them through these specs),
/// so they are not advertised as options; `option Debug=1` turns on the `# debug: ...` lines
/// (UCCI's `debug`), for logs and tests rather than the GUI's dialog.
const OPTIONS: OptionSet = OptionSet {
    style: Style::Cecp,
    advertised: &[MULTIPV, MOVE_OVERHEAD, CLEAR_HASH, SKILL_LEVEL, OWN_BOOK, BOOK_FILE, USE_NNUE, EVAL_FILE],
    unlisted: &[HASH, THREADS, Spec::check(Key::Debug, "Debug")],
    unknown_is_error: true,
};

/// What `.` reports in analyze mode (`stat01`).
#[derive(Clone, Copy, Debug, Default)]
struct Status {
    time_ms: u64,
    nodes: u64,
    depth: u32,
    current: Option<(Move, u32)>,
}

/// The CECP replies. `post` and the analysis status are written by the search thread as it
/// reports, hence an atomic and a mutex.
#[derive(Default)]
pub struct Xboard {
    post: AtomicBool,
    status: Mutex<Status>,
}

/// A score as CECP prints it: centipawns, or `±(100000 + moves)` for mates.
pub fn cecp_score(s: Score) -> i32 {
    match s {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => MATE_SCORE + n,
        Score::Mate(n) => -(MATE_SCORE + n.abs()),
    }
}

/// `Error (why): what`, the reply to a command Chuhe refuses.
pub fn refusal(why: &str, what: &str) -> String {
    format!("Error ({why}): {}", clip(what))
}

/// `Illegal move: m` (`why`: the reason in parentheses, if any).
pub fn illegal_move(text: &str, why: Option<&str>) -> String {
    match why {
        Some(why) => format!("Illegal move ({why}): {}", clip(text)),
        None => format!("Illegal move: {}", clip(text)),
    }
}

impl Xboard {
    fn lock_status(&self) -> MutexGuard<'_, Status> {
        self.status.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `post` / `nopost`: thinking lines on or off.
    pub fn set_post(&self, on: bool) {
        self.post.store(on, Ordering::SeqCst);
    }

    /// Forgets the last analysis status (a new analysis starts).
    pub fn reset_status(&self) {
        *self.lock_status() = Status::default();
    }

    /// `stat01: time nodes depth movesleft totalmoves [move]`, with `total` root moves.
    pub fn stat01(&self, total: u32) -> String {
        let st = *self.lock_status();
        let (left, cur) = match st.current {
            Some((m, k)) => (total.saturating_sub(k), format!(" {m}")),
            None => (0, String::new()),
        };
        format!("stat01: {} {} {} {left} {total}{cur}", st.time_ms / 10, st.nodes, st.depth)
    }
}

impl Replies for Xboard {
    fn options(&self) -> &'static OptionSet {
        &OPTIONS
    }

    /// The `feature` lines sent in answer to `protover 2`.
    fn handshake(&self) -> Vec<String> {
        let head = [
            "feature done=0".to_string(),
            format!("feature myname=\"{ENGINE_NAME}\""),
            "feature variants=\"xiangqi\"".to_string(),
            "feature setboard=1 usermove=1 ping=1 sigint=0 sigterm=0 colors=0 time=1 draw=1 reuse=1".to_string(),
            "feature analyze=1 memory=1 smp=1 name=0 nps=0 debug=1 pause=0 san=0".to_string(),
        ];
        let options = OPTIONS.advertise();
        head.into_iter().chain(options).chain(["feature done=1".to_string()]).collect()
    }

    /// `ply score time nodes pv`, time in centiseconds; nothing while `nopost`.
    fn info(&self, i: &Info) -> Option<String> {
        {
            let mut st = self.lock_status();
            st.time_ms = i.time_ms;
            st.nodes = i.nodes;
            st.depth = i.depth;
        }
        if !self.post.load(Ordering::SeqCst) {
            return None;
        }
        let mut s = format!("{} {} {} {}", i.depth, cecp_score(i.score), i.time_ms / 10, i.nodes);
        push_moves(&mut s, &i.pv);
        Some(s)
    }

    /// CECP has no current-move line; the move is kept for `stat01`.
    fn currmove(&self, _depth: u32, mv: Move, number: u32) -> Option<String> {
        self.lock_status().current = Some((mv, number));
        None
    }

    /// `move M` (after `offer draw` when accepting one), or `resign`; nothing without a move
    /// (the state machine claims the game's end instead).
    fn bestmove(&self, d: &Decision) -> Vec<String> {
        match d.best {
            None => vec![],
            Some(_) if d.resign => vec!["resign".to_string()],
            Some(m) if d.draw => vec!["offer draw".to_string(), format!("move {m}")],
            Some(m) => vec![format!("move {m}")],
        }
    }

    fn message(&self, text: &str) -> String {
        format!("# {text}")
    }

    /// The session's `what: why` errors as `Error (why): what`.
    fn error(&self, text: &str) -> String {
        match text.split_once(": ") {
            Some((cmd, why)) if !cmd.contains(' ') => format!("Error ({why}): {cmd}"),
            _ => format!("Error ({text})"),
        }
    }

    /// CECP has no `probe`.
    fn pophash(&self, _p: Option<&ProbeInfo>) -> Option<String> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores() {
        assert_eq!(cecp_score(Score::Cp(-35)), -35);
        assert_eq!(cecp_score(Score::Mate(3)), 100_003);
        assert_eq!(cecp_score(Score::Mate(-2)), -100_002);
    }

    #[test]
    fn replies() {
        let x = Xboard::default();
        let m = Move::parse("h2e2").ok();
        assert_eq!(x.bestmove(&Decision { best: m, ponder_move: None, draw: false, resign: false }), ["move h2e2"]);
        assert_eq!(
            x.bestmove(&Decision { best: m, ponder_move: None, draw: true, resign: false }),
            ["offer draw", "move h2e2"]
        );
        assert_eq!(x.bestmove(&Decision { best: m, ponder_move: None, draw: false, resign: true }), ["resign"]);
        assert!(x.bestmove(&Decision { best: None, ponder_move: None, draw: false, resign: false }).is_empty());
        assert_eq!(x.error("setoption: no such option 'x'"), "Error (no such option 'x'): setoption");
        assert_eq!(refusal("unknown command", "frobnicate"), "Error (unknown command): frobnicate");
        let hs = x.handshake();
        assert_eq!(hs.last().map(String::as_str), Some("feature done=1"));
        assert!(hs.iter().any(|l| l.contains("option=\"MultiPV -spin 1 1 ")));
        assert!(!hs.iter().any(|l| l.contains("Hash -spin") || l.contains("Threads")));
        let i = Info {
            depth: 4,
            seldepth: 6,
            multipv: 1,
            score: Score::Cp(12),
            bound: crate::search::Bound::Exact,
            nodes: 999,
            nps: 0,
            time_ms: 1234,
            hashfull: 0,
            pv: vec![Move::parse("h2e2").unwrap(), Move::parse("h9g7").unwrap()],
        };
        assert_eq!(x.info(&i), None, "nopost by default");
        x.set_post(true);
        assert_eq!(x.info(&i).unwrap(), "4 12 123 999 h2e2 h9g7");
        assert_eq!(x.stat01(44), "stat01: 123 999 4 0 44");
        x.currmove(4, m.unwrap(), 3);
        assert_eq!(x.stat01(44), "stat01: 123 999 4 41 44 h2e2");
    }
}
