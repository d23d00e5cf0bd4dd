//! Runs a match or a round-robin (planned in `plan.rs`): games spread over worker threads (each
//! worker owns its own engine processes, so clocks never interfere), cutechess-cli style output,
//! PGN, SPRT stop (two engines), cross table (more).

use super::cpu::{CpuUse, STARVED_BELOW};
use super::engine::{Change, DebugLog, EngineConfig, EngineProcess};
use super::faults::{at_fault, faults_line, Faults};
use super::game::{play_game, GameRecord, Seat, Termination, Thinking};
use super::pgn::{time_control, today, write_game, PgnHeader};
use super::plan::{DebugTo, MatchConfig};
use super::resume::{read_done, Done};
use super::stats::{first_score, Pairs, Sprt, SprtDecision, Tally};
use super::table::cross_table;
use crate::board::Color;
use crate::rules::GameResult;
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// What a match ended with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchSummary {
    /// Each pair's wins, losses and draws, from its first engine's side (a match: one pair).
    pub tallies: Vec<Tally>,
    /// SPRT decision, if an SPRT ran.
    pub sprt: Option<SprtDecision>,
}

enum Event {
    Started(usize),
    Finished(usize, Box<GameRecord>),
}

/// The match as the user sees it: cutechess-cli's lines (and a live progress line on a
/// terminal), the tallies, the PGN file, the SPRT decision that stops a match and a
/// round-robin's cross table.
struct Reporter<'a> {
    cfg: &'a MatchConfig,
    out: &'a mut dyn Write,
    names: Vec<&'a str>,
    pairs: Vec<(usize, usize)>,
    /// Each engine's `[TimeControl]` text.
    time_controls: Vec<String>,
    /// Games in the whole match (game numbers are the match's, shard or not).
    total: usize,
    /// Games this process plays.
    planned: usize,
    pgn: Option<std::fs::File>,
    date: String,
    /// Per pair, from its first engine's side.
    tallies: Vec<Tally>,
    /// A two-engine match of two games a round: its finished colour-swapped pairs.
    pentanomial: Option<Pairs>,
    /// Rounds with one game finished: the first engine's score in it.
    half_pairs: HashMap<usize, f64>,
    /// The next game to count: games are counted and written in game order, so the PGN, the
    /// output and the SPRT stop are the same whichever game finishes first.
    next: usize,
    /// Finished games waiting for an earlier one.
    waiting: BTreeMap<usize, Box<GameRecord>>,
    /// Per engine, the games it lost by a fault.
    faults: Vec<Faults>,
    since_rating: usize,
    /// Whether the rating lines were printed after the last game counted.
    rated: bool,
    /// Set once the SPRT decides; later results do not count.
    decision: Option<SprtDecision>,
    /// Per engine, its thinking time and the CPU time it got meanwhile.
    cpu: Vec<CpuUse>,
    /// Set once `out`'s reader has gone away (`chuhe match ... | head`): the match stops.
    gone: bool,
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
        let pairs = cfg.pairs();
        Ok(Reporter {
            cfg,
            out,
            names: cfg.engines.iter().map(|e| e.name.as_str()).collect(),
            time_controls: cfg.engines.iter().map(|e| time_control(e.limit)).collect(),
            tallies: vec![Tally::default(); pairs.len()],
            pentanomial: (cfg.engines.len() == 2 && cfg.games == 2).then(Pairs::default),
            half_pairs: HashMap::new(),
            pairs,
            total: cfg.total_games(),
            planned: cfg.game_range().len(),
            pgn,
            date: today(),
            next: cfg.game_range().start,
            waiting: BTreeMap::new(),
            faults: vec![Faults::default(); cfg.engines.len()],
            since_rating: 0,
            rated: false,
            decision: None,
            cpu: vec![CpuUse::default(); cfg.engines.len()],
            gone: false,
        })
    }

    /// Writes `line`, keeping the live progress line below it.
    fn say(&mut self, line: &str) {
        if self.cfg.live {
            let cleared = write!(self.out, "\r\x1b[2K");
            self.check(cleared);
        }
        let written = writeln!(self.out, "{line}");
        self.check(written);
    }

    /// Notes a closed reader; other write errors leave the match running, as before.
    fn check(&mut self, written: std::io::Result<()>) {
        if written.is_err_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe) {
            self.gone = true;
        }
    }

    /// Whether this is a round-robin of more than two engines.
    fn tournament(&self) -> bool {
        self.names.len() > 2
    }

    /// The names of game `i`'s Red and Black engines.
    fn players(&self, i: usize) -> (&'a str, &'a str) {
        let spot = self.cfg.spot(i);
        (self.names[spot.red], self.names[spot.black])
    }

    /// The two names of pair `p`.
    fn pair_names(&self, p: usize) -> [&'a str; 2] {
        let (a, b) = self.pairs[p];
        [self.names[a], self.names[b]]
    }

    fn started(&mut self, i: usize) {
        if self.decision.is_none() {
            let (red, black) = self.players(i);
            self.say(&format!("Started game {} of {} ({red} vs {black})", i + 1, self.total));
        }
    }

    /// Takes finished game `i`, then counts, prints and stores every game now in order;
    /// `true` when the SPRT has just decided.
    fn finished(&mut self, i: usize, rec: Box<GameRecord>) -> bool {
        self.waiting.insert(i, rec);
        while let Some(rec) = self.waiting.remove(&self.next) {
            if self.decision.is_some() {
                return false; // games after the deciding one do not count
            }
            if self.report(self.next, &rec) {
                return true;
            }
        }
        false
    }

    /// Counts game `i` in the tallies, pairs and faults; its pair's tally and the SPRT
    /// decision it brings, if any.
    fn count(&mut self, i: usize, result: GameResult, termination: Termination) -> (Tally, Option<SprtDecision>) {
        let spot = self.cfg.spot(i);
        self.tallies[spot.pair].record(result, spot.first_red);
        if let Some(p) = self.pentanomial.as_mut() {
            let score = first_score(result, spot.first_red);
            match self.half_pairs.remove(&spot.round) {
                Some(other) => p.record(other, score),
                None => _ = self.half_pairs.insert(spot.round, score),
            }
        }
        if let Some(side) = at_fault(result, termination) {
            self.faults[[spot.red, spot.black][side]].add(termination);
        }
        self.next = i + 1;
        self.since_rating += 1;
        self.rated = false;
        let t = self.tallies[spot.pair];
        // A shard's games are a slice of the match: the decision is the merged stats' to make.
        // A round-robin has no SPRT.
        let decided = self
            .cfg
            .sprt
            .filter(|_| self.cfg.shard.is_none() && !self.tournament())
            .map(|s| s.decision(s.sample(&t, self.pentanomial.as_ref())))
            .filter(|&d| d != SprtDecision::Continue);
        (t, decided)
    }

    /// Counts, prints and stores game `i`; `true` when the SPRT has just decided.
    fn report(&mut self, i: usize, rec: &GameRecord) -> bool {
        let (red, black) = self.players(i);
        let spot = self.cfg.spot(i);
        let (t, decided) = self.count(i, rec.result, rec.termination);
        self.count_cpu(spot.red, spot.black, rec);
        self.say(&format!("Finished game {} ({red} vs {black}): {} {{{}}}", i + 1, rec.result, rec.reason));
        self.say(&score_line(self.pair_names(spot.pair), &t));
        self.write_pgn(i, rec, red, black);
        if self.since_rating >= self.cfg.rating_interval.max(1) || decided.is_some() {
            self.since_rating = 0;
            self.rating();
        }
        self.decision = decided;
        self.progress();
        decided.is_some()
    }

    /// Counts the games a stopped match already wrote to `file` (`-resume`), as if just
    /// played but silently, so the output goes on as the whole match's would; says how many.
    fn resume(&mut self, file: &str, done: &[Done], cut: bool) -> Result<(), String> {
        for (j, d) in done.iter().enumerate() {
            if self.decision.is_some() {
                return Err(format!(
                    "-resume: '{file}' holds {} games, but the SPRT decided at its game {j}: not this match's file \
                     (other -sprt?)",
                    done.len()
                ));
            }
            let i = self.next;
            self.decision = self.count(i, d.result, d.termination).1;
        }
        self.since_rating %= self.cfg.rating_interval.max(1);
        let cut = if cut { " (a partial game at its end cut off)" } else { "" };
        self.say(&format!("Resuming: {} of {} games already in {file}{cut}", done.len(), self.planned));
        if !done.is_empty() && !self.tournament() {
            let line = score_line(self.pair_names(0), &self.tallies[0]);
            self.say(&line);
        }
        Ok(())
    }

    fn write_pgn(&mut self, i: usize, rec: &GameRecord, red: &str, black: &str) {
        let cfg = self.cfg;
        let spot = cfg.spot(i);
        let header = PgnHeader {
            event: &cfg.event,
            round: spot.round + 1,
            red,
            black,
            date: &self.date,
            time_controls: [&self.time_controls[spot.red], &self.time_controls[spot.black]],
        };
        let written = self.pgn.as_mut().map(|file| file.write_all(write_game(&header, rec).as_bytes()));
        if let Some(Err(e)) = written {
            self.say(&format!("Warning: cannot write PGN: {e}"));
        }
    }

    /// The Elo (and SPRT) lines; a round-robin's cross table.
    fn rating(&mut self) {
        self.rated = true;
        let lines = if self.tournament() {
            cross_table(&self.names, &self.pairs, &self.tallies)
        } else {
            rating_lines(&self.tallies[0], self.pentanomial.as_ref(), self.cfg.sprt.as_ref())
        };
        for line in lines {
            self.say(&line);
        }
    }

    /// Games finished and counted.
    fn games(&self) -> usize {
        self.tallies.iter().map(|t| t.games() as usize).sum()
    }

    /// The live progress line (on a terminal), then a flush.
    fn progress(&mut self) {
        if self.cfg.live && self.tournament() {
            let _ = write!(
                self.out,
                "\r\x1b[2K[{}/{}] round-robin of {} engines",
                self.games(),
                self.planned,
                self.names.len()
            );
        } else if self.cfg.live {
            let (t, [a, b]) = (self.tallies[0], self.pair_names(0));
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
        let flushed = self.out.flush();
        self.check(flushed);
    }

    /// Adds the CPU use of game `rec`'s moves to its engines (Red's index, Black's).
    fn count_cpu(&mut self, red: usize, black: usize, rec: &GameRecord) {
        let mut side = rec.start.side_to_move();
        for t in &rec.thinking {
            if let Some(Thinking { ms, cpu_ms: Some(cpu), .. }) = t {
                self.cpu[if side == Color::Red { red } else { black }].add(*ms, *cpu);
            }
            side = side.opp();
        }
    }

    /// Each engine's share of a core while it thought, and a warning for a starved one.
    fn cpu_lines(&self) -> Vec<String> {
        let shares: Vec<(&str, f64, u64)> =
            (self.names.iter().zip(&self.cpu)).filter_map(|(n, c)| c.share().map(|s| (*n, s, c.thinking_ms))).collect();
        if shares.is_empty() {
            return Vec::new();
        }
        let parts: Vec<String> =
            shares.iter().map(|(n, s, ms)| format!("{n} {:.0}% of {:.1} s", 100.0 * s, *ms as f64 / 1000.0)).collect();
        let mut lines = vec![format!("CPU while thinking: {}", parts.join(", "))];
        for (n, s, _) in shares.iter().filter(|(_, s, _)| *s < STARVED_BELOW) {
            lines.push(format!(
                "Warning: {n} got {:.0}% of a core while its clock ran: it was starved (other processes, \
                 more games than cores) or it waits; these games measure the machine, not the engine",
                100.0 * s
            ));
        }
        lines
    }

    /// The closing lines (the rating again unless just printed, the faults, the CPU use) and
    /// the summary.
    fn finish(mut self) -> MatchSummary {
        if !self.rated {
            self.rating();
        }
        let faults = faults_line(&self.names, &self.faults);
        self.say(&faults);
        for line in self.cpu_lines() {
            self.say(&line);
        }
        self.say("Finished match");
        let _ = self.out.flush();
        let sprt = self.cfg.sprt.filter(|_| !self.tournament());
        let sample = |s: Sprt| s.sample(&self.tallies[0], self.pentanomial.as_ref());
        let sprt = sprt.map(|s| self.decision.unwrap_or(s.decision(sample(s))));
        MatchSummary { tallies: self.tallies, sprt }
    }
}

