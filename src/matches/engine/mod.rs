//! One engine process driven over UCCI, UCI or CECP (XBoard): spawn, handshake and options
//! (with a warning for each option the engine does not know), new game, one move with a
//! deadline. `EngineProcess` drives any protocol the same way through the `Dialect` trait,
//! one implementation per file (`ucci.rs`, `uci.rs`, `cecp.rs`; `line.rs` holds what the two
//! line dialects share); `pipe.rs` is the process and its lines: the shared line reader
//! (`crate::lines`) reads the engine's stdout, so every wait has a deadline and a crashed
//! engine shows up as end of input. With a [`DebugLog`] every line sent and received is
//! logged.

mod cecp;
mod config;
mod dialect;
mod line;
mod pipe;
mod turn;
mod ucci;
mod uci;

pub use config::{seconds, Change, DebugLog, EngineConfig, Limit, Proto};
pub use line::parse_info;
pub use turn::{describe, Ask, Eval, Failure, Reply, SideClock};

use super::ranks::Ranks;
use dialect::{Dialect, HANDSHAKE};
use pipe::Pipe;
use std::time::{Duration, Instant};

/// After `stop` at the deadline, how long an engine may take to answer before it stalls.
pub const STOP_GRACE: Duration = Duration::from_millis(1000);

/// An engine's `go perft` split: its moves as written (lowercased) with their counts, and the
/// total it printed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PerftSplit {
    /// `(move text, count)` in the engine's order.
    pub moves: Vec<(String, u64)>,
    /// The engine's total line.
    pub total: Option<u64>,
}

/// A running engine process.
pub struct EngineProcess {
    pipe: Pipe,
    dialect: Box<dyn Dialect>,
    ranks: Ranks,
    /// Option names the engine listed (UCI `option name`, CECP `feature option=`).
    listed: Option<Vec<String>>,
    warnings: Vec<String>,
    /// A ponder search runs on the game up to this many plies, the last one its guess.
    pondering: Option<(usize, crate::board::Move)>,
}

impl EngineProcess {
    /// Spawns the engine and completes the handshake and options; a one-line error otherwise.
    pub fn start(cfg: &EngineConfig) -> Result<EngineProcess, String> {
        let mut pipe = Pipe::spawn(cfg)?;
        let mut dialect: Box<dyn Dialect> = match cfg.proto {
            Proto::Ucci => Box::new(ucci::Ucci),
            Proto::Uci => Box::new(uci::Uci::default()),
            Proto::Xboard => Box::new(cecp::Cecp::new(cfg.limit, cfg.timeout_ms)),
        };
        let listed = dialect.handshake(&mut pipe, cfg)?;
        let ranks = cfg.ranks.unwrap_or(Ranks::FromZero);
        let mut engine = EngineProcess { pipe, dialect, ranks, listed, warnings: Vec::new(), pondering: None };
        for (name, value) in &cfg.options {
            engine.set_option(name, value).map_err(|f| engine.pipe.fail("options", f))?;
        }
        if let Some((name, value)) = engine.dialect.ponder_option().filter(|_| cfg.ponder) {
            let given = cfg.options.iter().any(|(n, _)| n.eq_ignore_ascii_case(name));
            if !given && engine.lists(name) == Some(true) {
                engine.set_option(name, value).map_err(|f| engine.pipe.fail("options", f))?;
            }
        }
        // A multi-variant UCI engine may number ranks from one: ask it, unless told.
        if cfg.ranks.is_none() {
            let probed = engine.dialect.probe_ranks(&mut engine.pipe);
            if let Some((ranks, note)) = probed.map_err(|f| engine.pipe.fail("rank numbering probe", f))? {
                engine.ranks = ranks;
                engine.warnings.extend(note);
            }
        }
        engine.sync().map_err(|f| engine.pipe.fail("isready", f))?;
        Ok(engine)
    }

    /// What the start found worth telling the user, one line each: options the engine does
    /// not know, how it numbers ranks when it was asked.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Whether the engine listed option `name` (`None`: it lists none, as UCCI engines need not).
    fn lists(&self, name: &str) -> Option<bool> {
        self.listed.as_ref().map(|l| l.iter().any(|n| n.eq_ignore_ascii_case(name)))
    }

