//! One engine process driven over UCCI, UCI or CECP (XBoard): spawn, handshake and options
//! (with a warning for each option the engine does not know), new game, one move with a
//! deadline. The shared line reader (`crate::lines`) reads the engine's stdout, so every wait
//! has a deadline and a crashed engine shows up as end of input. With a [`DebugLog`] every
//! line sent and received is logged.

use super::openings::START_FEN;
use super::ranks::{from_probe, Ranks, PROBE_FEN};
use super::xboard;
use crate::board::Move;
use crate::lines::{recv_until, spawn_reader, Input};
use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Time allowed for the handshake, for each option's acknowledgement and for `isready`.
const HANDSHAKE: Duration = Duration::from_secs(10);
/// How long a CECP engine that sent `feature done=0` may take to send `done=1`.
const FEATURE_DONE: Duration = Duration::from_secs(60);
/// After `stop` at the deadline, how long an engine may take to answer before it stalls.
const STOP_GRACE: Duration = Duration::from_millis(1000);

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
    /// Rank numbering of its move text; `None`: ICCS, or asked of a UCI engine offering
    /// `UCI_Variant` (see [`PROBE_FEN`]).
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

/// What the side to move is asked.
pub enum Ask<'a> {
    /// UCCI/UCI: the `position` and `go` lines (moves with ranks 0–9).
    Line {
        /// `position ...`.
        position: String,
        /// `go ...`.
        go: String,
    },
    /// CECP: the game so far (the engine is told the moves it has not seen), the clocks and
    /// whether the opponent offers a draw.
    Xboard {
        /// The game's start position.
        start_fen: &'a str,
        /// Every move since `start_fen`.
        moves: &'a [Move],
        /// The engine's clock in ms (`time`), with a clock limit.
        time_ms: Option<u64>,
        /// The opponent's clock in ms (`otim`), if it has one.
        otim_ms: Option<u64>,
        /// The opponent offers a draw (`draw`).
        draw: bool,
    },
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

/// What a CECP engine announced and how far it follows the game.
#[derive(Clone, Debug, Default)]
struct Cecp {
    ping: bool,
    setboard: bool,
    usermove: bool,
    /// `draw=0` asks not to be sent `draw`.
    no_draw: bool,
    /// `variants=...`, if announced.
    variants: Option<String>,
    /// The engine has this game's start position.
    set_up: bool,
    /// Moves of the game the engine has seen.
    synced: usize,
    /// The last `ping` number.
    pings: u32,
}

/// A running engine process.
pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Input>,
    proto: Proto,
    name: String,
    debug: Option<DebugLog>,
    ranks: Ranks,
    limit: Limit,
    timeout_ms: u64,
    /// Option names the engine listed (UCI `option name`, CECP `feature option=`).
    listed: Option<Vec<String>>,
    cecp: Cecp,
    warnings: Vec<String>,
}

