//! Runs a match: rounds of games spread over worker threads (each worker owns its own pair of
//! engine processes, so clocks never interfere), cutechess-cli style output, PGN, SPRT stop.

use super::engine::{EngineConfig, EngineProcess};
use super::game::{play_game, Adjudication, GameRecord, Seat};
use super::openings::Opening;
use super::pgn::{today, write_game, PgnHeader};
use super::stats::{Sprt, SprtDecision, Tally};
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
    /// `(k, n)`: play only the k-th (1-based) of n contiguous slices of the game numbers.
    pub shard: Option<(usize, usize)>,
}

impl MatchConfig {
    /// Games in the whole match (all shards).
    pub fn total_games(&self) -> usize {
        self.games * self.rounds
    }

    /// The game numbers (0-based) this process plays: all of them, or its shard's slice.
    /// Game `i` has the same opening and colours whichever process plays it.
    pub fn game_range(&self) -> std::ops::Range<usize> {
        shard_range(self.total_games(), self.shard)
    }
}

/// Game numbers of shard `(k, n)` of `total` games: contiguous, so the colour-swapped pairs on
/// one opening stay together; all games without a (valid) shard.
fn shard_range(total: usize, shard: Option<(usize, usize)>) -> std::ops::Range<usize> {
    match shard {
        Some((k, n)) if (1..=n).contains(&k) => (k - 1) * total / n..k * total / n,
        _ => 0..total,
    }
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

/// The match as the user sees it: cutechess-cli's lines (and a live progress line on a
/// terminal), the tally, the PGN file, and the SPRT decision that stops the match.
struct Reporter<'a> {
    cfg: &'a MatchConfig,
    out: &'a mut dyn Write,
    names: [&'a str; 2],
    /// Games in the whole match (game numbers are the match's, shard or not).
    total: usize,
    /// Games this process plays.
    planned: usize,
    pgn: Option<std::fs::File>,
    date: String,
    tally: Tally,
    since_rating: usize,
    /// Set once the SPRT decides; later results do not count.
    decision: Option<SprtDecision>,
}

impl<'a> Reporter<'a> {
    /// A reporter for `cfg`; fails if the PGN file cannot be opened.
    fn new(cfg: &'a MatchConfig, out: &'a mut dyn Write) -> Result<Reporter<'a>, String> {
        let pgn = match &cfg.pgnout {
            Some(path) => Some(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| format!("cannot open PGN file '{path}': {e}"))?,
            ),
            None => None,
        };
        Ok(Reporter {
            cfg,
            out,
            names: [cfg.engines[0].name.as_str(), cfg.engines[1].name.as_str()],
            total: cfg.total_games(),
            planned: cfg.game_range().len(),
            pgn,
            date: today(),
            tally: Tally::default(),
            since_rating: 0,
            decision: None,
        })
    }

    /// Writes `line`, keeping the live progress line below it.
    fn say(&mut self, line: &str) {
        if self.cfg.live {
            let _ = write!(self.out, "\r\x1b[2K");
        }
        let _ = writeln!(self.out, "{line}");
    }

    /// The names of game `i`'s Red and Black engines.
    fn players(&self, i: usize) -> (&'a str, &'a str) {
        let [a, b] = self.names;
        if first_is_red(i) {
            (a, b)
        } else {
            (b, a)
        }
    }

    fn started(&mut self, i: usize) {
        if self.decision.is_none() {
            let (red, black) = self.players(i);
            self.say(&format!("Started game {} of {} ({red} vs {black})", i + 1, self.total));
        }
    }

    /// Counts, prints and stores game `i`; `true` when the SPRT has just decided.
    fn finished(&mut self, i: usize, rec: &GameRecord) -> bool {
        if self.decision.is_some() {
            return false; // games still running when the SPRT decided do not count
        }
        let (red, black) = self.players(i);
        self.tally.record(rec.result, first_is_red(i));
        self.say(&format!("Finished game {} ({red} vs {black}): {} {{{}}}", i + 1, rec.result, rec.reason));
        let t = self.tally;
        self.say(&score_line(self.names, &t));
        self.write_pgn(i, rec, red, black);
        self.since_rating += 1;
        // A shard's games are a slice of the match: the decision is the merged stats' to make.
        let decided = self
            .cfg
            .sprt
            .filter(|_| self.cfg.shard.is_none())
            .map(|s| s.decision(&t))
            .filter(|&d| d != SprtDecision::Continue);
        if self.since_rating >= self.cfg.rating_interval.max(1) || decided.is_some() {
            self.since_rating = 0;
            self.rating();
        }
        self.decision = decided;
        self.progress();
        decided.is_some()
    }

    fn write_pgn(&mut self, i: usize, rec: &GameRecord, red: &str, black: &str) {
        let cfg = self.cfg;
        let header = PgnHeader { event: &cfg.event, round: i / cfg.games.max(1) + 1, red, black, date: &self.date };
        let written = self.pgn.as_mut().map(|file| file.write_all(write_game(&header, rec).as_bytes()));
        if let Some(Err(e)) = written {
            self.say(&format!("Warning: cannot write PGN: {e}"));
        }
    }

    /// The Elo (and SPRT) lines.
    fn rating(&mut self) {
        for line in rating_lines(&self.tally, self.cfg.sprt.as_ref()) {
            self.say(&line);
        }
    }

    /// The live progress line (on a terminal), then a flush.
    fn progress(&mut self) {
        if self.cfg.live {
            let (t, [a, b]) = (self.tally, self.names);
            let _ = write!(
                self.out,
                "\r\x1b[2K[{}/{}] {a} vs {b}: {} - {} - {}  Elo {:.1} +/- {:.1}",
                t.games(),
                self.planned,
                t.wins,
                t.losses,
                t.draws,
                t.elo() + 0.0,
                t.elo_error()
            );
        }
        let _ = self.out.flush();
    }

    /// The closing lines (the rating again unless just printed) and the summary.
    fn finish(mut self) -> MatchSummary {
        let games = self.tally.games() as usize;
        let just_rated = games > 0 && games.is_multiple_of(self.cfg.rating_interval.max(1));
        if !just_rated && self.decision.is_none() {
            self.rating();
        }
        self.say("Finished match");
        let _ = self.out.flush();
        let sprt = self.cfg.sprt.map(|s| self.decision.unwrap_or(s.decision(&self.tally)));
        MatchSummary { tally: self.tally, sprt }
    }
}

