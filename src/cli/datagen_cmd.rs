//! `chuhe datagen --out FILE [...]`: self-play training data; `chuhe datagen --stats FILE...`:
//! what data files hold; `chuhe datagen --relabel FILE... --out FILE`: the same positions
//! scored by another search budget. See docs/datagen.md.

use super::args::take_list;
use super::Args;
use crate::datagen::resume::{self, Checkpoint};
use crate::datagen::{self, Adjudication, Config, MoveBudget, Progress, RelabelConfig, Stats};
use crate::matches::openings::load_openings;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// One line for `chuhe --help`.
pub(super) const ABOUT: &str = "self-play training data: positions with score, best move and result";

/// `chuhe datagen --help`.
pub(super) const HELP: &str = "\
usage:
  chuhe datagen --out FILE [--games N] [--nodes N | --depth D] [--threads T] [--seed S]
                [--random-plies K] [--openings FILE|builtin] [--keep quiet|all]
                [--max-start-score CP] [--max-plies N] [--hash MB] [--eval hand|nnue]
                [--evalfile NET]
  chuhe datagen --stats FILE|DIR...
  chuhe datagen --relabel FILE... --out FILE [--nodes N | --depth D] [--threads T]
                [--hash MB] [--eval hand|nnue] [--evalfile NET] [--limit N]
  chuhe datagen --convert FILE... --out FILE [--version 1|2] [--unfinished]

options (--name VALUE or --name=VALUE):
  --out FILE               the data file (required): created, or, after a stopped run of the
                           same flags (FILE.resume beside it), finished from its last whole game
  --games N                games to play (default 100)
  --nodes N                nodes searched per move (default 5000)
  --depth D                search every move to depth D instead (1 to 64)
  --threads T              games played at once, one search thread each (default 1)
  --seed S                 base seed: the same seed gives the same bytes (default 1)
  --random-plies K         random legal plies before the engine plays, 0 to 100 (default 8)
  --openings FILE|builtin  start from an opening picked at random: a file as chuhe match's
                           -openings reads it, or the 60 built-in ones (default: none)
  --keep quiet|all         which searched positions are written (default quiet)
  --max-start-score CP     draw a new start if its first search scores beyond +-CP (default 300)
  --max-plies N            game length limit in plies, then a draw, 10 to 2000 (default 400)
  --hash MB                hash table per game thread, 1 to 4096 (default 4)
  --eval hand|nnue         the evaluation the games are played with: the hand-written one or
                           the embedded network (default: the engine's, UseNNUE's default)
  --evalfile NET           play with this net file instead of the embedded one
  --stats FILE|DIR...      what data files hold: positions, results, endings, score histogram,
                           how the scores predict the results (calibration, K); a directory
                           is the parts its manifest.tsv lists, each checked against its line
  --relabel FILE...        score these files' positions again, each by a fresh search to
                           --nodes/--depth (no history, cleared table; the same output for any
                           --threads); positions, results and game marks are kept
  --limit N                with --relabel: only the first N records (default: all)
  --convert FILE...        rewrite data files (either version) in --version 1 (40 bytes a
                           position) or 2 (chained, about 2 bytes a position; default 2),
                           every record and header kept
  --unfinished             with --convert: take a stopped run (no end mark, a last block
                           or record cut), its whole games

Writes the chained format (version 2, docs/datagen.md; --relabel writes version 1); every
reader takes both; progress on stderr.

examples:
  chuhe datagen --out data.bin --games 10 --threads 2 --seed 7
  chuhe datagen --out more.bin --games 10 --depth 4 --openings builtin --random-plies 4
  chuhe datagen --stats data.bin more.bin
  chuhe datagen --relabel data.bin --out deeper.bin --nodes 20000 --threads 2
  chuhe datagen --convert deeper.bin --out deeper.chain.bin
";

/// Flags that take a value.
const VALUED: &[&str] = &[
    "out",
    "games",
    "nodes",
    "depth",
    "threads",
    "seed",
    "random-plies",
    "openings",
    "keep",
    "max-start-score",
    "max-plies",
    "hash",
    "eval",
    "evalfile",
    "limit",
];

/// How often a log (stderr not a terminal) gets a progress line.
const LOG_EVERY: Duration = Duration::from_secs(30);