impl EngineProcess {
    /// Spawns the engine and completes the handshake and options; a one-line error otherwise.
    pub fn start(cfg: &EngineConfig) -> Result<EngineProcess, String> {
        let mut cmd = Command::new(&cfg.cmd);
        cmd.args(&cfg.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        if let Some(dir) = &cfg.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn().map_err(|e| format!("cannot start engine '{}' ({}): {e}", cfg.name, cfg.cmd))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("engine '{}': no pipes", cfg.name));
        };
        let lines = spawn_reader(BufReader::new(stdout));
        let mut engine = EngineProcess {
            child,
            stdin,
            lines,
            proto: cfg.proto,
            name: cfg.name.clone(),
            debug: cfg.debug.clone(),
            ranks: cfg.ranks.unwrap_or(Ranks::FromZero),
            limit: cfg.limit,
            timeout_ms: cfg.timeout_ms,
            listed: None,
            cecp: Cecp::default(),
            warnings: Vec::new(),
        };
        let fail = |what: &str, f: Failure| format!("engine '{}' {what}: {}", cfg.name, describe(f));
        match cfg.proto {
            Proto::Ucci => {
                engine.send("ucci").map_err(|f| fail("handshake", f))?;
                engine.wait_for("ucciok", HANDSHAKE).map_err(|f| fail("handshake (ucciok)", f))?;
                engine.send("setoption usemillisec true").map_err(|f| fail("options", f))?;
            }
            Proto::Uci => {
                engine.send("uci").map_err(|f| fail("handshake", f))?;
                engine.handshake_uci().map_err(|f| fail("handshake (uciok)", f))?;
                // Multi-variant engines (Fairy-Stockfish) play chess until told otherwise.
                if engine.lists("UCI_Variant") == Some(true)
                    && !cfg.options.iter().any(|(n, _)| n.eq_ignore_ascii_case("UCI_Variant"))
                {
                    engine.send("setoption name UCI_Variant value xiangqi").map_err(|f| fail("options", f))?;
                }
            }
            Proto::Xboard => {
                engine.handshake_xboard().map_err(|f| fail("handshake (feature done=1)", f))?;
                if let Some(v) = engine.cecp.variants.as_deref() {
                    if !v.split(',').any(|v| v.trim() == "xiangqi") {
                        let shown: String = v.chars().take(60).collect();
                        return Err(format!("engine '{}' does not play xiangqi (its variants: {shown})", cfg.name));
                    }
                }
            }
        }
        for (name, value) in &cfg.options {
            engine.set_option(name, value).map_err(|f| fail("options", f))?;
        }
        // A multi-variant UCI engine may number ranks from one: ask it, unless told.
        if cfg.ranks.is_none() && cfg.proto == Proto::Uci && engine.lists("UCI_Variant") == Some(true) {
            engine.ranks = engine.probe_ranks().map_err(|f| fail("rank numbering probe", f))?;
        }
        engine.ready().map_err(|f| fail("isready", f))?;
        Ok(engine)
    }

    /// What the start found worth telling the user, one line each: options the engine does
    /// not know, how it numbers ranks when it was asked.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Writes one line to the engine.
    fn send(&mut self, line: &str) -> Result<(), Failure> {
        if let Some(d) = &self.debug {
            d.line(&self.name, '<', line);
        }
        writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush()).map_err(|_| Failure::Disconnected)
    }

    /// The engine's next line, by `deadline`.
    fn next_line(&self, deadline: Instant) -> Result<String, Failure> {
        match recv_until(&self.lines, Some(deadline)) {
            Some(Input::Line(line)) => {
                if let Some(d) = &self.debug {
                    d.line(&self.name, '>', &line);
                }
                Ok(line)
            }
            Some(Input::Eof) => Err(Failure::Disconnected),
            None => Err(Failure::Stalled),
        }
    }

    /// Drops lines left over from an earlier exchange (logged), so they are not taken as this
    /// one's answer.
    fn drain(&self) {
        while let Ok(input) = self.lines.try_recv() {
            if let (Input::Line(line), Some(d)) = (input, &self.debug) {
                d.line(&self.name, '>', &line);
            }
        }
    }

    /// Reads lines until one whose first word is `word`, within `timeout`.
    fn wait_for(&mut self, word: &str, timeout: Duration) -> Result<(), Failure> {
        let deadline = Instant::now() + timeout;
        loop {
            if self.next_line(deadline)?.split_whitespace().next() == Some(word) {
                return Ok(());
            }
        }
    }

    /// Whether the engine listed option `name` (`None`: it lists none, as UCCI engines need not).
    fn lists(&self, name: &str) -> Option<bool> {
        self.listed.as_ref().map(|l| l.iter().any(|n| n.eq_ignore_ascii_case(name)))
    }

    /// Reads the `uci` reply up to `uciok`, keeping the option names.
    fn handshake_uci(&mut self) -> Result<(), Failure> {
        let deadline = Instant::now() + HANDSHAKE;
        let mut names = Vec::new();
        loop {
            let line = self.next_line(deadline)?;
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["uciok", ..] => break,
                ["option", "name", rest @ ..] => {
                    let end = rest.iter().position(|&w| w == "type").unwrap_or(rest.len());
                    names.push(rest[..end].join(" "));
                }
                _ => {}
            }
        }
        self.listed = Some(names);
        Ok(())
    }

    /// `xboard`, `protover 2`, then `feature` lines (each answered `accepted`/`rejected`) up
    /// to `feature done=1`. An engine that sends none within the handshake time is taken as
    /// a protocol-1 engine, with no features; `done=0` asks for more time.
    fn handshake_xboard(&mut self) -> Result<(), Failure> {
        self.send("xboard")?;
        self.send("protover 2")?;
        let mut deadline = Instant::now() + HANDSHAKE;
        let mut options = Vec::new();
        loop {
            let line = match self.next_line(deadline) {
                Err(Failure::Stalled) => break,
                line => line?,
            };
            let mut done = false;
            for (name, value) in xboard::features(&line) {
                let on = value == "1";
                match name.as_str() {
                    "ping" => self.cecp.ping = on,
                    "setboard" => self.cecp.setboard = on,
                    "usermove" => self.cecp.usermove = on,
                    "draw" => self.cecp.no_draw = value == "0",
                    "variants" => self.cecp.variants = Some(value.clone()),
                    "option" => options.push(xboard::option_name(&value).to_string()),
                    "done" if on => done = true,
                    "done" => deadline = Instant::now() + FEATURE_DONE,
                    _ => {}
                }
                let answer = if xboard::refused(&name, &value) { "rejected" } else { "accepted" };
                self.send(&format!("{answer} {name}"))?;
            }
            if done {
                break;
            }
        }
        self.listed = Some(options);
        Ok(())
    }

    /// Sends one option, then waits for the engine to acknowledge (`isready`, CECP `ping`) and
    /// keeps a warning if it did not list the option or objected to it.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), Failure> {
        let line = match self.proto {
            Proto::Ucci => format!("setoption {name} {value}"),
            Proto::Uci => format!("setoption name {name} value {value}"),
            Proto::Xboard => format!("option {name}={value}"),
        };
        self.send(&line)?;
        let mut answer = None;
        for line in self.sync()? {
            if answer.is_none() && objects(&line) {
                answer = Some(line.trim().chars().take(100).collect::<String>());
            }
        }
        if let Some(w) = option_warning(&self.name, name, value, self.lists(name), answer.as_deref()) {
            self.warnings.push(w);
        }
        Ok(())
    }

    /// Waits until the engine has handled everything sent so far (`isready`/`readyok`, CECP
    /// `ping`/`pong` when it has `ping`); the lines it wrote meanwhile.
    fn sync(&mut self) -> Result<Vec<String>, Failure> {
        let (ask, answer) = match self.proto {
            Proto::Ucci | Proto::Uci => ("isready".to_string(), "readyok".to_string()),
            Proto::Xboard if self.cecp.ping => {
                self.cecp.pings += 1;
                (format!("ping {}", self.cecp.pings), format!("pong {}", self.cecp.pings))
            }
            Proto::Xboard => return Ok(Vec::new()),
        };
        self.send(&ask)?;
        let deadline = Instant::now() + HANDSHAKE;
        let mut seen = Vec::new();
        loop {
            let line = self.next_line(deadline)?;
            if line.split_whitespace().collect::<Vec<_>>().join(" ") == answer {
                return Ok(seen);
            }
            seen.push(line);
        }
    }

    /// Asks for the one legal move of [`PROBE_FEN`] at depth 1: its text shows the numbering.
    /// An answer that shows none keeps ranks 0–9, with a warning.
    fn probe_ranks(&mut self) -> Result<Ranks, Failure> {
        self.sync()?;
        self.send(&format!("position fen {PROBE_FEN}"))?;
        self.send("go depth 1")?;
        let deadline = Instant::now() + HANDSHAKE;
        loop {
            let line = self.next_line(deadline)?;
            let mut words = line.split_whitespace();
            if words.next() == Some("bestmove") {
                let answer = words.next().unwrap_or("");
                if from_probe(answer) == Some(Ranks::FromOne) {
                    self.warnings.push(format!(
                        "Note: {} numbers ranks 1-10 (it calls e0e1 '{answer}'); its moves are translated",
                        self.name
                    ));
                }
                return Ok(from_probe(answer).unwrap_or_else(|| {
                    let shown: String = answer.chars().take(16).collect();
                    self.warnings.push(format!(
                        "Warning: cannot tell how {} numbers ranks (it answered '{shown}' where e0e1 is the only move); \
                         assuming 0-9, set ranks=1 if it counts from 1",
                        self.name
                    ));
                    Ranks::FromZero
                }));
            }
        }
    }

    /// Asks for `go perft depth` on `fen` and reads the split (`move: count` lines, as
    /// Stockfish-family engines print them) up to the total line (`Nodes searched: N`, or
    /// `nodes N ...`); `None` when the engine answers with `bestmove` (no perft command).
    pub fn perft(&mut self, fen: &str, depth: u32, timeout: Duration) -> Result<Option<PerftSplit>, Failure> {
        self.drain();
        self.send(&format!("position fen {fen}"))?;
        self.send(&format!("go perft {depth}"))?;
        let deadline = Instant::now() + timeout;
        let mut split = PerftSplit::default();
        loop {
            let line = self.next_line(deadline)?;
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

    /// `isready` → `readyok` (CECP: `ping` → `pong`, when it has `ping`).
    fn ready(&mut self) -> Result<(), Failure> {
        self.sync().map(|_| ())
    }

    /// Tells the engine a new game starts and waits until it is ready. A CECP engine gets
    /// `new`, the variant, `force` (it only thinks when sent `go`), its time control,
    /// `post` and `easy`.
    pub fn new_game(&mut self) -> Result<(), Failure> {
        match self.proto {
            Proto::Ucci => self.send("setoption newgame")?,
            Proto::Uci => self.send("ucinewgame")?,
            Proto::Xboard => {
                self.send("new")?;
                if self.cecp.variants.is_some() {
                    self.send("variant xiangqi")?;
                }
                self.send("force")?;
                for line in xboard::time_control(self.limit, self.timeout_ms) {
                    self.send(&line)?;
                }
                self.send("post")?;
                self.send("easy")?;
                self.cecp.set_up = false;
                self.cecp.synced = 0;
            }
        }
        self.ready()
    }

    /// Sends the request, then waits for the move until `allowed` has passed; then sends
    /// `stop` (CECP `?`) and waits a little more (a reply then is marked `late`).
    pub fn think(&mut self, ask: Ask, allowed: Duration) -> Result<Reply, Failure> {
        self.drain();
        let cpu_before = super::cpu::cpu_ms(self.child.id());
        match ask {
            Ask::Line { position, go } => {
                let ranks = self.ranks;
                let position = match ranks {
                    Ranks::FromZero => position,
                    Ranks::FromOne => Ranks::after_keyword(&position, "moves", |m| ranks.to_engine(m)),
                };
                self.send(&position)?;
                self.send(&go)?;
            }
            Ask::Xboard { start_fen, moves, time_ms, otim_ms, draw } => {
                self.xboard_catch_up(start_fen, moves)?;
                if let Some(t) = time_ms {
                    self.send(&format!("time {}", t / 10))?;
                }
                if let Some(t) = otim_ms {
                    self.send(&format!("otim {}", t / 10))?;
                }
                if draw && !self.cecp.no_draw {
                    self.send("draw")?;
                }
                self.send("go")?;
            }
        }
        let sent = Instant::now();
        let mut deadline = sent + allowed;
        let mut reply = Reply::default();
        loop {
            let line = match self.next_line(deadline) {
                Err(Failure::Stalled) if !reply.late => {
                    reply.late = true;
                    self.send(if self.proto == Proto::Xboard { "?" } else { "stop" })?;
                    deadline = Instant::now() + STOP_GRACE;
                    continue;
                }
                line => line?,
            };
            let done = match self.proto {
                Proto::Ucci | Proto::Uci => self.read_line_reply(&line, &mut reply),
                Proto::Xboard => self.read_xboard_reply(&line, &mut reply)?,
            };
            if done {
                reply.elapsed_ms = sent.elapsed().as_millis() as u64;
                reply.cpu_ms = cpu_before.zip(super::cpu::cpu_ms(self.child.id())).map(|(a, b)| b.saturating_sub(a));
                if self.proto == Proto::Xboard && reply.bestmove.is_some() {
                    // `force`, and `ping` answered only once the engine has played its move on
                    // its own board: a move sent sooner can meet the board before it
                    // (Fairy-Stockfish then answers `Illegal move`).
                    self.send("force")?;
                    self.sync()?;
                }
                return Ok(reply);
            }
        }
    }

    /// One UCCI/UCI line while thinking; `true` once it ends the move.
    fn read_line_reply(&self, line: &str, reply: &mut Reply) -> bool {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("info") => {
                if let Some((eval, depth)) = parse_info(line, self.proto) {
                    reply.eval = Some(eval);
                    reply.depth = depth;
                }
                false
            }
            Some("nobestmove") => true,
            Some("bestmove") => {
                let mv = words.next().unwrap_or("");
                if !mv.is_empty() && mv != "(none)" && mv != "0000" {
                    reply.bestmove = Some(self.ranks.to_ours(mv));
                }
                for w in words {
                    match w {
                        "draw" => reply.draw = true,
                        "resign" => reply.resign = true,
                        _ => {}
                    }
                }
                true
            }
            _ => false,
        }
    }

    /// One CECP line while thinking; `true` once it ends the move. After `move` the engine is
    /// put back in force mode, so it never thinks on a move we pass on.
    fn read_xboard_reply(&mut self, line: &str, reply: &mut Reply) -> Result<bool, Failure> {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["move", mv, ..] => {
                reply.bestmove = Some(self.ranks.to_ours(mv));
                self.cecp.synced += 1;
                Ok(true)
            }
            ["Illegal", "move" | "move:", ..] => {
                reply.refused = Some(clean(line, 60));
                Ok(true)
            }
            ["resign", ..] => {
                reply.resign = true;
                Ok(true)
            }
            ["offer", "draw", ..] => {
                reply.draw = true;
                Ok(false)
            }
            _ => {
                if let Some(c) = xboard::claim(line) {
                    reply.claim = Some(clean(c, 80));
                    return Ok(true);
                }
                if let Some((depth, eval)) = xboard::thinking(line) {
                    reply.eval = Some(eval);
                    reply.depth = Some(depth);
                }
                Ok(false)
            }
        }
    }

    /// Brings a CECP engine (in force mode) to the game: `setboard` for a start other than the
    /// standard one, then the moves it has not seen.
    fn xboard_catch_up(&mut self, start_fen: &str, moves: &[Move]) -> Result<(), Failure> {
        if !self.cecp.set_up {
            if start_fen != START_FEN {
                // Sent even without `setboard=1`: protocol 1's `edit` cannot set up xiangqi.
                self.send(&format!("setboard {start_fen}"))?;
            }
            self.cecp.set_up = true;
        }
        for &m in moves.iter().skip(self.cecp.synced) {
            let text = self.ranks.to_engine(&m.to_string());
            let line = if self.cecp.usermove { format!("usermove {text}") } else { text };
            self.send(&line)?;
        }
        self.cecp.synced = moves.len();
        Ok(())
    }

    /// Asks the engine to quit, then makes sure the process is gone.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                self.drain();
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        // Drop kills it.
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
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

