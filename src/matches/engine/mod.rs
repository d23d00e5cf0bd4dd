//! One engine process driven over UCCI, UCI or CECP (XBoard): spawn, handshake and options
//! (with a warning for each option the engine does not know), new game, one move with a
//! deadline. `EngineProcess` drives any protocol the same way through the `Dialect` trait,
//! one implementation per file (`ucci.rs`, `uci.rs`, `cecp.rs`; `line.rs` holds what the two
//! line dialects share); `pipe.rs` is the process and its lines: the shared line reader
//! (`crate::lines`) reads the engine's stdout, so every wait has a deadline and a crashed
//! engine shows up as end of input. With a [`DebugLog`] every line sent and received is
//! logged.

mod cecp;
mod line;
mod pipe;
mod ucci;
mod uci;

pub use line::parse_info;

use super::ranks::Ranks;
use crate::board::Color;
use crate::rules::Game;
use pipe::Pipe;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Time allowed for the handshake, for each option's acknowledgement and for `isready`.
const HANDSHAKE: Duration = Duration::from_secs(10);
/// After `stop` at the deadline, how long an engine may take to answer before it stalls.
pub const STOP_GRACE: Duration = Duration::from_millis(1000);

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    /// UCCI: `ucci`, `setoption <name> <value>`, `go time .. opptime ..`, times in ms via `usemillisec`.
    Ucci,
    /// UCI: `uci`, `setoption name <n> value <v>`, `go wtime .. btime ..`.
    Uci,
    /// CECP (XBoard protocol 2): `xboard`, `protover 2`, `new`, `force`, `usermove`, `go`.
    Xboard,
}

/// How an engine's thinking is limited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// A clock: `moves` per period (0: whole game), `base_ms` per period, `inc_ms` per move.
    Clock {
        /// Moves per period, 0 for sudden death / increment only.
        moves: u32,
        /// Time per period in milliseconds.
        base_ms: u64,
        /// Increment per move in milliseconds.
        inc_ms: u64,
    },
    /// Fixed time per move in milliseconds.
    MoveTime(u64),
    /// Node budget per move.
    Nodes(u64),
    /// Depth per move.
    Depth(u32),
}

/// Where `-debug` writes every engine line: one sink shared by all engines, and a tag telling
/// apart the instances of one engine when several games run at once.
#[derive(Clone)]
pub struct DebugLog {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
    start: Instant,
    tag: String,
}

impl std::fmt::Debug for DebugLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DebugLog{}", self.tag)
    }
}

impl DebugLog {
    /// A log to `sink`; times are counted from now.
    pub fn new(sink: Box<dyn Write + Send>) -> DebugLog {
        DebugLog { sink: Arc::new(Mutex::new(sink)), start: Instant::now(), tag: String::new() }
    }

    /// The same log, with `#n` after the engine's name (the worker playing the game).
    pub fn tagged(&self, n: usize) -> DebugLog {
        DebugLog { tag: format!("#{n}"), ..self.clone() }
    }

    /// One line: seconds since the start, the engine, `<` for a line sent to it, `>` for one
    /// it wrote.
    fn line(&self, name: &str, dir: char, text: &str) {
        let t = self.start.elapsed().as_secs_f64();
        if let Ok(mut w) = self.sink.lock() {
            let _ = writeln!(w, "{t:.3} {name}{} {dir} {text}", self.tag);
            let _ = w.flush();
        }
    }
}

/// Everything needed to start and drive one engine.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// Display name.
    pub name: String,
    /// Program to run.
    pub cmd: String,
    /// Program arguments.
    pub args: Vec<String>,
    /// Working directory.
    pub dir: Option<String>,
    /// Protocol.
    pub proto: Proto,
    /// Options sent after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// Thinking limit.
    pub limit: Limit,
    /// Milliseconds an engine may overstep its clock before it forfeits.
    pub margin_ms: u64,
    /// Milliseconds to wait for a move under a node or depth limit before it forfeits.
    pub timeout_ms: u64,
    /// A GUI-like transport delay: milliseconds charged to its clock on top of each move's time.
    pub latency_ms: u64,
    /// Think on the opponent's time: `go ponder` on its predicted reply (UCCI and UCI).
    pub ponder: bool,
    /// Rank numbering of its move text; `None`: ICCS, or asked of a UCI engine offering
    /// `UCI_Variant` (see [`PROBE_FEN`](super::ranks::PROBE_FEN)).
    pub ranks: Option<Ranks>,
    /// Where to log its lines (`-debug`).
    pub debug: Option<DebugLog>,
}

/// How an engine failed to answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The process exited or closed its pipes.
    Disconnected,
    /// The process is alive but did not answer in time, not even to `stop`.
    Stalled,
}

/// A score as an engine reports it, from its own side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: mated).
    Mate(i32),
}

impl Eval {
    /// Centipawns, a mate as ±(30000 − moves), for the score adjudication.
    pub fn centipawns(self) -> i32 {
        match self {
            Eval::Cp(cp) => cp,
            Eval::Mate(n) if n > 0 => 30_000 - n,
            Eval::Mate(n) => -30_000 - n,
        }
    }
}

