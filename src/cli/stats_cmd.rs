//! `chuhe stats FILE.pgn... [-sprt elo0=E elo1=E alpha=A beta=B] [-first NAME]`: the match
//! runner's summary over PGN files (the shards of one match, or another xiangqi tool's games).

use super::match_cmd::parse_sprt;
use crate::matches::pgn::{read_file, read_games};
use crate::matches::scheduler::{rating_lines, score_line};
use crate::matches::stats::{Sprt, Tally};

/// One line for `chuhe --help`.
pub(super) const ABOUT: &str = "score, Elo, LOS and SPRT over PGN files (e.g. the shards of one match)";

/// `chuhe stats --help`.
pub(super) const HELP: &str = "\
usage:
  chuhe stats FILE.pgn... [-sprt elo0=E elo1=E alpha=A beta=B] [-first NAME]

options (cutechess-cli style, as chuhe match):
  -sprt elo0=E elo1=E alpha=A beta=B   also the SPRT line: log-likelihood ratio and bounds
                                       (defaults elo0=0 elo1=5 alpha=0.05 beta=0.05)
  -first NAME      the engine whose score is given (default: the first game's Red)

Prints chuhe match's summary lines (score, Elo with its 95% error bar, LOS, draw ratio, and
SPRT with -sprt) over every game of the files: the shards of one match, or Chinese-chess PGN
from other tools ([Red] or [White], [Black], [Result]; '*' games are skipped and counted).
The files must hold the games of two engines.

examples:
  chuhe stats samples/games.pgn                             # in the source directory
  chuhe stats samples/games.pgn -first Chuhe-B -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05
";

/// Reads every file, then prints the score, Elo, LOS, draw ratio and (with `-sprt`) LLR lines.
pub fn run(args: &[String]) -> Result<(), String> {
    let mut files = Vec::new();
    let mut sprt: Option<Sprt> = None;
    let mut first: Option<String> = None;
    let mut it = args.iter().peekable();
    while let Some(a) = it.next() {
        match a.trim_start_matches('-') {
            "sprt" if a.starts_with('-') => {
                let mut words = Vec::new();
                while let Some(w) = it.next_if(|w| w.contains('=') && !w.starts_with('-')) {
                    words.push(w.clone());
                }
                sprt = Some(parse_sprt(&words)?);
            }
            "first" if a.starts_with('-') => first = Some(it.next().ok_or("-first needs a name")?.clone()),
            _ if a.starts_with('-') => return Err(format!("unknown flag '{a}' (see --help)")),
            _ => files.push(a.clone()),
        }
    }
    if files.is_empty() {
        return Err("no PGN files given (see --help)".into());
    }
    let mut games = Vec::new();
    for f in &files {
        games.extend(read_games(&read_file(f)?));
    }
    let Some(opening) = games.first() else { return Err("no games in the PGN files".into()) };
    let a = first.unwrap_or_else(|| opening.red.clone());
    let b = games.iter().flat_map(|g| [&g.red, &g.black]).find(|n| **n != a).cloned();
    let b = b.ok_or_else(|| format!("no games of '{a}' against another engine"))?;
    let mut tally = Tally::default();
    let mut unfinished = 0;
    for g in &games {
        let first_red = match (g.red == a, g.black == a) {
            (true, false) if g.black == b => true,
            (false, true) if g.red == b => false,
            _ => {
                return Err(format!(
                    "a game of '{}' vs '{}': stats compares two engines, '{a}' and '{b}'",
                    g.red, g.black
                ))
            }
        };
        match g.result {
            Some(r) => tally.record(r, first_red),
            None => unfinished += 1,
        }
    }
    if unfinished > 0 {
        outln!("unfinished games skipped: {unfinished}");
    }
    outln!("{}", score_line([&a, &b], &tally));
    for line in rating_lines(&tally, sprt.as_ref()) {
        outln!("{line}");
    }
    Ok(())
}
