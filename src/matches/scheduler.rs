//! Runs a match: rounds of games spread over worker threads (each worker owns its own pair of
//! engine processes, so clocks never interfere), cutechess-cli style output, PGN, SPRT stop.

use super::engine::{EngineConfig, EngineProcess};
use super::game::{play_game, Adjudication, GameRecord, Seat};
use super::openings::Opening;
use super::pgn::{today, write_game, PgnHeader};
use super::stats::{Sprt, SprtDecision, Tally};
use crate::rules::GameResult;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// A whole match's settings.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines; statistics are from the first one's side.
    pub engines: [EngineConfig; 2],
    /// Games per round.
    pub games: usize,
    /// Rounds.
    pub rounds: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// Openings, used in order.
    pub openings: Vec<Opening>,
    /// Consecutive games on each opening (colours alternate every game).
    pub repeat: usize,
    /// PGN file to append games to.
    pub pgnout: Option<String>,
    /// SPRT parameters; the match stops at a decision.
    pub sprt: Option<Sprt>,
    /// Score adjudication.
    pub adjudication: Adjudication,
    /// Print Elo and SPRT lines every this many games (and at the end).
    pub rating_interval: usize,
    /// PGN `[Event]`.
    pub event: String,
    /// Whether to keep a live progress line (stdout is a terminal).
    pub live: bool,
}

/// What a match ended with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchSummary {
    /// First engine's wins, losses and draws.
    pub tally: Tally,
    /// SPRT decision, if an SPRT ran.
    pub sprt: Option<SprtDecision>,
}

enum Event {
    Started(usize),
    Finished(usize, Box<GameRecord>),
}

/// Whether the first engine has Red in game `i` (0-based): colours alternate every game.
fn first_is_red(i: usize) -> bool {
    i.is_multiple_of(2)
}

/// Writes `line` to `out`, keeping the live progress line below it.
fn say(out: &mut dyn Write, live: bool, line: &str) {
    if live {
        let _ = write!(out, "\r\x1b[2K");
    }
    let _ = writeln!(out, "{line}");
}

/// The Elo / LOS / draw-ratio line and, with an SPRT, its line.
fn rating_lines(t: &Tally, sprt: Option<&Sprt>) -> Vec<String> {
    let mut lines = vec![format!(
        "Elo difference: {:.1} +/- {:.1}, LOS: {:.1} %, DrawRatio: {:.1} %",
        t.elo() + 0.0, // no "-0.0"
        t.elo_error(),
        100.0 * t.los(),
        100.0 * t.draw_ratio()
    )];
    if let Some(s) = sprt {
        let llr = s.llr(t);
        let bound = if llr >= 0.0 { s.upper_bound() } else { s.lower_bound() };
        let mut line = format!(
            "SPRT: llr {:.3} ({:.1}%), lbound {:.3}, ubound {:.3}",
            llr,
            100.0 * llr / bound,
            s.lower_bound(),
            s.upper_bound()
        );
        match s.decision(t) {
            SprtDecision::AcceptH0 => line += " - H0 was accepted",
            SprtDecision::AcceptH1 => line += " - H1 was accepted",
            SprtDecision::Continue => {}
        }
        lines.push(line);
    }
    lines
}

