//! `chuhe datagen --relabel`: the same positions scored again by a search of another budget
//! (deeper labels for the same data, issue 27). Every record keeps its position, result,
//! ply and game marks; its score, best move and quiet flags are the new search's.
//!
//! Each position is searched from a cleared table (no game history), so a record's new label
//! depends only on it and the budget: the output is the same for any thread count.

use super::format::{Header, Record, Writer, FLAG_BLACK_TO_MOVE, FLAG_GAME_START};
use super::play::{quiet_flags, search_after, stored_score, MoveBudget};
use super::reader::Reader;
use super::Progress;
use crate::search::Engine;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::mpsc;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Records sent to a search thread at a time.
const BATCH: usize = 256;

/// What a relabelling run is asked for.
#[derive(Clone, Debug)]
pub struct RelabelConfig {
    /// Search per position.
    pub budget: MoveBudget,
    /// Positions searched at once (one search thread each).
    pub threads: usize,
    /// Transposition table per thread, in MB (cleared before every position).
    pub hash_mb: usize,
    /// The evaluation the searches use.
    pub evaluator: crate::eval::Evaluator,
    /// At most this many records (the first ones of the inputs, in order).
    pub limit: u64,
}

/// The header a relabelled file starts with: the new budget, and every record kept (the new
/// search may find a position not quiet; the readers skip those as usual).
pub fn relabel_header(cfg: &RelabelConfig) -> Header {
    let (nodes, depth) = super::budget_fields(cfg.budget);
    Header { seed: 0, nodes, depth, random_plies: 0, keep_all: true, games: 0 }
}

/// `r` with the label a fresh search of its position to `budget` gives.
pub fn relabel_record(engine: &mut Engine, r: &Record, budget: MoveBudget) -> Record {
    engine.clear();
    let found = search_after(engine, &r.position, &[], budget);
    let Some(best) = found.best else { return r.clone() };
    let (score, decisive) = stored_score(found.score);
    // A decoded record holds its flag byte whole, the side-to-move bit with it.
    let flags = (r.flags & (FLAG_GAME_START | FLAG_BLACK_TO_MOVE)) | quiet_flags(&r.position, best, decisive);
    Record { score, best, flags, ..r.clone() }
}

