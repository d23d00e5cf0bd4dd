//! `chuhe perft-diff --engine CMD [proto=uci|ucci] [arg=A]... [option.N=V]... [--fen F] --depth D`:
//! finds where another engine's move generation differs from ours by comparing `go perft`
//! splits and descending into a move whose count differs, until the move lists differ.

use super::engine_draft::EngineDraft;
use super::perft_cmd::counter_flags;
use super::Args;
use crate::board::{Move, Position};
use crate::matches::engine::{describe, EngineProcess, Failure};
use crate::perft::Perft;
use std::collections::BTreeMap;
use std::process::ExitCode;
use std::time::Duration;

/// One line for `chuhe --help`.
pub(super) const ABOUT: &str = "find where another engine's move generation differs from ours";

/// `chuhe perft-diff --help`.
pub(super) const HELP: &str = "\
usage:
  chuhe perft-diff --engine CMD [KEY=VALUE...] [--fen FEN] --depth D [--timeout S]
                   [--threads N] [--hash MB]

options (--name VALUE or --name=VALUE):
  --engine CMD     the other engine's program (required); the KEY=VALUE words after it are
                   its settings, as chuhe match's -engine reads them:
                     proto=uci|ucci   its protocol (default uci)
                     arg=A            a command-line argument (repeatable)
                     option.NAME=V    an option set before counting (repeatable)
                     dir=D            its working directory
                     name=N           its name in messages (default: the program's file name)
  --depth D        plies, 1 to 12 (required)
  --fen FEN        position to start from (default: the start position)
  --timeout S      seconds to wait for each 'go perft' answer, 1 to 86400 (default 600)
  --threads N      threads for our own counts (default 1)
  --hash MB        a cache for our own counts (default: none)

Asks the engine for its 'go perft D' split ('move: count' lines, as Stockfish-family engines
print them), compares it with ours and descends into the first move whose count differs,
until the legal move lists differ. It prints a line per level, the position (FEN), the move
path and the moves missing or extra on the engine's side: exit status 1. Engines that agree:
one line with the total, status 0. Ranks written 1-10 (Fairy-Stockfish's UCI mode) are
recognised. An engine that exits, has no 'go perft' or stays silent: one error line, status 2.

examples:
  chuhe perft-diff --engine chuhe --depth 3                 # Chuhe against itself: they agree
  chuhe perft-diff --engine=chuhe proto=ucci --fen \"4k4/9/9/9/9/9/9/9/R8/5K3 w - - 0 1\" --depth 4
  # in the source directory: a test engine that lacks the move e6e5 (needs python3)
  chuhe perft-diff --engine tests/fixtures/perft_engine.py arg=--chuhe arg=chuhe arg=--drop \\
      arg=e6e5 --depth 3
";

/// How an engine numbers ranks in move text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ranks {
    /// 0–9, as ICCS, UCCI and Pikafish write them (`h2e2`).
    FromZero,
    /// 1–10, as Fairy-Stockfish's UCI xiangqi mode writes them (`h3e3`, `b3b10`).
    FromOne,
}

/// Move text as (from file, from rank, to file, to rank), ranks as written.
fn squares(text: &str) -> Option<(char, u32, char, u32)> {
    let b = text.as_bytes();
    let file = |i: usize| b.get(i).filter(|c| (b'a'..=b'i').contains(c)).map(|&c| c as char);
    let f1 = file(0)?;
    let split = 1 + text[1..].find(|c: char| !c.is_ascii_digit())?;
    let f2 = file(split)?;
    let (r1, r2) = (text[1..split].parse().ok()?, text[split + 1..].parse().ok()?);
    Some((f1, r1, f2, r2))
}

/// `text` with ranks 0–9 under `ranks`; text that is not a move stays as written.
fn to_ours(text: &str, ranks: Ranks) -> String {
    match (squares(text), ranks) {
        (Some((f1, r1, f2, r2)), Ranks::FromOne) if r1 >= 1 && r2 >= 1 => format!("{f1}{}{f2}{}", r1 - 1, r2 - 1),
        _ => text.to_string(),
    }
}

/// The engine's numbering: a rank 10 or a rank 0 decides; otherwise the reading that matches
/// more of our moves (ranks from zero on a tie), unless an earlier split already decided.
fn detect(moves: &[(String, u64)], ours: &BTreeMap<String, u64>, known: Option<Ranks>) -> (Ranks, bool) {
    let ranks: Vec<u32> = moves.iter().filter_map(|(m, _)| squares(m)).flat_map(|(_, a, _, b)| [a, b]).collect();
    if ranks.contains(&10) {
        return (Ranks::FromOne, true);
    }
    if ranks.contains(&0) {
        return (Ranks::FromZero, true);
    }
    if let Some(k) = known {
        return (k, true);
    }
    let hits = |r: Ranks| moves.iter().filter(|(m, _)| ours.contains_key(&to_ours(m, r))).count();
    let r = if hits(Ranks::FromOne) > hits(Ranks::FromZero) { Ranks::FromOne } else { Ranks::FromZero };
    (r, false)
}

/// Asks the other engine for its split of (FEN, depth): `(move text, count)` as it writes them.
type AskEngine<'a> = dyn FnMut(&str, u32) -> Result<Vec<(String, u64)>, String> + 'a;

/// What the descent found.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    /// Every count agrees.
    Agree { total: u64, moves: usize },
    /// The legal move lists differ at `fen`, reached by `path`.
    Differ { fen: String, path: Vec<Move>, missing: Vec<String>, extra: Vec<String> },
    /// The engine's count for the last move of `path` differed, yet every count below agrees.
    Inconsistent { fen: String, path: Vec<Move>, ours: u64, theirs: u64 },
}