/// cutechess-cli's score line: `Score of A vs B: W - L - D  [score] games`.
pub fn score_line(names: [&str; 2], t: &Tally) -> String {
    let [a, b] = names;
    format!("Score of {a} vs {b}: {} - {} - {}  [{:.3}] {}", t.wins, t.losses, t.draws, t.score(), t.games())
}

/// The Elo / LOS / draw-ratio line, with colour-swapped pairs their pentanomial line, and
/// with an SPRT its line (which says when it counts pairs).
pub fn rating_lines(t: &Tally, pairs: Option<&Pairs>, sprt: Option<&Sprt>) -> Vec<String> {
    let mut lines = vec![format!(
        "Elo difference: {:.1} +/- {:.1}, LOS: {:.1} %, DrawRatio: {:.1} %",
        t.elo() + 0.0, // no "-0.0"
        t.elo_error(),
        100.0 * t.los(),
        100.0 * t.draw_ratio()
    )];
    if let Some(p) = pairs.filter(|p| p.pairs() > 0) {
        let [a, b, c, d, e] = p.counts;
        lines.push(format!("Ptnml(0-2): [{a}, {b}, {c}, {d}, {e}], Elo error from pairs: +/- {:.1}", p.elo_error()));
    }
    if let Some(s) = sprt {
        let sample = s.sample(t, pairs);
        let llr = s.llr(sample);
        let bound = if llr >= 0.0 { s.upper_bound() } else { s.lower_bound() };
        let mut line = format!(
            "SPRT: llr {:.3} ({:.1}%), lbound {:.3}, ubound {:.3}",
            llr,
            100.0 * llr / bound,
            s.lower_bound(),
            s.upper_bound()
        );
        if let Some(p) = s.counted_pairs(pairs) {
            line += &format!(", over {} pairs", p.pairs());
        }
        match s.decision(sample) {
            SprtDecision::AcceptH0 => line += " - H0 was accepted",
            SprtDecision::AcceptH1 => line += " - H1 was accepted",
            SprtDecision::Continue => {}
        }
        lines.push(line);
    }
    lines
}