/// Plays the match, printing cutechess-cli style lines to `out`. Fails only when an engine
/// cannot be started at all or the PGN file cannot be opened.
pub fn run_match(cfg: &MatchConfig, out: &mut dyn Write) -> Result<MatchSummary, String> {
    let total = cfg.games * cfg.rounds;
    let names = [cfg.engines[0].name.as_str(), cfg.engines[1].name.as_str()];
    let mut pgn = match &cfg.pgnout {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot open PGN file '{path}': {e}"))?,
        ),
        None => None,
    };
    // Start the first worker's engines now, so a wrong command fails the match at once.
    let workers = cfg.concurrency.clamp(1, total.max(1));
    let mut seats: Vec<[Seat; 2]> = Vec::new();
    for w in 0..workers {
        let mut pair = [Seat::new(cfg.engines[0].clone()), Seat::new(cfg.engines[1].clone())];
        if w == 0 {
            for seat in pair.iter_mut() {
                seat.process = Some(EngineProcess::start(&seat.cfg)?);
            }
        }
        seats.push(pair);
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Event>();
    let mut tally = Tally::default();
    let mut decision = None;
    let date = today();
    std::thread::scope(|scope| {
        for mut pair in seats {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= total || stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let _ = tx.send(Event::Started(i));
                    let opening = &cfg.openings[(i / cfg.repeat.max(1)) % cfg.openings.len()];
                    let [a, b] = &mut pair;
                    let order = if first_is_red(i) { [a, b] } else { [b, a] };
                    match play_game(order, opening, &cfg.adjudication, stop) {
                        Some(rec) => {
                            let _ = tx.send(Event::Finished(i, Box::new(rec)));
                        }
                        None => break,
                    }
                }
                for seat in pair.iter_mut() {
                    seat.shut_down();
                }
            });
        }
        drop(tx);
        let mut since_rating = 0;
        for event in rx {
            let (i, rec) = match event {
                Event::Started(i) => {
                    if decision.is_none() {
                        let (r, b) = if first_is_red(i) { (names[0], names[1]) } else { (names[1], names[0]) };
                        say(out, cfg.live, &format!("Started game {} of {total} ({r} vs {b})", i + 1));
                    }
                    continue;
                }
                Event::Finished(i, rec) => (i, rec),
            };
            if decision.is_some() {
                continue; // games still running when the SPRT decided do not count
            }
            let a_red = first_is_red(i);
            let (red, black) = if a_red { (names[0], names[1]) } else { (names[1], names[0]) };
            match (rec.result, a_red) {
                (GameResult::Draw, _) => tally.draws += 1,
                (GameResult::RedWins, true) | (GameResult::BlackWins, false) => tally.wins += 1,
                _ => tally.losses += 1,
            }
            say(
                out,
                cfg.live,
                &format!("Finished game {} ({red} vs {black}): {} {{{}}}", i + 1, rec.result, rec.reason),
            );
            say(
                out,
                cfg.live,
                &format!(
                    "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
                    names[0],
                    names[1],
                    tally.wins,
                    tally.losses,
                    tally.draws,
                    tally.score(),
                    tally.games()
                ),
            );
            if let Some(file) = pgn.as_mut() {
                let header = PgnHeader { event: &cfg.event, round: i / cfg.games.max(1) + 1, red, black, date: &date };
                if let Err(e) = file.write_all(write_game(&header, &rec).as_bytes()) {
                    say(out, cfg.live, &format!("Warning: cannot write PGN: {e}"));
                }
            }
            since_rating += 1;
            let decided = cfg.sprt.map(|s| s.decision(&tally)).filter(|&d| d != SprtDecision::Continue);
            if since_rating >= cfg.rating_interval.max(1) || decided.is_some() {
                since_rating = 0;
                for line in rating_lines(&tally, cfg.sprt.as_ref()) {
                    say(out, cfg.live, &line);
                }
            }
            if decided.is_some() {
                decision = decided;
                stop.store(true, Ordering::SeqCst);
            }
            if cfg.live {
                let _ = write!(
                    out,
                    "\r\x1b[2K[{}/{total}] {} vs {}: {} - {} - {}  Elo {:.1} +/- {:.1}",
                    tally.games(),
                    names[0],
                    names[1],
                    tally.wins,
                    tally.losses,
                    tally.draws,
                    tally.elo() + 0.0,
                    tally.elo_error()
                );
            }
            let _ = out.flush();
        }
    });
    if since_last_rating_needed(&tally, cfg) && decision.is_none() {
        for line in rating_lines(&tally, cfg.sprt.as_ref()) {
            say(out, cfg.live, &line);
        }
    }
    say(out, cfg.live, "Finished match");
    let _ = out.flush();
    let sprt = cfg.sprt.map(|s| decision.unwrap_or(s.decision(&tally)));
    Ok(MatchSummary { tally, sprt })
}

/// Whether the final rating lines still need printing (not just printed after the last game).
fn since_last_rating_needed(t: &Tally, cfg: &MatchConfig) -> bool {
    t.games() == 0 || !(t.games() as usize).is_multiple_of(cfg.rating_interval.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rating_lines_in_cutechess_words() {
        let t = Tally { wins: 60, losses: 40, draws: 100 };
        let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
        let lines = rating_lines(&t, Some(&sprt));
        assert_eq!(lines[0], "Elo difference: 34.9 +/- 34.2, LOS: 97.7 %, DrawRatio: 50.0 %");
        assert_eq!(lines[1], "SPRT: llr 1.005 (34.1%), lbound -2.944, ubound 2.944");
        assert!(first_is_red(0) && !first_is_red(1));
    }
}