/// Descends from `pos` at `depth`: `ask(fen, depth)` gives the other engine's split, `counter`
/// ours; `log` gets one line per level.
fn descend(
    mut pos: Position,
    depth: u32,
    counter: &Perft,
    ask: &mut AskEngine,
    log: &mut dyn FnMut(String),
) -> Result<Outcome, String> {
    let mut path: Vec<Move> = Vec::new();
    let mut known = None;
    let mut told = false;
    let mut parent: Option<(u64, u64)> = None;
    for d in (1..=depth).rev() {
        let fen = pos.to_fen();
        let ours: BTreeMap<String, u64> =
            counter.divide(&mut pos, d, |_, _| {}).into_iter().map(|(m, n)| (m.to_string(), n)).collect();
        let raw = ask(&fen, d)?;
        let (ranks, sure) = detect(&raw, &ours, known);
        if ranks == Ranks::FromOne && !told {
            told = true;
            log("the engine numbers ranks 1-10; its moves are shown with ranks 0-9".to_string());
        }
        known = known.or(sure.then_some(ranks));
        let mut theirs = BTreeMap::new();
        let mut extra = Vec::new();
        for (m, n) in &raw {
            let m = to_ours(m, ranks);
            if theirs.insert(m.clone(), *n).is_some() {
                extra.push(format!("{m} (listed twice)"));
            }
        }
        let missing: Vec<String> = ours.keys().filter(|m| !theirs.contains_key(*m)).cloned().collect();
        extra.extend(theirs.keys().filter(|m| !ours.contains_key(*m)).cloned());
        if !missing.is_empty() || !extra.is_empty() {
            return Ok(Outcome::Differ { fen, path, missing, extra });
        }
        let Some((m, a, b)) = ours.iter().map(|(m, &a)| (m, a, theirs[m])).find(|&(_, a, b)| a != b) else {
            let total = ours.values().sum();
            return Ok(match parent {
                None => Outcome::Agree { total, moves: ours.len() },
                Some((ours, theirs)) => Outcome::Inconsistent { fen, path, ours, theirs },
            });
        };
        log(format!("depth {d}: {} moves alike; {m}: ours {a}, engine {b}", ours.len()));
        let mv = Move::parse(m).map_err(|e| e.to_string())?;
        pos.make_move(mv);
        path.push(mv);
        parent = Some((a, b));
    }
    // Only an engine whose depth-1 split has counts other than 1 gets here.
    Err("the engine's perft 1 split has counts other than 1".to_string())
}