/// One seat per engine per worker (each `-debug` tagged with its worker when several run);
/// the first worker's engines start now, so a wrong command fails the match at once, and
/// their warnings (options they do not know) are printed once, here.
fn seat_sets(cfg: &MatchConfig, workers: usize, debug: Option<&DebugLog>) -> Result<Vec<Vec<Seat>>, String> {
    let mut sets = Vec::new();
    for w in 0..workers {
        let mut seats: Vec<Seat> = cfg
            .engines
            .iter()
            .map(|e| {
                let tagged = if workers > 1 { debug.map(|d| d.tagged(w + 1)) } else { debug.cloned() };
                Seat::new(EngineConfig { debug: tagged, ..e.clone() })
            })
            .collect();
        if w == 0 {
            for seat in seats.iter_mut() {
                let process = EngineProcess::start(&seat.cfg)?;
                for warning in process.warnings() {
                    eprintln!("{warning}");
                }
                seat.process = Some(process);
            }
        }
        sets.push(seats);
    }
    Ok(sets)
}

/// One worker: plays the games whose numbers it draws from `next` with its own engines. An
/// engine that does not play the next game quits, so a worker runs two engines at most. With
/// `-soak` each engine of a game first gets the change drawn for that game.
fn worker(cfg: &MatchConfig, mut seats: Vec<Seat>, next: &AtomicUsize, stop: &AtomicBool, tx: mpsc::Sender<Event>) {
    let end = cfg.game_range().end;
    loop {
        let i = next.fetch_add(1, Ordering::SeqCst);
        if i >= end || stop.load(Ordering::SeqCst) {
            break;
        }
        let _ = tx.send(Event::Started(i));
        let spot = cfg.spot(i);
        for (e, seat) in seats.iter_mut().enumerate() {
            if e != spot.red && e != spot.black {
                seat.shut_down();
            }
        }
        let Ok([red, black]) = seats.get_disjoint_mut([spot.red, spot.black]) else { break };
        if cfg.soak {
            red.change = Some(Change::pick(cfg.seed, i, spot.red));
            black.change = Some(Change::pick(cfg.seed, i, spot.black));
        }
        match play_game([red, black], &cfg.openings[spot.opening], &cfg.adjudication, stop) {
            Some(rec) => {
                let _ = tx.send(Event::Finished(i, Box::new(rec)));
            }
            None => break,
        }
    }
    for seat in seats.iter_mut() {
        seat.shut_down();
    }
}

