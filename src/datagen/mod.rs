//! Self-play training data (`chuhe datagen`): games at a fixed search budget per move, their
//! positions with the search score, best move and game result, in the binary format of
//! `format.rs` (`docs/datagen.md`).
//!
//! `play.rs` plays one game from its own seed; `run` here spreads games over threads and writes
//! them in game order, so the output depends only on the configuration (seed included), not on
//! the thread count or timing. `relabel.rs` scores existing data again with another budget;
//! `stats.rs` summarises data files.

pub mod chain;
mod codes;
pub mod convert;
pub mod format;
pub mod manifest;
pub mod play;
pub mod reader;
pub mod relabel;
pub mod resume;
pub mod stats;

pub use chain::ChainWriter;
pub use format::{End, FormatError, Header, Record, Writer, RECORD_SIZE};
pub use play::{play_game, Adjudication, Config, GameRecord, MoveBudget};
pub use reader::Reader;
pub use relabel::{relabel, RelabelConfig};
pub use stats::Stats;

use crate::search::Engine;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Where a run stands, for the progress line.
#[derive(Clone, Copy, Debug, Default)]
pub struct Progress {
    /// Games written.
    pub games: u64,
    /// Games asked for.
    pub total: u64,
    /// Positions written.
    pub positions: u64,
    /// Positions searched (written or not).
    pub searched: u64,
    /// Positions already in the file when this run began (a resumed run), not in its rate.
    pub resumed: u64,
    /// Bytes of the file that hold whole games (the header included).
    pub bytes: u64,
    /// Time since the start.
    pub elapsed: Duration,
    /// Whether the run is over (the last report).
    pub done: bool,
}

impl Progress {
    /// Positions this run wrote per second so far (a resumed run does not count the file's).
    pub fn rate(&self) -> f64 {
        self.positions.saturating_sub(self.resumed) as f64 / self.elapsed.as_secs_f64().max(1e-3)
    }
}

/// One game in this many is held back for validation by the fitting tools.
pub const VALIDATION_EVERY: u64 = 10;

/// Reads the quiet records of datagen files (not in check, best move not a capture, score not
/// decisive: what a static evaluation is fitted to), at most `limit`, calling `keep` with each
/// and whether its game is a validation game (one in `VALIDATION_EVERY`, whole games).
/// Returns how many records were skipped as not quiet.
pub fn read_quiet(paths: &[String], limit: usize, mut keep: impl FnMut(&Record, bool)) -> Result<u64, String> {
    use format::{FLAG_DECISIVE, FLAG_GAME_START, FLAG_IN_CHECK, FLAG_NOT_QUIET};
    let (mut game, mut kept, mut skipped) = (0u64, 0usize, 0u64);
    for path in &manifest::files_of(paths)? {
        let file = std::fs::File::open(path).map_err(|e| format!("cannot open '{path}': {e}"))?;
        let mut reader = Reader::new(io::BufReader::with_capacity(1 << 20, file));
        while let Some(item) = reader.next_ref() {
            let r = item.map_err(|e| format!("{path}: {e}"))?;
            if r.flags & FLAG_GAME_START != 0 {
                game += 1;
            }
            if r.flags & (FLAG_NOT_QUIET | FLAG_IN_CHECK | FLAG_DECISIVE) != 0 {
                skipped += 1;
                continue;
            }
            if kept >= limit {
                return Ok(skipped);
            }
            kept += 1;
            keep(r, game % VALIDATION_EVERY == VALIDATION_EVERY - 1);
        }
    }
    Ok(skipped)
}

/// A worker thread's engine: one search thread, its own table, the run's evaluation.
pub(crate) fn worker_engine(hash_mb: usize, evaluator: &crate::eval::Evaluator) -> Engine {
    let mut engine = Engine::new();
    engine.set_threads(1);
    engine.set_hash_mb(hash_mb);
    engine.set_evaluator(evaluator.clone());
    engine
}

/// A budget as the header's fields hold it: nodes (0 for a depth), depth (0 for nodes).
pub(crate) fn budget_fields(budget: MoveBudget) -> (u32, u8) {
    match budget {
        MoveBudget::Nodes(n) => (n.min(u32::MAX as u64) as u32, 0),
        MoveBudget::Depth(d) => (0, d.min(255) as u8),
    }
}