/// Runs `chuhe perft-diff`: status 0 when the engines agree, 1 when they differ.
pub fn run(args: &[String]) -> Result<ExitCode, String> {
    // `--engine CMD` takes the KEY=VALUE words after it; the rest are ordinary flags.
    let mut draft = EngineDraft::default();
    draft.apply("proto", "uci")?;
    draft.apply("depth", "1")?; // the match runner's limit, unused here
    let mut rest = Vec::new();
    let mut engine = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--engine" || a.starts_with("--engine=") {
            let cmd = match a.strip_prefix("--engine=") {
                Some(cmd) => cmd,
                None => it.next().ok_or("--engine needs a command")?,
            };
            draft.apply("cmd", cmd)?;
            engine = true;
        } else if engine && !a.starts_with("--") && a.contains('=') {
            let (k, v) = a.split_once('=').unwrap_or((a, ""));
            if k == "proto" && !matches!(v, "uci" | "ucci") {
                // The match runner also knows xboard, but CECP has no perft command.
                return Err(format!("--engine: proto '{v}': expected uci or ucci (perft needs go perft)"));
            }
            draft.apply(k, v).map_err(|e| format!("--engine: {e}"))?;
        } else {
            rest.push(a.clone());
        }
    }
    if !engine {
        return Err("--engine CMD is required (see --help)".into());
    }
    let a = Args::parse(&rest, &["fen", "depth", "timeout", "threads", "hash"], &[])?;
    let depth = a.number("depth", 1, 12, None)? as u32;
    let timeout = Duration::from_secs(a.number("timeout", 1, 86_400, Some(600))?);
    let (threads, table) = counter_flags(&a)?;
    let pos = a.position()?;
    let cfg = draft.finish(0)?;
    let name = cfg.name.clone();
    let mut process = EngineProcess::start(&cfg)?;
    let mut ask = |fen: &str, d: u32| match process.perft(fen, d, timeout) {
        Ok(Some(split)) => Ok(split.moves),
        Ok(None) => Err(format!("engine '{name}' answered 'go perft {d}' with a bestmove: it has no perft command")),
        Err(f @ Failure::Stalled) => Err(format!(
            "engine '{name}' gave no 'go perft {d}' answer within {} s ({})",
            timeout.as_secs(),
            describe(f)
        )),
        Err(f) => Err(format!("engine '{name}' failed on 'go perft {d}' at {fen}: {}", describe(f))),
    };
    let counter = Perft { threads, table: table.as_ref() };
    let outcome = descend(pos, depth, &counter, &mut ask, &mut |line| outln!("{line}"));
    process.quit();
    Ok(report(&outcome?))
}

