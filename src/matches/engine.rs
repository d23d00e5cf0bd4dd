//! One engine process driven over UCCI or UCI: spawn, handshake, new game, `go` with a
//! deadline. The shared line reader (`crate::lines`) reads the engine's stdout, so every wait
//! has a deadline and a crashed engine shows up as end of input.

use crate::lines::{recv_until, spawn_reader, Input};
use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

/// Time allowed for the `ucci`/`uci` handshake and for `isready`.
const HANDSHAKE: Duration = Duration::from_secs(10);
/// After `stop` at the deadline, how long an engine may take to answer before it stalls.
const STOP_GRACE: Duration = Duration::from_millis(1000);

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    /// UCCI: `ucci`, `setoption <name> <value>`, `go time .. opptime ..`, times in ms via `usemillisec`.
    Ucci,
    /// UCI: `uci`, `setoption name <n> value <v>`, `go wtime .. btime ..`.
    Uci,
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
}

/// How an engine failed to answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The process exited or closed its pipes.
    Disconnected,
    /// The process is alive but did not answer in time, not even to `stop`.
    Stalled,
}

/// An engine's answer to `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// The move text; `None` for `nobestmove` or `bestmove (none)`.
    pub bestmove: Option<String>,
    /// `bestmove ... draw`: offers or accepts a draw.
    pub draw: bool,
    /// `bestmove ... resign`.
    pub resign: bool,
    /// Last score reported in `info`, from the engine's side, in centipawns (mate ±30000 − n).
    pub score: Option<i32>,
    /// Milliseconds from sending `go` to reading `bestmove`.
    pub elapsed_ms: u64,
    /// The answer came only after `stop` was sent at the deadline.
    pub late: bool,
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