/// cutechess-cli's score line: `Score of A vs B: W - L - D  [score] games`.
pub fn score_line(names: [&str; 2], t: &Tally) -> String {
    let [a, b] = names;
    format!("Score of {a} vs {b}: {} - {} - {}  [{:.3}] {}", t.wins, t.losses, t.draws, t.score(), t.games())
}

/// The Elo / LOS / draw-ratio line and, with an SPRT, its line.
pub fn rating_lines(t: &Tally, sprt: Option<&Sprt>) -> Vec<String> {
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

/// One pair of seats per worker; the first worker's engines start now, so a wrong command
/// fails the match at once.
fn seat_pairs(cfg: &MatchConfig, workers: usize) -> Result<Vec<[Seat; 2]>, String> {
    let mut pairs = Vec::new();
    for w in 0..workers {
        let mut pair = [Seat::new(cfg.engines[0].clone()), Seat::new(cfg.engines[1].clone())];
        if w == 0 {
            for seat in pair.iter_mut() {
                seat.process = Some(EngineProcess::start(&seat.cfg)?);
            }
        }
        pairs.push(pair);
    }
    Ok(pairs)
}

/// One worker: plays the games whose numbers it draws from `next` with its own engines.
fn worker(cfg: &MatchConfig, mut pair: [Seat; 2], next: &AtomicUsize, stop: &AtomicBool, tx: mpsc::Sender<Event>) {
    let end = cfg.game_range().end;
    loop {
        let i = next.fetch_add(1, Ordering::SeqCst);
        if i >= end || stop.load(Ordering::SeqCst) {
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
}

/// Plays the match, printing cutechess-cli style lines to `out`. Fails only when an engine
/// cannot be started at all or the PGN file cannot be opened.
pub fn run_match(cfg: &MatchConfig, out: &mut dyn Write) -> Result<MatchSummary, String> {
    let mut reporter = Reporter::new(cfg, out)?;
    let range = cfg.game_range();
    let pairs = seat_pairs(cfg, cfg.concurrency.clamp(1, range.len().max(1)))?;
    let next = AtomicUsize::new(range.start);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Event>();
    std::thread::scope(|scope| {
        for pair in pairs {
            let (tx, next, stop) = (tx.clone(), &next, &stop);
            scope.spawn(move || worker(cfg, pair, next, stop, tx));
        }
        drop(tx);
        for event in rx {
            match event {
                Event::Started(i) => reporter.started(i),
                Event::Finished(i, rec) => {
                    if reporter.finished(i, &rec) {
                        stop.store(true, Ordering::SeqCst);
                    }
                }
            }
        }
    });
    Ok(reporter.finish())
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

    #[test]
    fn shards_cover_every_game_once() {
        for (total, n) in [(10, 3), (7, 7), (2, 4), (12, 1)] {
            let seen: Vec<usize> = (1..=n).flat_map(|k| shard_range(total, Some((k, n)))).collect();
            assert_eq!(seen, (0..total).collect::<Vec<_>>());
        }
        assert_eq!(shard_range(5, None), 0..5);
    }
}
