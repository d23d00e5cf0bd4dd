//! `chuhe stats FILE.pgn... [-sprt elo0=E elo1=E alpha=A beta=B] [-first NAME] [-clock]`: the
//! match runner's summary over PGN files (the shards of one match, or another xiangqi tool's
//! games), and with `-clock` how each engine used its clock.

use super::engine_draft::parse_tc;
use super::match_cmd::parse_sprt;
use crate::matches::clock::ClockUse;
use crate::matches::engine::Limit;
use crate::matches::faults::{at_fault, faults_line, Faults};
use crate::matches::game::Termination;
use crate::matches::pgn::{read_games, PgnGame};
use crate::matches::scheduler::{rating_lines, score_line};
use crate::matches::stats::{first_score, Pairs, Sprt, Tally};
use crate::matches::text::read_file;
use std::collections::HashMap;

/// One line for `chuhe --help`.
pub(super) const ABOUT: &str = "score, Elo, LOS and SPRT over PGN files (e.g. the shards of one match)";

/// `chuhe stats --help`.
pub(super) const HELP: &str = "\
usage:
  chuhe stats FILE.pgn... [-sprt elo0=E elo1=E alpha=A beta=B [model=M]] [-first NAME] [-clock]

options (cutechess-cli style, as chuhe match):
  -sprt elo0=E elo1=E alpha=A beta=B   also the SPRT line: log-likelihood ratio and bounds
                                       (defaults elo0=0 elo1=5 alpha=0.05 beta=0.05)
      model=pentanomial|trinomial   count the colour-swapped pairs (default, when the
                      games come in pairs) or each game alone
  -first NAME      the engine whose score is given (default: the first game's Red)
  -clock           also each engine's clock use, from the move comments' times ({+0.35/12
                   1.2s}) and [TimeControl]: seconds a game, the share of its clock (base per
                   period started plus increments), its longest move, the least time left on
                   its clock after a move, and its time forfeits

Prints chuhe match's summary lines (score, Elo with its 95% error bar, LOS, draw ratio, and
SPRT with -sprt) over every game of the files: the shards of one match, or Chinese-chess PGN
from other tools ([Red] or [White], [Black], [Result]; '*' games are skipped and counted).
The files must hold the games of two engines. A pair is the two finished games of one
[Round] in one file with the colours swapped (chuhe match -games 2, cutechess-cli alike):
with pairs, a 'Ptnml(0-2)' line counts them by the first engine's points, and the SPRT
counts pairs; games outside a pair are counted on their own line. With [Termination] tags,
a 'Faults:' line counts each engine's games lost by a crash ('abandoned'), a stall, an
illegal move or on time, as chuhe match ends with.

examples:
  chuhe stats samples/games.pgn                             # in the source directory
  chuhe stats samples/games.pgn -first Chuhe-B -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05
  chuhe stats samples/clock.pgn -clock                     # 20+0.2 against 5+0.05
";

