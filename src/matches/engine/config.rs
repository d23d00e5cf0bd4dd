//! How an engine is started and limited, in no protocol's words: its `EngineConfig` (program,
//! `Proto`, options, `Limit`, margins, rank numbering), the `-debug` log every line goes to,
//! and `seconds`, the text of a limit's times. It reads nothing else of `engine/`.

use crate::matches::ranks::Ranks;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    /// UCCI: `ucci`, `setoption <name> <value>`, `go time .. opptime ..`, times in ms via `usemillisec`.
    Ucci,
    /// UCI: `uci`, `setoption name <n> value <v>`, `go wtime .. btime ..`.
    Uci,
    /// CECP (XBoard protocol 2): `xboard`, `protover 2`, `new`, `force`, `usermove`, `go`.
    Xboard,
}

/// A change `-soak` makes to an engine between games, to shake out faults that only show
/// after a resize or a restart of its state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// Resize its hash table to this many MB (UCCI `hashsize`, UCI `Hash`, CECP `memory`).
    Hash(u32),
    /// Search with this many threads (UCCI `threads`, UCI `Threads`, CECP `cores`).
    Threads(u32),
    /// An extra new-game command (UCCI `setoption newgame`, UCI `ucinewgame`, CECP `new`).
    NewGame,
    /// Nothing.
    Nothing,
}

impl Change {
    /// The sizes a hash change picks from, in MB.
    pub const HASH_MB: [u32; 4] = [1, 16, 64, 128];

    /// The change before game `game` (0-based) for engine `engine` under seed `seed`: the
    /// same for the same three, whichever worker plays the game or when.
    pub fn pick(seed: u64, game: usize, engine: usize) -> Change {
        let key = seed ^ (game as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (engine as u64).rotate_left(48);
        let (_, r) = crate::board::zobrist::splitmix(key);
        match r % 8 {
            k @ 0..=3 => Change::Hash(Change::HASH_MB[k as usize]),
            4 => Change::NewGame,
            5 => Change::Threads(1),
            6 => Change::Threads(2),
            _ => Change::Nothing,
        }
    }
}

/// How an engine's thinking is limited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// A clock: `moves` per period (0: whole game), `base_ms` per period, `inc_ms` per move.
    Clock {
        /// Moves per period, 0 for sudden death / increment only.
        moves: u32,
        /// Time per period in milliseconds.
        base_ms: u64,
        /// Increment per move in milliseconds.
        inc_ms: u64,
    },
    /// Fixed time per move in milliseconds.
    MoveTime(u64),
    /// Node budget per move.
    Nodes(u64),
    /// Depth per move.
    Depth(u32),
}

/// Where `-debug` writes every engine line: one sink shared by all engines, and a tag telling
/// apart the instances of one engine when several games run at once.
#[derive(Clone)]
pub struct DebugLog {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
    start: Instant,
    tag: String,
}

impl std::fmt::Debug for DebugLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DebugLog{}", self.tag)
    }
}

impl DebugLog {
    /// A log to `sink`; times are counted from now.
    pub fn new(sink: Box<dyn Write + Send>) -> DebugLog {
        DebugLog { sink: Arc::new(Mutex::new(sink)), start: Instant::now(), tag: String::new() }
    }

    /// The same log, with `#n` after the engine's name (the worker playing the game).
    pub fn tagged(&self, n: usize) -> DebugLog {
        DebugLog { tag: format!("#{n}"), ..self.clone() }
    }

    /// One line: seconds since the start, the engine, `<` for a line sent to it, `>` for one
    /// it wrote.
    pub(super) fn line(&self, name: &str, dir: char, text: &str) {
        let t = self.start.elapsed().as_secs_f64();
        if let Ok(mut w) = self.sink.lock() {
            let _ = writeln!(w, "{t:.3} {name}{} {dir} {text}", self.tag);
            let _ = w.flush();
        }
    }
}

/// Everything needed to start and drive one engine.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// Display name.
    pub name: String,
    /// Program to run.
    pub cmd: String,
    /// Program arguments.
    pub args: Vec<String>,
    /// Working directory.
    pub dir: Option<String>,
    /// Protocol.
    pub proto: Proto,
    /// Options sent after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// Thinking limit.
    pub limit: Limit,
    /// Milliseconds an engine may overstep its clock before it forfeits.
    pub margin_ms: u64,
    /// Milliseconds to wait for a move under a node or depth limit before it forfeits.
    pub timeout_ms: u64,
    /// A GUI-like transport delay: milliseconds charged to its clock on top of each move's time.
    pub latency_ms: u64,
    /// Think on the opponent's time: `go ponder` on its predicted reply (UCCI and UCI).
    pub ponder: bool,
    /// Rank numbering of its move text; `None`: ICCS, or asked of a UCI engine offering
    /// `UCI_Variant` (see [`PROBE_FEN`](crate::matches::ranks::PROBE_FEN)).
    pub ranks: Option<Ranks>,
    /// Where to log its lines (`-debug`).
    pub debug: Option<DebugLog>,
}

/// Milliseconds as seconds text without trailing zeros: `60`, `0.5`, `0.05`.
pub fn seconds(ms: u64) -> String {
    let s = format!("{}.{:03}", ms / 1000, ms % 1000);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_text() {
        assert_eq!(seconds(60_000), "60");
        assert_eq!(seconds(500), "0.5");
        assert_eq!(seconds(50), "0.05");
        assert_eq!(seconds(1_234), "1.234");
        assert_eq!(seconds(0), "0");
    }

    #[test]
    fn soak_changes_depend_on_seed_game_and_engine_only() {
        let picks = |seed| (0..64).map(|g| Change::pick(seed, g, g % 2)).collect::<Vec<_>>();
        assert_eq!(picks(7), picks(7));
        assert_ne!(picks(7), picks(8));
        assert_ne!(Change::pick(7, 3, 0), Change::pick(7, 3, 1));
        // Every kind comes up, and only the sizes and thread counts offered.
        let all = picks(7);
        for want in [Change::NewGame, Change::Nothing, Change::Threads(1), Change::Threads(2)] {
            assert!(all.contains(&want), "{want:?}");
        }
        assert!(all.iter().any(|c| matches!(c, Change::Hash(_))));
        assert!(all.iter().all(|c| !matches!(c, Change::Hash(mb) if !Change::HASH_MB.contains(mb))));
    }
}
