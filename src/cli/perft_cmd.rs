//! `chuhe perft`: perft counts (plain, threaded, cached) and `--epd` suite checks.

use super::Args;
use crate::board::{Move, Position};
use crate::perft::{parse_epd, Perft, PerftTable};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

/// One line for `chuhe --help`.
pub(super) const ABOUT: &str = "count the leaves of the move tree (move-generation check, suites)";

/// `chuhe perft --help`.
pub(super) const HELP: &str = "\
usage:
  chuhe perft [--depth] N [--fen FEN] [--divide] [--threads N] [--hash MB] [--progress|--quiet]
  chuhe perft --epd FILE [--depth-limit D] [--threads N] [--hash MB]

options (--name VALUE or --name=VALUE):
  [--depth] N        plies to count, 1 to 12 (required without --epd; the flag may be left out)
  --fen FEN          position to count from (default: the start position)
  --divide           one 'move: count' line per root move, sorted by move text
  --threads N        threads taking (root move, reply) subtrees in turn, 1 to 1024 (default 1)
  --hash MB          a cache of subtree counts shared by the threads, 1 to 65536 (default: none)
  --progress         a line per finished root move on stderr (default: on from depth 6)
  --quiet            no progress lines
  --epd FILE         check every ';D<depth> <count>' of a suite: lines 'FEN ;D1 n ;D2 n ...'
  --depth-limit D    with --epd: check the depths up to D only (default: all)

The last line on stdout is 'nodes <N> time <ms> nps <rate>'. Counts are exact whatever the
threads and cache. With --epd: one line per count checked; any mismatch is also named on
stderr (position, line, depth, want, got) and the exit status is 1.

examples:
  chuhe perft 5
  chuhe perft 5 --fen \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\"
  chuhe perft --fen \"5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1\" --depth 2 --divide
  chuhe perft --depth 6 --threads 2 --hash 256
  chuhe perft --epd perft/suite.epd --depth-limit 4      # in the source directory
";

/// Largest `--hash`: 64 GB.
const MAX_HASH_MB: u64 = 1 << 16;

/// `--threads N` (default 1) and `--hash MB` (default none), shared with `perft-diff`.
pub(super) fn counter_flags(a: &Args) -> Result<(usize, Option<PerftTable>), String> {
    let threads = a.number("threads", 1, 1024, Some(1))? as usize;
    let table = match a.value("hash") {
        None => None,
        Some(_) => Some(PerftTable::new(a.number("hash", 1, MAX_HASH_MB, None)? as usize)?),
    };
    Ok((threads, table))
}

/// Runs perft or a suite check; a suite mismatch exits with status 1.
pub fn run(args: &[String]) -> Result<ExitCode, String> {
    let a = Args::parse_with_positional(
        args,
        &["fen", "depth", "threads", "hash", "epd", "depth-limit"],
        &["divide", "progress", "quiet"],
        &["depth"],
    )?;
    let (threads, table) = counter_flags(&a)?;
    let counter = Perft { threads, table: table.as_ref() };
    if let Some(file) = a.value("epd") {
        for other in ["fen", "depth", "divide"] {
            if a.flag(other) || a.value(other).is_some() {
                return Err(format!("--{other} does not go with --epd (use --depth-limit)"));
            }
        }
        let limit = a.number("depth-limit", 1, 12, Some(u64::from(u32::MAX)))? as u32;
        return suite(&counter, file, limit);
    }
    if a.value("depth-limit").is_some() {
        return Err("--depth-limit goes with --epd (use --depth)".into());
    }
    let depth = a.number("depth", 1, 12, None)? as u32;
    let mut pos = a.position()?;
    let progress = !a.flag("quiet") && (a.flag("progress") || depth >= 6);
    let start = Instant::now();
    let report = Progress::new(&pos, progress, start).reporter();
    let split = counter.divide(&mut pos, depth, report);
    if a.flag("divide") {
        for (m, n) in &split {
            outln!("{m}: {n}");
        }
    }
    summary(split.iter().map(|(_, n)| n).sum(), start);
    Ok(ExitCode::SUCCESS)
}

/// The last stdout line: `nodes <N> time <ms> nps <rate>`.
fn summary(nodes: u64, start: Instant) {
    let elapsed = start.elapsed();
    let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    outln!("nodes {nodes} time {} nps {nps}", elapsed.as_millis());
}

/// Progress lines on stderr, one per root move done: how many, which, its count, the time so
/// far and the rate.
struct Progress {
    on: bool,
    roots: usize,
    /// Root moves done and their nodes; locked while a line is written, so the lines of
    /// several threads come out numbered in order.
    done: Mutex<(usize, u64)>,
    start: Instant,
}

impl Progress {
    fn new(pos: &Position, on: bool, start: Instant) -> Progress {
        let roots = pos.legal_moves().len();
        Progress { on, roots, done: Mutex::new((0, 0)), start }
    }

    /// The callback for `Perft::divide`.
    fn reporter(self) -> impl Fn(Move, u64) + Sync {
        move |m, n| {
            let mut done = self.done.lock().unwrap_or_else(|e| e.into_inner());
            done.0 += 1;
            done.1 += n;
            if self.on {
                let secs = self.start.elapsed().as_secs_f64();
                let mnps = done.1 as f64 / secs.max(1e-9) / 1e6;
                eprintln!("perft: {}/{} {m} {n}  elapsed {secs:.1}s  {mnps:.1} Mnps", done.0, self.roots);
            }
        }
    }
}

/// Checks every count of the suite in `file` up to depth `limit`; status 1 on any mismatch.
fn suite(counter: &Perft, file: &str, limit: u32) -> Result<ExitCode, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read '{file}': {e}"))?;
    let entries = parse_epd(&text).map_err(|e| format!("{file}: {e}"))?;
    if entries.is_empty() {
        return Err(format!("{file}: no positions (lines 'FEN ;D1 n ;D2 n ...')"));
    }
    let start = Instant::now();
    let (mut nodes, mut checked, mut failed) = (0u64, 0usize, 0usize);
    for (k, e) in entries.iter().enumerate() {
        let mut pos = e.pos.clone();
        for &(depth, want) in e.counts.iter().filter(|c| c.0 <= limit) {
            let got = counter.total(&mut pos, depth);
            nodes += got;
            checked += 1;
            let verdict = if got == want { "ok".to_string() } else { format!("want {want} MISMATCH") };
            outln!("position {} depth {depth} nodes {got} {verdict}", k + 1);
            if got != want {
                failed += 1;
                eprintln!(
                    "mismatch: position {} (line {}: {}) depth {depth}: want {want} got {got}",
                    k + 1,
                    e.line,
                    e.fen
                );
            }
        }
    }
    if failed > 0 {
        eprintln!("{failed} of {checked} counts differ");
    }
    summary(nodes, start);
    Ok(if failed > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}