/// The score and depth of an `info` line of the principal line (`multipv 1` or none): UCI
/// `score cp X` / `score mate N`, or UCCI's bare `score X`, where ±(10000 − plies) above 9900
/// is a mate (as Chuhe and ElephantEye write them).
pub fn parse_info(line: &str, proto: Proto) -> Option<(Eval, Option<u32>)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let after = |key: &str| words.iter().position(|&w| w == key).and_then(|i| words.get(i + 1)).copied();
    if after("multipv").is_some_and(|k| k != "1") {
        return None;
    }
    let depth = after("depth").and_then(|d| d.parse().ok());
    let i = words.iter().position(|&w| w == "score")?;
    let eval = match *words.get(i + 1)? {
        "cp" => Eval::Cp(words.get(i + 2)?.parse().ok()?),
        "mate" => Eval::Mate(words.get(i + 2)?.parse().ok()?),
        bare => {
            let s: i32 = bare.parse().ok()?;
            if proto == Proto::Ucci && (9901..=10_000).contains(&s.abs()) {
                let moves = (10_000 - s.abs() + 1) / 2;
                Eval::Mate(if s > 0 { moves } else { -moves })
            } else {
                Eval::Cp(s)
            }
        }
    };
    Some((eval, depth))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_in_every_dialect() {
        let p = |l: &str| parse_info(l, Proto::Ucci);
        assert_eq!(p("info depth 5 score 37 pv h2e2"), Some((Eval::Cp(37), Some(5))));
        assert_eq!(p("info depth 5 seldepth 7 score cp -120 nodes 5"), Some((Eval::Cp(-120), Some(5))));
        assert_eq!(p("info depth 9 score mate 3 pv a0a9"), Some((Eval::Mate(3), Some(9))));
        assert_eq!(p("info depth 9 score mate -2"), Some((Eval::Mate(-2), Some(9))));
        assert_eq!(p("info depth 9 score 9995"), Some((Eval::Mate(3), Some(9))));
        assert_eq!(p("info depth 9 score -9994"), Some((Eval::Mate(-3), Some(9))));
        assert_eq!(parse_info("info depth 9 score 9995", Proto::Uci), Some((Eval::Cp(9995), Some(9))));
        assert_eq!(p("info score 12"), Some((Eval::Cp(12), None)));
        assert_eq!(p("info depth 9 multipv 2 score cp 5"), None);
        assert_eq!(p("info depth 9 multipv 1 score cp 5"), Some((Eval::Cp(5), Some(9))));
        assert_eq!(p("info time 5 nodes 100"), None);
        assert_eq!(p("info depth 9 score cp"), None);
        assert_eq!(Eval::Mate(3).centipawns(), 29_997);
        assert_eq!(Eval::Mate(-2).centipawns(), -29_998);
    }

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