    /// Sends one option, then waits for the engine to acknowledge (`isready`, CECP `ping`) and
    /// keeps a warning if it did not list the option or objected to it.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), Failure> {
        let line = self.dialect.option_line(name, value);
        self.pipe.send(&line)?;
        let mut answer = None;
        for line in self.sync()? {
            if answer.is_none() && objects(&line) {
                answer = Some(line.trim().chars().take(100).collect::<String>());
            }
        }
        if let Some(w) = option_warning(&self.pipe.name, name, value, self.lists(name), answer.as_deref()) {
            self.warnings.push(w);
        }
        Ok(())
    }

    /// Waits until the engine has handled everything sent so far (`isready`/`readyok`, CECP
    /// `ping`/`pong` when it has `ping`); the lines it wrote meanwhile.
    fn sync(&mut self) -> Result<Vec<String>, Failure> {
        match self.dialect.sync() {
            Some((ask, answer)) => self.pipe.exchange(&ask, &answer, HANDSHAKE),
            None => Ok(Vec::new()),
        }
    }

    /// Asks for `go perft depth` on `fen` and reads the split (`move: count` lines, as
    /// Stockfish-family engines print them) up to the total line (`Nodes searched: N`, or
    /// `nodes N ...`); `None` when the engine answers with `bestmove` (no perft command).
    pub fn perft(&mut self, fen: &str, depth: u32, timeout: Duration) -> Result<Option<PerftSplit>, Failure> {
        self.pipe.drain();
        self.pipe.send(&format!("position fen {fen}"))?;
        self.pipe.send(&format!("go perft {depth}"))?;
        let deadline = Instant::now() + timeout;
        let mut split = PerftSplit::default();
        loop {
            let line = self.pipe.next_line(deadline)?;
            let line = line.trim();
            if let Some((mv, n)) = line.split_once(':') {
                if let Ok(n) = n.trim().parse::<u64>() {
                    if line.starts_with("Nodes searched") {
                        split.total = Some(n);
                        return Ok(Some(split));
                    }
                    if !mv.contains(' ') {
                        split.moves.push((mv.to_ascii_lowercase(), n));
                    }
                }
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["nodes", n, ..] if n.parse::<u64>().is_ok() => {
                    split.total = n.parse().ok();
                    return Ok(Some(split));
                }
                ["bestmove" | "nobestmove", ..] => return Ok(None),
                _ => {}
            }
        }
    }

    /// Tells the engine a new game starts and waits until it is ready.
    pub fn new_game(&mut self) -> Result<(), Failure> {
        self.end_ponder(STOP_GRACE)?;
        self.dialect.new_game(&mut self.pipe)?;
        self.sync().map(|_| ())
    }

    /// Makes a `-soak` change and waits until the engine has taken it. A dialect without
    /// the setting (a CECP engine without `memory=1` or `smp=1`) is sent nothing.
    pub fn change(&mut self, change: Change) -> Result<(), Failure> {
        self.end_ponder(STOP_GRACE)?;
        let line = match change {
            Change::Hash(mb) => self.dialect.hash_line(mb),
            Change::Threads(n) => self.dialect.threads_line(n),
            Change::NewGame => {
                self.dialect.new_game(&mut self.pipe)?;
                None
            }
            Change::Nothing => return Ok(()),
        };
        if let Some(line) = line {
            self.pipe.send(&line)?;
        }
        self.sync().map(|_| ())
    }

    /// Starts a ponder search on `ask` (its game ends with the predicted reply, its clocks are
    /// as they will be after it); the next `think` turns it into the search for the move.
    pub fn ponder(&mut self, ask: Ask) -> Result<(), Failure> {
        let Some(&guess) = ask.game.moves().last() else { return Ok(()) };
        let plies = ask.game.moves().len();
        self.pipe.drain();
        self.dialect.ask(&mut self.pipe, Ask { ponder: true, draw: false, ..ask }, self.ranks)?;
        self.pondering = Some((plies, guess));
        Ok(())
    }

    /// Stops a ponder search, if one runs, and reads its `bestmove` (thrown away) within
    /// `timeout`.
    pub fn end_ponder(&mut self, timeout: Duration) -> Result<(), Failure> {
        if self.pondering.take().is_none() {
            return Ok(());
        }
        self.pipe.send(self.dialect.stop())?;
        let deadline = Instant::now() + timeout;
        let mut ignored = Reply::default();
        while !self.dialect.read(&self.pipe.next_line(deadline)?, &mut ignored, self.ranks) {}
        Ok(())
    }

    /// Sends the request, then waits for the move until `allowed` has passed; then sends
    /// `stop` (CECP `?`) and waits a little more (a reply then is marked `late`). A ponder
    /// search on the game's last move gets `ponderhit`; one on another move is stopped first,
    /// on the clock: the time runs from the opponent's move either way.
    pub fn think(&mut self, ask: Ask, allowed: Duration) -> Result<Reply, Failure> {
        let moved = Instant::now();
        let cpu_before = super::cpu::cpu_ms(self.pipe.pid());
        let plies = ask.game.moves().len();
        let sent = match self.pondering {
            Some((at, guess)) if at == plies && ask.game.moves().last() == Some(&guess) => {
                self.pondering = None;
                self.pipe.send(&self.dialect.ponderhit(ask.draw))?;
                moved
            }
            pondering => {
                self.end_ponder(allowed.max(STOP_GRACE))?;
                self.pipe.drain();
                self.dialect.ask(&mut self.pipe, ask, self.ranks)?;
                if pondering.is_some() {
                    moved
                } else {
                    Instant::now()
                }
            }
        };
        let mut deadline = sent + allowed;
        let mut reply = Reply::default();
        loop {
            let line = match self.pipe.next_line(deadline) {
                Err(Failure::Stalled) if !reply.late => {
                    reply.late = true;
                    self.pipe.send(self.dialect.stop())?;
                    deadline = Instant::now() + STOP_GRACE;
                    continue;
                }
                line => line?,
            };
            if self.dialect.read(&line, &mut reply, self.ranks) {
                reply.elapsed_ms = sent.elapsed().as_millis() as u64;
                reply.cpu_ms = cpu_before.zip(super::cpu::cpu_ms(self.pipe.pid())).map(|(a, b)| b.saturating_sub(a));
                if reply.bestmove.is_some() {
                    self.dialect.after_move(&mut self.pipe)?;
                }
                return Ok(reply);
            }
        }
    }

    /// Asks the engine to quit, then makes sure the process is gone.
    pub fn quit(mut self) {
        self.pipe.quit();
    }
}