/// The header a run with `cfg` writes.
pub fn header(cfg: &Config) -> Header {
    let (nodes, depth) = budget_fields(cfg.budget);
    Header {
        seed: cfg.seed,
        nodes,
        depth,
        random_plies: cfg.random_plies.min(255) as u8,
        keep_all: cfg.keep_all,
        games: cfg.games.min(u32::MAX as u64) as u32,
    }
}

/// Plays `cfg.games` games on `cfg.threads` threads and writes the header and every game's
/// chains to `out` in game order (each game closed into a block and flushed), then the end
/// mark. With `from` (a resumed run, its header and first games already in `out`) it plays
/// from game `from.games` on and writes no header. `progress` is called on this thread after
/// each game, about every `tick` in between, and once at the end.
pub fn run(
    cfg: &Config,
    out: impl Write,
    from: Option<resume::Checkpoint>,
    tick: Duration,
    mut progress: impl FnMut(&Progress),
) -> io::Result<Progress> {
    let began = Instant::now();
    let start = from.unwrap_or_default();
    let counted = Counted { out, bytes: start.bytes };
    let mut writer = match from {
        Some(at) => ChainWriter::append(counted, at.records),
        None => ChainWriter::new(counted, &header(cfg))?,
    };
    writer.flush()?;
    let next_game = AtomicU64::new(start.games);
    let abort = AtomicBool::new(false);
    let mut state = Progress {
        games: start.games,
        total: cfg.games,
        positions: start.records,
        searched: 0,
        resumed: start.records,
        bytes: writer.output().bytes,
        elapsed: Duration::ZERO,
        done: false,
    };
    std::thread::scope(|scope| -> io::Result<()> {
        let (tx, rx) = mpsc::channel::<(u64, GameRecord)>();
        for _ in 0..cfg.threads.max(1) {
            let (tx, next_game, abort) = (tx.clone(), &next_game, &abort);
            scope.spawn(move || {
                let mut engine = worker_engine(cfg.hash_mb, &cfg.evaluator);
                loop {
                    let i = next_game.fetch_add(1, Ordering::Relaxed);
                    if i >= cfg.games || abort.load(Ordering::Relaxed) {
                        break;
                    }
                    if tx.send((i, play_game(&mut engine, cfg, i))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Games finish in any order; they are written in game order.
        let mut waiting = BTreeMap::new();
        let result = loop {
            match rx.recv_timeout(tick) {
                Ok((i, game)) => {
                    waiting.insert(i, game);
                    if let Err(e) = write_ready(&mut writer, &mut waiting, &mut state) {
                        break Err(e);
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break Ok(()),
            }
            state.elapsed = began.elapsed();
            progress(&state);
        };
        abort.store(true, Ordering::Relaxed);
        result
    })?;
    writer.finish()?;
    state.elapsed = began.elapsed();
    state.done = true;
    progress(&state);
    Ok(state)
}

/// A writer that counts the bytes through it.
pub(crate) struct Counted<W: Write> {
    out: W,
    /// Bytes written so far (with those before it, when resumed).
    pub bytes: u64,
}

impl<W: Write> Write for Counted<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.out.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Writes the waiting games that come next in game order, each closed and flushed.
fn write_ready<W: Write>(
    writer: &mut ChainWriter<Counted<W>>,
    waiting: &mut BTreeMap<u64, GameRecord>,
    state: &mut Progress,
) -> io::Result<()> {
    while let Some(game) = waiting.remove(&state.games) {
        for (r, &kept) in game.records.iter().zip(&game.kept) {
            writer.write(r, kept)?;
        }
        writer.flush()?;
        state.games += 1;
        state.positions = writer.positions();
        state.bytes = writer.output().bytes;
        state.searched += game.searched as u64;
    }
    Ok(())
}

#[cfg(test)]
mod progress_tests {
    use super::Progress;
    use std::time::Duration;

    #[test]
    fn a_resumed_runs_rate_counts_only_its_own_positions() {
        let p = |resumed| Progress {
            games: 20,
            total: 100,
            positions: 3000,
            searched: 0,
            resumed,
            bytes: 0,
            elapsed: Duration::from_secs(10),
            done: false,
        };
        assert_eq!(p(0).rate(), 300.0);
        assert_eq!(p(2000).rate(), 100.0);
    }
}