/// An engine's answer to a move request.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// The move text (ranks 0–9); `None` for `nobestmove`, `bestmove (none)` or no move.
    pub bestmove: Option<String>,
    /// The reply it expects (`bestmove M ponder P`), ranks 0–9.
    pub ponder: Option<String>,
    /// `bestmove ... draw` / `offer draw`: offers or accepts a draw.
    pub draw: bool,
    /// `bestmove ... resign` / `resign`.
    pub resign: bool,
    /// A CECP result claim sent instead of a move (advisory: the rules judge).
    pub claim: Option<String>,
    /// A CECP engine's `Illegal move: M` for a move we passed on (legal by the rules).
    pub refused: Option<String>,
    /// The last score reported while thinking (principal line only).
    pub eval: Option<Eval>,
    /// The depth of the line that gave `eval`.
    pub depth: Option<u32>,
    /// Milliseconds from sending `go` to reading the move.
    pub elapsed_ms: u64,
    /// The answer came only after `stop` was sent at the deadline.
    pub late: bool,
    /// CPU milliseconds the engine process used meanwhile, where the system tells.
    pub cpu_ms: Option<u64>,
}

/// One side's clock when the side to move is asked (sides with a clock limit only).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideClock {
    /// Time left, ms.
    pub left_ms: u64,
    /// Increment per move, ms.
    pub inc_ms: u64,
    /// Moves to the next time control (`None`: sudden death or increment only).
    pub movestogo: Option<u32>,
}

/// What the side to move is asked, in no protocol's words: each dialect says it its own way
/// (UCCI and UCI as `position` and `go` lines, CECP as the moves the engine has not seen,
/// `time`/`otim`, `draw` and `go`).
pub struct Ask<'a> {
    /// The game so far: its start and every move, the side to move's last.
    pub game: &'a Game,
    /// The asked engine's limit.
    pub limit: Limit,
    /// Red's and Black's clocks, for a side whose limit is a clock.
    pub clocks: [Option<SideClock>; 2],
    /// The opponent offers a draw.
    pub draw: bool,
    /// Think on the opponent's time (`go ponder`): the game ends with the predicted reply.
    pub ponder: bool,
}

impl Ask<'_> {
    /// The asked engine's side.
    fn side(&self) -> Color {
        self.game.position().side_to_move()
    }

    /// The asked engine's clock.
    fn own_clock(&self) -> Option<SideClock> {
        self.clocks[self.side().index()]
    }

    /// The opponent's clock.
    fn opp_clock(&self) -> Option<SideClock> {
        self.clocks[self.side().opp().index()]
    }
}

/// An engine's `go perft` split: its moves as written (lowercased) with their counts, and the
/// total it printed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PerftSplit {
    /// `(move text, count)` in the engine's order.
    pub moves: Vec<(String, u64)>,
    /// The engine's total line.
    pub total: Option<u64>,
}

/// One protocol as the GUI side speaks it, one implementation per file: the handshake, how
/// options are set and a sync is asked, a new game, the request to move and the lines read
/// while the engine thinks. `EngineProcess` drives any of them the same way.
trait Dialect: Send {
    /// The handshake, up to where options may be sent: the option names the engine listed
    /// (`None`: it lists none, as UCCI engines need not), or a one-line error.
    fn handshake(&mut self, pipe: &mut Pipe, cfg: &EngineConfig) -> Result<Option<Vec<String>>, String>;

    /// The line that sets option `name` to `value`.
    fn option_line(&self, name: &str, value: &str) -> String;

    /// The line that asks whether the engine has handled everything sent so far and its
    /// answer (`None`: the engine offers no such question).
    fn sync(&mut self) -> Option<(String, String)>;

    /// After the options, when the engine must be asked how it numbers ranks: the numbering
    /// and a line for the user.
    fn probe_ranks(&mut self, _pipe: &mut Pipe) -> Result<Option<(Ranks, Option<String>)>, Failure> {
        Ok(None)
    }

    /// Tells the engine a new game starts (the caller then syncs).
    fn new_game(&mut self, pipe: &mut Pipe) -> Result<(), Failure>;

    /// Sends the request to move.
    fn ask(&mut self, pipe: &mut Pipe, ask: Ask, ranks: Ranks) -> Result<(), Failure>;

    /// The line that stops a search at the deadline.
    fn stop(&self) -> &'static str {
        "stop"
    }

    /// The option that tells the engine it will ponder, set when it lists it.
    fn ponder_option(&self) -> Option<(&'static str, &'static str)> {
        None
    }

    /// The line that turns a ponder search into the search for the move (`draw`: the
    /// opponent offers one with its move).
    fn ponderhit(&self, _draw: bool) -> String {
        "ponderhit".to_string()
    }

    /// Reads one line while the engine thinks; `true` once it ends the move.
    fn read(&mut self, line: &str, reply: &mut Reply, ranks: Ranks) -> bool;

    /// After the engine answered with a move.
    fn after_move(&mut self, _pipe: &mut Pipe) -> Result<(), Failure> {
        Ok(())
    }
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

/// An engine's text for a game's end reason: at most `max` characters, braces (which would end
/// the PGN comment it goes into) as parentheses.
fn clean(text: &str, max: usize) -> String {
    let map = |c| match c {
        '{' => '(',
        '}' => ')',
        c => c,
    };
    text.trim().chars().take(max).map(map).collect()
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

/// Words for a failure, for error messages.
pub fn describe(f: Failure) -> &'static str {
    match f {
        Failure::Disconnected => "the engine exited",
        Failure::Stalled => "no answer in time",
    }
}

/// Milliseconds as seconds text without trailing zeros: `60`, `0.5`, `0.05`.
pub fn seconds(ms: u64) -> String {
    let s = format!("{}.{:03}", ms / 1000, ms % 1000);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
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

    #[test]
    fn seconds_text() {
        assert_eq!(seconds(60_000), "60");
        assert_eq!(seconds(500), "0.5");
        assert_eq!(seconds(50), "0.05");
        assert_eq!(seconds(1_234), "1.234");
        assert_eq!(seconds(0), "0");
    }
}