/// Runs `chuhe datagen`.
pub fn run(args: &[String]) -> Result<(), String> {
    if let (Some(files), rest) = take_list(args, "stats") {
        if let Some(other) = rest.first() {
            return Err(format!("--stats takes only files, not '{other}'"));
        }
        if files.is_empty() {
            return Err("--stats needs at least one FILE".into());
        }
        let stats = Stats::of_files(&files)?;
        out!("{}{}", stats.report(), crate::fit::calibration_report(&stats.by_score));
        return Ok(());
    }
    if let (Some(inputs), rest) = take_list(args, "relabel") {
        return relabel(&inputs, &rest);
    }
    if let (Some(inputs), rest) = take_list(args, "convert") {
        return convert(&inputs, &rest);
    }
    let (cfg, out) = config(args)?;
    tables_fit(cfg.threads, cfg.hash_mb)?;
    // A run stopped before its end left `OUT.resume`: go on after its last whole game.
    let resume_file = resume::path_of(&out);
    let fingerprint = resume::fingerprint(&cfg);
    let from = resume::load(&resume_file, fingerprint)?;
    let file = resume::open(&out, from)?;
    if let Some(at) = from {
        eprintln!("datagen: resuming '{out}' after game {} of {} ({} positions kept)", at.games, cfg.games, at.records);
    }
    let threads = cfg.threads;
    let line = move |p: &Progress| {
        format!(
            "datagen: games {}/{}  positions {} (of {} searched)  {}",
            p.games,
            p.total,
            p.positions,
            p.searched,
            rate(p, threads)
        )
    };
    let (tick, mut shown) = reporter(line);
    // After each game the resume file is brought up to date; it goes when the run is done.
    let (mut saved, mut save_error) = (from.map_or(0, |at| at.games), None);
    let shown_and_saved = |p: &Progress| {
        if p.games > saved && save_error.is_none() {
            let at = Checkpoint { games: p.games, records: p.positions, bytes: p.bytes };
            save_error = resume::save(&resume_file, fingerprint, at).err();
            saved = p.games;
        }
        shown(p);
    };
    datagen::run(&cfg, std::io::BufWriter::new(file), from, tick, shown_and_saved)
        .map_err(|e| format!("writing '{out}': {e}"))?;
    if let Some(e) = save_error {
        return Err(format!("cannot write '{}': {e}", resume_file.display()));
    }
    match std::fs::remove_file(&resume_file) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(format!("cannot remove '{}': {e}", resume_file.display()))
        }
        _ => Ok(()),
    }
}