/// The `-debug` log, opened.
fn open_debug(to: &Option<DebugTo>) -> Result<Option<DebugLog>, String> {
    Ok(match to {
        None => None,
        Some(DebugTo::Stderr) => Some(DebugLog::new(Box::new(std::io::stderr()))),
        Some(DebugTo::File(path)) => {
            let file = std::fs::File::create(path).map_err(|e| format!("cannot open debug file '{path}': {e}"))?;
            Some(DebugLog::new(Box::new(std::io::BufWriter::new(file))))
        }
    })
}

/// Plays the match, printing cutechess-cli style lines to `out`. Fails only when an engine
/// cannot be started at all, the PGN file cannot be opened or (`-resume`) is not this match's.
pub fn run_match(cfg: &MatchConfig, out: &mut dyn Write) -> Result<MatchSummary, String> {
    // Before the PGN is opened to append: a partial game at its end is cut off first.
    let resumed = match (&cfg.pgnout, cfg.resume) {
        (Some(file), true) => Some((file, read_done(cfg, file)?)),
        _ => None,
    };
    let mut reporter = Reporter::new(cfg, out)?;
    if let Some((file, found)) = resumed {
        reporter.resume(file, &found.games, found.cut)?;
    }
    let todo = reporter.next..cfg.game_range().end;
    if todo.is_empty() || reporter.decision.is_some() {
        return Ok(reporter.finish());
    }
    let debug = open_debug(&cfg.debug)?;
    let sets = seat_sets(cfg, cfg.concurrency.clamp(1, todo.len()), debug.as_ref())?;
    let next = AtomicUsize::new(todo.start);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Event>();
    std::thread::scope(|scope| {
        for seats in sets {
            let (tx, next, stop) = (tx.clone(), &next, &stop);
            scope.spawn(move || worker(cfg, seats, next, stop, tx));
        }
        drop(tx);
        for event in rx {
            let decided = match event {
                Event::Started(i) => {
                    reporter.started(i);
                    false
                }
                Event::Finished(i, rec) => reporter.finished(i, rec),
            };
            // Nobody reads the output any more: end the games between moves, quit the engines.
            if decided || reporter.gone {
                stop.store(true, Ordering::SeqCst);
            }
        }
    });
    Ok(reporter.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::plan::tests::config;
    use crate::matches::stats::SprtModel;

    #[test]
    fn rating_lines_in_cutechess_words() {
        let t = Tally { wins: 60, losses: 40, draws: 100 };
        let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05, model: SprtModel::Pentanomial };
        let lines = rating_lines(&t, None, Some(&sprt));
        assert_eq!(lines[0], "Elo difference: 34.9 +/- 34.2, LOS: 97.7 %, DrawRatio: 50.0 %");
        assert_eq!(lines[1], "SPRT: llr 1.005 (34.1%), lbound -2.944, ubound 2.944");
        // 214 games in 105 colour-swapped pairs: the pairs decide, and say so.
        let (t, p) = (Tally { wins: 24, losses: 22, draws: 168 }, Pairs { counts: [1, 16, 69, 19, 0] });
        let lines = rating_lines(&t, Some(&p), Some(&sprt));
        assert_eq!(lines[1], "Ptnml(0-2): [1, 16, 69, 19, 0], Elo error from pairs: +/- 20.3");
        assert_eq!(lines[2], "SPRT: llr -0.313 (10.6%), lbound -2.944, ubound 2.944, over 105 pairs");
        let tri = Sprt { model: SprtModel::Trinomial, ..sprt };
        assert_eq!(rating_lines(&t, Some(&p), Some(&tri))[2], "SPRT: llr -0.144 (4.9%), lbound -2.944, ubound 2.944");
    }

    #[test]
    fn pairs_decide_the_sprt_when_both_games_are_in() {
        use crate::board::Position;
        use crate::matches::game::Termination;
        use crate::rules::GameResult;
        let mut cfg = config(2, 2, 50, 2);
        cfg.rating_interval = 1000;
        cfg.sprt = Some(Sprt { elo0: 0.0, elo1: 200.0, alpha: 0.05, beta: 0.05, model: SprtModel::Pentanomial });
        let record = |result| GameRecord {
            start: Position::startpos(),
            standard: true,
            moves: vec![],
            thinking: vec![],
            result,
            reason: String::new(),
            termination: Termination::Rules,
        };
        let mut out = Vec::new();
        let mut reporter = Reporter::new(&cfg, &mut out).unwrap();
        // Round by round the first engine scores 2 and 1 points; each round's Black game
        // (odd number) comes in first and waits: games count in game order.
        let mut decided_at = None;
        for round in 0..50 {
            let (red_game, black_game) = (2 * round, 2 * round + 1);
            let black_result = if round % 2 == 0 { GameResult::BlackWins } else { GameResult::Draw };
            assert!(!reporter.finished(black_game, Box::new(record(black_result))), "a half pair decided");
            assert_eq!(reporter.next, red_game, "a game counted before the one it follows");
            let red_result = if round % 2 == 0 { GameResult::RedWins } else { GameResult::Draw };
            let whole = reporter.finished(red_game, Box::new(record(red_result)));
            if whole {
                decided_at = Some(round);
                break;
            }
        }
        let pairs = reporter.pentanomial.unwrap();
        assert!(reporter.half_pairs.is_empty());
        let summary = reporter.finish();
        // After four pairs (mean 0.75, variance 1/16) the LLR is 2.00; the fifth (mean 0.8,
        // variance 0.06) brings it to 3.68, past 2.944.
        assert_eq!(decided_at, Some(4));
        assert_eq!(pairs.counts, [0, 0, 2, 0, 3]);
        assert_eq!(summary.sprt, Some(SprtDecision::AcceptH1));
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("Ptnml(0-2): [0, 0, 2, 0, 3]"), "{text}");
        assert!(text.contains(", over 5 pairs - H1 was accepted"), "{text}");
    }
}