/// Reads every file, then prints the score, Elo, LOS, draw ratio and (with `-sprt`) LLR lines.
pub fn run(args: &[String]) -> Result<(), String> {
    let mut files = Vec::new();
    let mut sprt: Option<Sprt> = None;
    let mut first: Option<String> = None;
    let mut clock = false;
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
            "clock" if a.starts_with('-') => clock = true,
            _ if a.starts_with('-') => return Err(format!("unknown flag '{a}' (see --help)")),
            _ => files.push(a.clone()),
        }
    }
    if files.is_empty() {
        return Err("no PGN files given (see --help)".into());
    }
    let mut games = Vec::new();
    for (i, f) in files.iter().enumerate() {
        games.extend(read_games(&read_file(f)?).into_iter().map(|g| (i, g)));
    }
    let Some((_, opening)) = games.first() else { return Err("no games in the PGN files".into()) };
    let a = first.unwrap_or_else(|| opening.red.clone());
    let b = games.iter().flat_map(|(_, g)| [&g.red, &g.black]).find(|n| **n != a).cloned();
    let b = b.ok_or_else(|| format!("no games of '{a}' against another engine"))?;
    let mut tally = Tally::default();
    let mut unfinished = 0;
    // Each engine's games lost by a fault, from the [Termination] tags, if the files have them.
    let mut faults = [Faults::default(); 2];
    let mut terminations = false;
    // (file, [Round]) → the first engine's scores with the colours it had.
    let mut rounds: HashMap<(usize, &str), Vec<(f64, bool)>> = HashMap::new();
    for (file, g) in &games {
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
            Some(r) => {
                tally.record(r, first_red);
                if let Some(t) = g.tag("Termination").and_then(Termination::from_pgn) {
                    terminations = true;
                    if let Some(side) = at_fault(r, t) {
                        // Red is side 0: the first engine's when it had Red.
                        faults[usize::from((side == 0) != first_red)].add(t);
                    }
                }
                if let Some(round) = g.tag("Round").filter(|r| !matches!(*r, "" | "?" | "-")) {
                    rounds.entry((*file, round)).or_default().push((first_score(r, first_red), first_red));
                }
            }
            None => unfinished += 1,
        }
    }
    let mut pairs = Pairs::default();
    for scores in rounds.values() {
        if let [(x, x_red), (y, y_red)] = scores[..] {
            if x_red != y_red {
                pairs.record(x, y);
            }
        }
    }
    if unfinished > 0 {
        outln!("unfinished games skipped: {unfinished}");
    }
    let unpaired = tally.games() - 2 * pairs.pairs();
    if pairs.pairs() > 0 && unpaired > 0 {
        outln!("games outside a colour-swapped pair (not in Ptnml): {unpaired}");
    }
    outln!("{}", score_line([&a, &b], &tally));
    let pairs = Some(&pairs).filter(|p| p.pairs() > 0);
    for line in rating_lines(&tally, pairs, sprt.as_ref()) {
        outln!("{line}");
    }
    if terminations {
        outln!("{}", faults_line(&[&a, &b], &faults));
    }
    if clock {
        outln!("clock use (from the move comments' times):");
        let games: Vec<PgnGame> = games.into_iter().map(|(_, g)| g).collect();
        for line in clock_lines(&games, [&a, &b])? {
            outln!("  {line}");
        }
    }
    Ok(())
}

/// A `[TimeControl]` value as this runner and cutechess-cli write it: `40/60+0.5`, `5+0.05`,
/// `0.5/move`, or `inf` (node and depth limits: no clock).
fn limit_of(tc: &str) -> Result<Limit, String> {
    match tc.strip_suffix("/move") {
        Some(t) => match parse_tc(t)? {
            Limit::Clock { base_ms, .. } => Ok(Limit::MoveTime(base_ms)),
            other => Ok(other),
        },
        None if tc == "inf" || tc == "-" => Ok(Limit::Nodes(0)),
        None => parse_tc(tc).map_err(|e| format!("[TimeControl \"{tc}\"]: {e}")),
    }
}

/// One line per engine and time control, in the order first met.
fn clock_lines(games: &[PgnGame], names: [&String; 2]) -> Result<Vec<String>, String> {
    let mut uses: Vec<(String, String, ClockUse)> = Vec::new();
    for g in games {
        for (red, side_tag) in [(true, "RedTimeControl"), (false, "BlackTimeControl")] {
            let name = if red { &g.red } else { &g.black };
            if !names.contains(&name) {
                continue;
            }
            let Some(tc) = g.tag(side_tag).or_else(|| g.tag("TimeControl")) else { continue };
            let limit = limit_of(tc)?;
            let at = match uses.iter().position(|(n, t, _)| n == name && t == tc) {
                Some(i) => i,
                None => {
                    uses.push((name.clone(), tc.to_string(), ClockUse::default()));
                    uses.len() - 1
                }
            };
            uses[at].2.add(g, red, limit);
        }
    }
    if uses.is_empty() {
        return Err("-clock: no game has a [TimeControl] tag".into());
    }
    Ok(uses.iter().map(|(n, tc, u)| u.line(n, tc)).collect())
}