/// Whether an engine's line after an option reads as an objection (`No such option: X`,
/// `info string error ...`, CECP `Error (...)`, a value out of range).
fn objects(line: &str) -> bool {
    let l = line.to_ascii_lowercase();
    ["error", "no such", "unknown", "invalid", "illegal", "not supported", "unsupported", "out of range"]
        .iter()
        .any(|w| l.contains(w))
}

/// The warning for option `name=value`: not in the engine's list (`listed == Some(false)`),
/// and/or answered with an objection. An unlisted option the engine takes silently (Chuhe's
/// hidden search parameters) is only "not listed".
fn option_warning(engine: &str, name: &str, value: &str, listed: Option<bool>, answer: Option<&str>) -> Option<String> {
    let unknown = |a: &str| ["no such", "unknown", "not found"].iter().any(|w| a.to_ascii_lowercase().contains(w));
    let head = format!("Warning: {engine} does not know option '{name}'");
    match (listed, answer) {
        (Some(false), None) => {
            Some(format!("Warning: {engine} does not list option '{name}' (sent anyway; it did not object)"))
        }
        (Some(false), Some(a)) => Some(format!("{head} (not in its option list; it answered: {a})")),
        (_, Some(a)) if unknown(a) => Some(format!("{head} (it answered: {a})")),
        (_, Some(a)) => Some(format!("Warning: {engine} objects to option '{name}={value}' (it answered: {a})")),
        (_, None) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_warnings() {
        let w = |listed, answer| option_warning("E", "Foo", "1", listed, answer);
        assert_eq!(w(Some(true), None), None);
        assert_eq!(w(None, None), None);
        assert_eq!(
            w(Some(false), None).unwrap(),
            "Warning: E does not list option 'Foo' (sent anyway; it did not object)"
        );
        assert_eq!(
            w(Some(false), Some("No such option: Foo")).unwrap(),
            "Warning: E does not know option 'Foo' (not in its option list; it answered: No such option: Foo)"
        );
        assert_eq!(
            w(None, Some("info string error: no such option")).unwrap(),
            "Warning: E does not know option 'Foo' (it answered: info string error: no such option)"
        );
        assert_eq!(
            w(Some(true), Some("Error (bad value): Foo")).unwrap(),
            "Warning: E objects to option 'Foo=1' (it answered: Error (bad value): Foo)"
        );
        assert!(objects("info string error: setoption: no such option 'Foo'"));
        assert!(objects("No such option: Foo"));
        assert!(!objects("info string classical evaluation enabled"));
    }
}