/// Reads the records of `inputs` (in order, at most `cfg.limit`), relabels them on
/// `cfg.threads` threads and writes them, in input order, after one header. `progress` is
/// called on this thread about every `tick` and once at the end (`games` counts the games
/// begun, `total` is 0: the inputs are not counted ahead).
pub fn relabel(
    cfg: &RelabelConfig,
    inputs: &[String],
    out: impl Write,
    tick: Duration,
    mut progress: impl FnMut(&Progress),
) -> Result<Progress, String> {
    let began = Instant::now();
    let write_err = |e: io::Error| format!("writing: {e}");
    let mut writer = Writer::new(out, &relabel_header(cfg)).map_err(write_err)?;
    let mut state = Progress::default();
    let mut shown = Instant::now();
    let threads = cfg.threads.max(1);
    // Bounded, so reading stays a few batches ahead of the searches.
    let (job_tx, job_rx) = mpsc::sync_channel::<(u64, Vec<Record>)>(threads * 2);
    let job_rx = Mutex::new(job_rx);
    let (done_tx, done_rx) = mpsc::channel::<(u64, Vec<Record>)>();
    let stopped = || "a search thread stopped".to_string();
    std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..threads {
            let (job_rx, done_tx) = (&job_rx, done_tx.clone());
            scope.spawn(move || {
                let mut engine = super::worker_engine(cfg.hash_mb, &cfg.evaluator);
                loop {
                    let job = job_rx.lock().map(|rx| rx.recv());
                    let Ok(Ok((i, batch))) = job else { break };
                    let batch = batch.iter().map(|r| relabel_record(&mut engine, r, cfg.budget)).collect();
                    if done_tx.send((i, batch)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(done_tx);
        // Dropped on every way out, so the search threads end.
        let job_tx = job_tx;
        let mut order = InOrder { waiting: BTreeMap::new(), next: 0 };
        let (mut sent, mut read) = (0u64, 0u64);
        let mut batch = Vec::with_capacity(BATCH);
        'files: for path in inputs {
            let file = std::fs::File::open(path).map_err(|e| format!("cannot open '{path}': {e}"))?;
            for item in Reader::new(io::BufReader::with_capacity(1 << 20, file)) {
                if read >= cfg.limit {
                    break 'files;
                }
                let r = item.map_err(|e| format!("{path}: {e}"))?;
                read += 1;
                state.games += u64::from(r.flags & FLAG_GAME_START != 0);
                batch.push(r);
                if batch.len() == BATCH {
                    let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
                    job_tx.send((sent, full)).map_err(|_| stopped())?;
                    sent += 1;
                    while let Ok((i, b)) = done_rx.try_recv() {
                        order.waiting.insert(i, b);
                    }
                    order.write(&mut writer, &mut state).map_err(write_err)?;
                    if shown.elapsed() >= tick {
                        state.elapsed = began.elapsed();
                        progress(&state);
                        shown = Instant::now();
                    }
                }
            }
        }
        if !batch.is_empty() {
            job_tx.send((sent, batch)).map_err(|_| stopped())?;
            sent += 1;
        }
        drop(job_tx);
        while order.next < sent {
            match done_rx.recv_timeout(tick) {
                Ok((i, b)) => {
                    order.waiting.insert(i, b);
                    order.write(&mut writer, &mut state).map_err(write_err)?;
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => return Err(stopped()),
            }
            state.elapsed = began.elapsed();
            progress(&state);
        }
        Ok(())
    })?;
    state.elapsed = began.elapsed();
    state.done = true;
    progress(&state);
    Ok(state)
}

/// Relabelled batches come back in any order; they are written in input order.
struct InOrder {
    waiting: BTreeMap<u64, Vec<Record>>,
    next: u64,
}

impl InOrder {
    /// Writes the waiting batches that come next.
    fn write(&mut self, writer: &mut Writer<impl Write>, state: &mut Progress) -> io::Result<()> {
        while let Some(batch) = self.waiting.remove(&self.next) {
            for r in &batch {
                writer.write(r)?;
            }
            writer.flush()?;
            state.positions += batch.len() as u64;
            state.searched += batch.len() as u64;
            self.next += 1;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::{run, Config};

    fn generated() -> Vec<u8> {
        let cfg = Config { games: 3, budget: MoveBudget::Nodes(600), seed: 11, random_plies: 6, ..Config::default() };
        let mut bytes = Vec::new();
        run(&cfg, &mut bytes, None, Duration::from_secs(60), |_| {}).unwrap();
        bytes
    }

    fn records(bytes: &[u8]) -> Vec<Record> {
        Reader::new(bytes).map(|r| r.unwrap()).collect()
    }

    fn relabelled(input: &std::path::Path, threads: usize, budget: MoveBudget, limit: u64) -> Vec<u8> {
        let cfg = RelabelConfig { budget, threads, hash_mb: 1, evaluator: Default::default(), limit };
        let mut out = Vec::new();
        let path = input.to_string_lossy().into_owned();
        relabel(&cfg, &[path.clone(), path], &mut out, Duration::from_secs(60), |_| {}).unwrap();
        out
    }

    #[test]
    fn relabelling_keeps_the_positions_and_results_and_rescores_them() {
        let dir = std::env::temp_dir().join(format!("chuhe-relabel-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let input = dir.join("in.bin");
        let bytes = generated();
        std::fs::write(&input, &bytes).unwrap();
        let old = records(&bytes);
        // Two copies of the input, cut at `limit`: the batches, the file boundary and the cut.
        let limit = old.len() as u64 + BATCH as u64 / 3;
        let budget = MoveBudget::Depth(3);
        let one = relabelled(&input, 1, budget, limit);
        assert_eq!(one, relabelled(&input, 3, budget, limit), "the thread count changed the output");
        let new = records(&one);
        assert_eq!(new.len() as u64, limit);
        let mut engine = crate::datagen::worker_engine(1, &Default::default());
        let mut changed = 0;
        for (n, o) in new.iter().zip(old.iter().cycle()) {
            assert_eq!(n.position.to_fen(), o.position.to_fen());
            assert_eq!((n.result, n.ply, n.game_plies, n.end), (o.result, o.ply, o.game_plies, o.end));
            assert_eq!(n.flags & FLAG_GAME_START, o.flags & FLAG_GAME_START);
            changed += usize::from(n.score != o.score);
            let fresh = relabel_record(&mut engine, o, budget);
            assert_eq!((n.score, n.best, n.flags), (fresh.score, fresh.best, fresh.flags));
        }
        assert!(changed > 0, "a depth-3 search scored every position as the 600-node one did");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_missing_input_is_one_line() {
        let cfg = RelabelConfig {
            budget: MoveBudget::Depth(1),
            threads: 2,
            hash_mb: 1,
            evaluator: Default::default(),
            limit: 9,
        };
        let err =
            relabel(&cfg, &["/nonexistent/x.bin".into()], Vec::new(), Duration::from_secs(1), |_| {}).unwrap_err();
        assert!(err.starts_with("cannot open '/nonexistent/x.bin'") && !err.contains('\n'), "{err}");
    }
}