/// Prints the outcome; the exit status says whether the engines agree.
fn report(outcome: &Outcome) -> ExitCode {
    let moves = |path: &[Move]| {
        if path.is_empty() {
            "(none: the given position)".to_string()
        } else {
            path.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
        }
    };
    let list = |v: &[String]| if v.is_empty() { "none".to_string() } else { v.join(" ") };
    match outcome {
        Outcome::Agree { total, moves } => {
            outln!("the engines agree: {total} leaves over {moves} root moves");
            ExitCode::SUCCESS
        }
        Outcome::Differ { fen, path, missing, extra } => {
            outln!("the legal moves differ at: {fen}");
            outln!("path: {}", moves(path));
            outln!("missing (legal, the engine lacks them): {}", list(missing));
            outln!("extra (the engine has them, not legal): {}", list(extra));
            ExitCode::FAILURE
        }
        Outcome::Inconsistent { fen, path, ours, theirs } => {
            outln!("the engine's count after {} was {theirs} (ours {ours}), yet every count at", moves(path));
            outln!("{fen} agrees: its counts are inconsistent (a cache or counting bug, not move generation)");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Our own split of `fen` at `depth` as an engine would print it, with `drop` left out
    /// wherever it is legal and ranks renumbered from one when `from_one`.
    fn broken(fen: &str, depth: u32, drop: &str, from_one: bool) -> Vec<(String, u64)> {
        fn count(pos: &mut Position, depth: u32, drop: &str) -> u64 {
            let moves: Vec<Move> = pos.legal_moves().into_iter().filter(|m| m.to_string() != drop).collect();
            if depth <= 1 {
                return moves.len() as u64;
            }
            moves
                .iter()
                .map(|&m| {
                    let u = pos.make_move(m);
                    let n = count(pos, depth - 1, drop);
                    pos.unmake_move(m, u);
                    n
                })
                .sum()
        }
        let mut pos = Position::from_fen(fen).unwrap();
        let moves: Vec<Move> = pos.legal_moves().into_iter().filter(|m| m.to_string() != drop).collect();
        moves
            .iter()
            .map(|&m| {
                let u = pos.make_move(m);
                let n = count(&mut pos, depth - 1, drop);
                pos.unmake_move(m, u);
                let t = m.to_string();
                let t = if from_one {
                    let (f1, r1, f2, r2) = squares(&t).unwrap();
                    format!("{f1}{}{f2}{}", r1 + 1, r2 + 1)
                } else {
                    t
                };
                (t, if depth == 1 { 1 } else { n })
            })
            .collect()
    }

    fn run_against(drop: &str, from_one: bool, depth: u32) -> Outcome {
        let mut ask = |fen: &str, d: u32| Ok(broken(fen, d, drop, from_one));
        descend(Position::startpos(), depth, &Perft::plain(), &mut ask, &mut |_| {}).unwrap()
    }

    #[test]
    fn finds_a_missing_move_below_the_root() {
        // e6e5 (Black's centre pawn) is legal after every Red move but one.
        for from_one in [false, true] {
            match run_against("e6e5", from_one, 3) {
                Outcome::Differ { path, missing, extra, .. } => {
                    assert_eq!(path.len(), 1);
                    assert_eq!((missing, extra), (vec!["e6e5".to_string()], vec![]));
                }
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(run_against("a0a9", true, 2), Outcome::Agree { total: 1920, moves: 44 });
        let mut ask = |fen: &str, d: u32| {
            let mut v = broken(fen, d, "", false);
            v.push(("i9i0".to_string(), 1));
            Ok(v)
        };
        match descend(Position::startpos(), 2, &Perft::plain(), &mut ask, &mut |_| {}).unwrap() {
            Outcome::Differ { path, missing, extra, .. } => {
                assert!(path.is_empty() && missing.is_empty());
                assert_eq!(extra, vec!["i9i0".to_string()]);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn rank_numbering_is_detected() {
        let ours: BTreeMap<String, u64> = [("a0a1".to_string(), 1), ("e3e4".to_string(), 1)].into();
        let one = |m: &str| vec![(m.to_string(), 1)];
        assert_eq!(detect(&one("b3b10"), &ours, None), (Ranks::FromOne, true));
        assert_eq!(detect(&one("a0a1"), &ours, None), (Ranks::FromZero, true));
        assert_eq!(detect(&one("e4e5"), &ours, None), (Ranks::FromOne, false));
        assert_eq!(detect(&one("e4e5"), &ours, Some(Ranks::FromZero)), (Ranks::FromZero, true));
        assert_eq!(to_ours("b3b10", Ranks::FromOne), "b2b9");
        assert_eq!(to_ours("(none)", Ranks::FromOne), "(none)");
        assert_eq!(squares("h10h9"), Some(('h', 10, 'h', 9)));
        assert_eq!(squares("z1a1"), None);
    }
}