/// `--convert FILE... --out FILE [--version 1|2]`.
fn convert(inputs: &[String], rest: &[String]) -> Result<(), String> {
    if inputs.is_empty() {
        return Err("--convert needs at least one FILE".into());
    }
    let a = Args::parse(rest, &["out", "version"], &["unfinished"])?;
    let out = a.value("out").ok_or("--convert needs --out FILE")?.to_string();
    if inputs.contains(&out) {
        return Err(format!("--out '{out}' is also an input"));
    }
    let version = a.number("version", 1, 2, Some(datagen::chain::VERSION as u64))? as u16;
    for path in inputs {
        std::fs::metadata(path).map_err(|e| format!("cannot open '{path}': {e}"))?;
    }
    let file = std::fs::File::create(&out).map_err(|e| format!("cannot create '{out}': {e}"))?;
    let began = Instant::now();
    let unfinished = a.flag("unfinished");
    let done = datagen::convert::convert(inputs, std::io::BufWriter::new(file), version, unfinished)
        .map_err(|e| format!("'{out}': {e}"))?;
    if done.dropped > 0 {
        eprintln!("datagen: dropped the last {} bytes, an unfinished block or record", done.dropped);
    }
    let bytes = std::fs::metadata(&out).map(|m| m.len()).unwrap_or(0);
    eprintln!(
        "datagen: wrote '{out}' (version {version}): {} positions, {} headers, {bytes} bytes ({:.2} a position) in {:.1} s",
        done.records,
        done.headers,
        bytes as f64 / done.records.max(1) as f64,
        began.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `--relabel FILE...` with the other flags in `rest`.
fn relabel(inputs: &[String], rest: &[String]) -> Result<(), String> {
    if inputs.is_empty() {
        return Err("--relabel needs at least one FILE".into());
    }
    let a = Args::parse(rest, VALUED, &[])?;
    for only_games in ["games", "seed", "random-plies", "openings", "keep", "max-start-score", "max-plies"] {
        if a.value(only_games).is_some() {
            return Err(format!("--{only_games} does not go with --relabel"));
        }
    }
    let out = a.value("out").ok_or("--relabel needs --out FILE")?.to_string();
    if inputs.contains(&out) {
        return Err(format!("--out '{out}' is also an input"));
    }
    let d = Config::default();
    let cfg = RelabelConfig {
        budget: budget(&a)?,
        threads: a.number("threads", 1, 256, Some(d.threads as u64))? as usize,
        hash_mb: a.number("hash", 1, 4096, Some(d.hash_mb as u64))? as usize,
        evaluator: a.evaluator()?,
        limit: a.number("limit", 1, u64::MAX, Some(u64::MAX))?,
    };
    // Checked before --out is created, so a mistyped input leaves no empty output behind.
    for path in inputs {
        std::fs::metadata(path).map_err(|e| format!("cannot open '{path}': {e}"))?;
    }
    let file = std::fs::File::create(&out).map_err(|e| format!("cannot create '{out}': {e}"))?;
    tables_fit(cfg.threads, cfg.hash_mb)?;
    let threads = cfg.threads;
    let line = move |p: &Progress| {
        format!("relabel: positions {} (games begun {})  {}", p.positions, p.games, rate(p, threads))
    };
    let (tick, shown) = reporter(line);
    datagen::relabel(&cfg, inputs, std::io::BufWriter::new(file), tick, shown).map_err(|e| format!("'{out}': {e}"))?;
    Ok(())
}

/// Refuses worker tables (one `--hash` per thread) that together exceed what the machine has.
fn tables_fit(threads: usize, hash_mb: usize) -> Result<(), String> {
    let what = format!("--threads {threads} with --hash {hash_mb} (a table per thread)");
    crate::memory::check_fits((threads * hash_mb) as u64, &what)
}

/// The progress line's tail: positions a second (in all and per thread) and `elapsed h:mm:ss`.
fn rate(p: &Progress, threads: usize) -> String {
    let s = p.elapsed.as_secs();
    let (all, each) = (p.rate(), p.rate() / threads as f64);
    format!("{all:.1} positions/s ({each:.1}/thread)  elapsed {}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// The progress tick and printer: a line updated in place on a terminal, one every
/// `LOG_EVERY` into a log, and always the last.
fn reporter(line: impl Fn(&Progress) -> String) -> (Duration, impl FnMut(&Progress)) {
    let live = std::io::stderr().is_terminal();
    let tick = Duration::from_millis(if live { 250 } else { 1000 });
    let mut logged = Instant::now();
    let shown = move |p: &Progress| {
        if live {
            eprint!("\r\x1b[2K{}{}", line(p), if p.done { "\n" } else { "" });
        } else if p.done || logged.elapsed() >= LOG_EVERY {
            eprintln!("{}", line(p));
            logged = Instant::now();
        }
    };
    (tick, shown)
}

/// `--nodes N` or `--depth D` (default 5000 nodes).
fn budget(a: &Args) -> Result<MoveBudget, String> {
    Ok(match (a.value("nodes"), a.value("depth")) {
        (Some(_), Some(_)) => return Err("give --nodes or --depth, not both".into()),
        (None, Some(_)) => MoveBudget::Depth(a.number("depth", 1, 64, None)? as u32),
        _ => MoveBudget::Nodes(a.number("nodes", 1, 1_000_000_000, Some(5000))?),
    })
}

/// The run's configuration and output path from the flags.
fn config(args: &[String]) -> Result<(Config, String), String> {
    let a = Args::parse(args, VALUED, &[])?;
    let out = a
        .value("out")
        .ok_or(format!("--out FILE is required (or --stats FILE...) {}", super::args::SEE_HELP))?
        .to_string();
    if a.value("limit").is_some() {
        return Err("--limit goes with --relabel".into());
    }
    let d = Config::default();
    let budget = budget(&a)?;
    let keep_all = match a.value("keep").unwrap_or("quiet") {
        "quiet" => false,
        "all" => true,
        other => return Err(format!("--keep '{other}' must be quiet or all")),
    };
    let openings = match a.value("openings") {
        None => Vec::new(),
        Some("builtin") => load_openings(None)?,
        Some(path) => load_openings(Some(path))?,
    };
    let adjudication = Adjudication {
        max_plies: a.number("max-plies", 10, 2000, Some(d.adjudication.max_plies as u64))? as u32,
        ..Adjudication::default()
    };
    let random_plies = a.number("random-plies", 0, 100, Some(d.random_plies as u64))? as u32;
    if openings.is_empty() && random_plies == 0 {
        return Err("--random-plies 0 without --openings plays the same game every time".into());
    }
    let cfg = Config {
        games: a.number("games", 1, u32::MAX as u64, Some(d.games))?,
        budget,
        threads: a.number("threads", 1, 256, Some(d.threads as u64))? as usize,
        seed: a.number("seed", 0, u64::MAX, Some(d.seed))?,
        random_plies,
        openings,
        keep_all,
        max_start_score: a.number("max-start-score", 0, 10_000, Some(d.max_start_score as u64))? as i32,
        hash_mb: a.number("hash", 1, 4096, Some(d.hash_mb as u64))? as usize,
        adjudication,
        evaluator: a.evaluator()?,
    };
    Ok((cfg, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_gives_the_defaults() {
        let d = Config::default();
        let MoveBudget::Nodes(nodes) = d.budget else { panic!("nodes by default") };
        for (flag, value) in [
            ("--games N", d.games),
            ("--nodes N", nodes),
            ("--threads T", d.threads as u64),
            ("--seed S", d.seed),
            ("--random-plies K", u64::from(d.random_plies)),
            ("--max-start-score CP", d.max_start_score as u64),
            ("--max-plies N", u64::from(d.adjudication.max_plies)),
            ("--hash MB", d.hash_mb as u64),
        ] {
            let line = HELP.lines().find(|l| l.trim_start().starts_with(flag)).unwrap_or("");
            assert!(line.ends_with(&format!("(default {value})")), "{flag}: {line}");
        }
    }
}