/// A running engine process.
pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Input>,
    proto: Proto,
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
        let mut engine = EngineProcess { child, stdin, lines, proto: cfg.proto };
        let fail = |what: &str, f: Failure| format!("engine '{}' {what}: {}", cfg.name, describe(f));
        match cfg.proto {
            Proto::Ucci => {
                engine.send("ucci").map_err(|f| fail("handshake", f))?;
                engine.wait_for("ucciok", HANDSHAKE).map_err(|f| fail("handshake (ucciok)", f))?;
                engine.send("setoption usemillisec true").map_err(|f| fail("options", f))?;
                for (name, value) in &cfg.options {
                    engine.send(&format!("setoption {name} {value}")).map_err(|f| fail("options", f))?;
                }
            }
            Proto::Uci => {
                engine.send("uci").map_err(|f| fail("handshake", f))?;
                let variants = engine.handshake_uci().map_err(|f| fail("handshake (uciok)", f))?;
                // Multi-variant engines (Fairy-Stockfish) play chess until told otherwise.
                if variants && !cfg.options.iter().any(|(n, _)| n.eq_ignore_ascii_case("UCI_Variant")) {
                    engine.send("setoption name UCI_Variant value xiangqi").map_err(|f| fail("options", f))?;
                }
                for (name, value) in &cfg.options {
                    engine.send(&format!("setoption name {name} value {value}")).map_err(|f| fail("options", f))?;
                }
            }
        }
        engine.ready().map_err(|f| fail("isready", f))?;
        Ok(engine)
    }

    /// Writes one line to the engine.
    fn send(&mut self, line: &str) -> Result<(), Failure> {
        writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush()).map_err(|_| Failure::Disconnected)
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

    /// Reads the `uci` reply up to `uciok`; whether the engine offers a `UCI_Variant` option.
    fn handshake_uci(&mut self) -> Result<bool, Failure> {
        let deadline = Instant::now() + HANDSHAKE;
        let mut variants = false;
        loop {
            let line = self.next_line(deadline)?;
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["uciok", ..] => return Ok(variants),
                ["option", "name", "UCI_Variant", ..] => variants = true,
                _ => {}
            }
        }
    }

    /// Asks for `go perft depth` on `fen` and reads the split (`move: count` lines, as
    /// Stockfish-family engines print them) up to the total line (`Nodes searched: N`, or
    /// `nodes N ...`); `None` when the engine answers with `bestmove` (no perft command).
    pub fn perft(&mut self, fen: &str, depth: u32, timeout: Duration) -> Result<Option<PerftSplit>, Failure> {
        while self.lines.try_recv().is_ok() {}
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

    /// The engine's next line, by `deadline`.
    fn next_line(&self, deadline: Instant) -> Result<String, Failure> {
        match recv_until(&self.lines, Some(deadline)) {
            Some(Input::Line(line)) => Ok(line),
            Some(Input::Eof) => Err(Failure::Disconnected),
            None => Err(Failure::Stalled),
        }
    }

    /// `isready` → `readyok`.
    fn ready(&mut self) -> Result<(), Failure> {
        self.send("isready")?;
        self.wait_for("readyok", HANDSHAKE)
    }

    /// Tells the engine a new game starts and waits until it is ready.
    pub fn new_game(&mut self) -> Result<(), Failure> {
        match self.proto {
            Proto::Ucci => self.send("setoption newgame")?,
            Proto::Uci => self.send("ucinewgame")?,
        }
        self.ready()
    }

    /// Sends `position` and `go`, then waits for `bestmove` until `allowed` has passed; then
    /// sends `stop` and waits a little more (a reply then is marked `late`).
    pub fn think(&mut self, position: &str, go: &str, allowed: Duration) -> Result<Reply, Failure> {
        // Lines left over from an earlier exchange must not be taken as this move's answer.
        while self.lines.try_recv().is_ok() {}
        self.send(position)?;
        self.send(go)?;
        let sent = Instant::now();
        let mut deadline = sent + allowed;
        let mut reply = Reply::default();
        loop {
            let line = match self.next_line(deadline) {
                Err(Failure::Stalled) if !reply.late => {
                    reply.late = true;
                    self.send("stop")?;
                    deadline = Instant::now() + STOP_GRACE;
                    continue;
                }
                line => line?,
            };
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => {
                    if let Some(s) = parse_score(&line) {
                        reply.score = Some(s);
                    }
                }
                Some("nobestmove") => {
                    reply.elapsed_ms = sent.elapsed().as_millis() as u64;
                    return Ok(reply);
                }
                Some("bestmove") => {
                    reply.elapsed_ms = sent.elapsed().as_millis() as u64;
                    let mv = words.next().unwrap_or("");
                    if !mv.is_empty() && mv != "(none)" && mv != "0000" {
                        reply.bestmove = Some(mv.to_string());
                    }
                    for w in words {
                        match w {
                            "draw" => reply.draw = true,
                            "resign" => reply.resign = true,
                            _ => {}
                        }
                    }
                    return Ok(reply);
                }
                _ => {}
            }
        }
    }

    /// Asks the engine to quit, then makes sure the process is gone.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
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

/// Words for a failure, for error messages.
pub fn describe(f: Failure) -> &'static str {
    match f {
        Failure::Disconnected => "the engine exited",
        Failure::Stalled => "no answer in time",
    }
}

/// The score in an `info` line: UCI `score cp X` / `score mate N`, or UCCI's bare `score X`.
pub fn parse_score(line: &str) -> Option<i32> {
    let mut words = line.split_whitespace();
    words.find(|&w| w == "score")?;
    match words.next()? {
        "cp" => words.next()?.parse().ok(),
        "mate" => {
            let n: i32 = words.next()?.parse().ok()?;
            Some(if n > 0 { 30000 - n } else { -30000 - n })
        }
        bare => bare.parse().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_in_both_dialects() {
        assert_eq!(parse_score("info depth 5 score 37 pv h2e2"), Some(37));
        assert_eq!(parse_score("info depth 5 seldepth 7 score cp -120 nodes 5"), Some(-120));
        assert_eq!(parse_score("info depth 9 score mate 3 pv a0a9"), Some(29997));
        assert_eq!(parse_score("info depth 9 score mate -2"), Some(-29998));
        assert_eq!(parse_score("info time 5 nodes 100"), None);
        assert_eq!(parse_score("info depth 9 score cp"), None);
    }
}
