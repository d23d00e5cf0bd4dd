//! Shared helpers for the protocol tests: spawn the real `chuhe` binary and talk to it over
//! pipes. Reading goes through a thread and a channel with timeouts, so a broken engine fails
//! the test instead of hanging it.
#![allow(dead_code)]

pub mod rng;

use chuhe::board::{Move, Position};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long any single expected reply may take before the test fails. It only catches a hang
/// or a gross bug (a think that never ends, a clock read in the wrong unit): the tests set up
/// thinks that end long before it when the engine is right and long after it when it is wrong,
/// and never bound how fast a right engine answers, so a loaded machine cannot fail them.
pub const WAIT: Duration = Duration::from_secs(60);

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<String>,
    /// Every line received so far (for failure messages).
    pub log: Vec<String>,
}

impl Engine {
    /// Starts `chuhe` with no arguments (the protocol loop).
    pub fn start() -> Engine {
        Engine::start_command(Command::new(env!("CARGO_BIN_EXE_chuhe")))
    }

    /// Starts `cmd` (which runs `chuhe`'s protocol loop, e.g. under a shell's `ulimit`).
    pub fn start_command(mut cmd: Command) -> Engine {
        let mut child =
            cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("spawn chuhe");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine { child, stdin, rx, log: Vec::new() }
    }

    /// Starts the engine in CECP mode (`xboard`, `protover 2`); returns it with the feature
    /// lines up to `feature done=1`.
    pub fn xboard_handshake() -> (Engine, Vec<String>) {
        let mut e = Engine::start();
        e.send("xboard");
        e.send("protover 2");
        let lines = e.until(|l| l == "feature done=1");
        (e, lines)
    }

    /// CECP: sends `line`, then `ping 7`, and returns the lines printed before `pong 7`.
    pub fn cecp_ask(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.send("ping 7");
        let mut lines = self.until(|l| l == "pong 7");
        lines.pop();
        lines
    }

    /// Starts the engine and completes the handshake of `dialect` (`ucci` or `uci`);
    /// returns the handshake lines.
    pub fn handshake(dialect: &str) -> (Engine, Vec<String>) {
        let mut e = Engine::start();
        e.send(dialect);
        let lines = e.until(|l| l == format!("{dialect}ok"));
        (e, lines)
    }

    /// The engine's process id (for `/proc` look-ups).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends one line (a `\n` is appended).
    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    /// Sends raw bytes.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to engine");
        stdin.flush().expect("flush to engine");
    }

    /// Closes the engine's stdin (EOF).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line, or `None` after `timeout` (or when the engine closed stdout).
    pub fn recv(&mut self, timeout: Duration) -> Option<String> {
        match self.rx.recv_timeout(timeout) {
            Ok(l) => {
                self.log.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first one matching `pred`; fails the test after `WAIT`.
    pub fn until(&mut self, pred: impl Fn(&str) -> bool) -> Vec<String> {
        self.until_within(pred, WAIT)
    }

    /// Like `until` with an explicit overall timeout.
    pub fn until_within(&mut self, pred: impl Fn(&str) -> bool, timeout: Duration) -> Vec<String> {
        let end = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.recv(left) {
                Some(l) => {
                    let hit = pred(&l);
                    lines.push(l);
                    if hit {
                        return lines;
                    }
                }
                None => panic!("no expected line within {timeout:?}; lines so far:\n{}", self.log.join("\n")),
            }
        }
    }

    /// The `bestmove`/`nobestmove` line ending the current search, with the lines before it.
    pub fn search_end(&mut self) -> (String, Vec<String>) {
        let mut lines = self.until(is_search_end);
        let last = lines.pop().unwrap();
        (last, lines)
    }

    /// Sends a `go` line and returns the `bestmove`/`nobestmove` line ending that search.
    pub fn go(&mut self, line: &str) -> String {
        self.send(line);
        self.search_end().0
    }

    /// Sends `line`, which the engine must refuse with exactly one error line and nothing
    /// else but a running search's own output; returns that line.
    pub fn refused(&mut self, line: &str) -> String {
        let lines = self.ask(line);
        let errs = errors(&lines);
        let search_output = |l: &String| l.starts_with("info ") && !l.starts_with("info string");
        assert!(errs.len() == 1, "{line}: {lines:?}");
        assert!(lines.iter().all(|l| errs.contains(&l) || search_output(l)), "{line}: {lines:?}");
        errs[0].clone()
    }

    /// Sends `isready` and returns the lines before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// Sends `line`, syncs, and returns the lines the engine printed for it.
    pub fn ask(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.sync()
    }

    /// Asserts that nothing arrives for `d` (e.g. no `bestmove` while pondering).
    pub fn silent_for(&mut self, d: Duration, what: &str) {
        let end = Instant::now() + d;
        while let Some(l) = self.recv(end.saturating_duration_since(Instant::now())) {
            assert!(!is_search_end(&l), "{what}: unexpected '{l}'");
        }
    }

    /// The FEN the engine reports through `d` (UCI: Pikafish's `Fen: `; UCCI, CECP: `fen `).
    pub fn fen(&mut self) -> String {
        let lines = self.ask("d");
        let fen = lines.iter().find_map(|l| l.strip_prefix("Fen: ").or_else(|| l.strip_prefix("fen ")));
        fen.expect("d prints a fen line").to_string()
    }

    /// Waits up to `timeout` for the process to exit.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let end = Instant::now() + timeout;
        while Instant::now() < end {
            if let Ok(Some(s)) = self.child.try_wait() {
                return Some(s);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        None
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether `l` ends a search in either dialect.
pub fn is_search_end(l: &str) -> bool {
    l.starts_with("bestmove") || l == "nobestmove"
}

/// The error lines among `lines`.
pub fn errors(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("info string error:")).collect()
}

/// The move of a `bestmove` line.
pub fn best_of(line: &str) -> Move {
    let w = line.split_whitespace().nth(1).unwrap_or_else(|| panic!("no move in '{line}'"));
    Move::parse(w).unwrap_or_else(|_| panic!("bad move in '{line}'"))
}

/// The word after `key` in `line`.
pub fn word_after<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut it = line.split_whitespace();
    it.by_ref().find(|w| *w == key)?;
    it.next()
}

/// Red to move and mated in one whatever it plays (two black rooks, kings on different files).
pub const MATED_IN_ONE_FEN: &str = "3k5/r8/9/9/5r3/9/9/9/4K4/9 w - - 0 1";
/// Red to move with two rooks against a bare king: clearly better, no mate in sight.
pub const WINNING_FEN: &str = "4k4/9/9/9/9/R7R/9/9/9/3K5 w - - 0 1";
/// Red to move and already checkmated.
pub const CHECKMATED_FEN: &str = "3k5/4r4/9/9/5r3/9/9/4K4/9/9 w - - 0 1";

/// A legal 4-move horse shuffle repeated: `n` moves in all (n multiple of 4).
pub fn shuffle_moves(n: usize) -> String {
    let cycle = ["h0g2", "h9g7", "g2h0", "g7h9"];
    (0..n).map(|i| cycle[i % 4]).collect::<Vec<_>>().join(" ")
}

/// Plays `plies` moves from the start position with both sides on a clock of `base_ms` plus
/// `inc_ms` per move, sending each `go` through `go_line(own_ms, opp_ms, red_to_move)`.
/// Asserts every move is legal and no clock ever falls to zero; returns the time used per move
/// in ms (measured from sending `go` to reading `bestmove`).
pub fn play_clock_game(
    e: &mut Engine,
    plies: usize,
    base_ms: u64,
    inc_ms: u64,
    go_line: impl Fn(u64, u64, bool) -> String,
) -> Vec<u64> {
    let mut pos = Position::startpos();
    let mut moves: Vec<String> = Vec::new();
    let mut clock = [base_ms as i64, base_ms as i64];
    let mut used = Vec::new();
    for ply in 0..plies {
        let red = ply % 2 == 0;
        let (me, opp) = if red { (0, 1) } else { (1, 0) };
        let pos_line = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        e.send(&pos_line);
        let t = Instant::now();
        e.send(&go_line(clock[me] as u64, clock[opp] as u64, red));
        let (best, _) = e.search_end();
        let ms = t.elapsed().as_millis() as i64;
        clock[me] -= ms;
        assert!(clock[me] > 0, "ply {ply}: over time (used {ms} ms, clock now {} ms)", clock[me]);
        clock[me] += inc_ms as i64;
        used.push(ms as u64);
        let m = best_of(&best);
        assert!(pos.is_legal(m), "ply {ply}: illegal {best}");
        pos.make_move(m);
        moves.push(m.to_string());
        if !pos.has_legal_move() {
            break;
        }
    }
    used
}

/// Scenarios both UCCI and UCI run, each with its own `position` and `go` words.
pub mod scenario {
    use super::*;

    /// Starts a ponder search, which says nothing (no `bestmove`) however long it runs, then
    /// sends `then` and returns the `bestmove` line that follows.
    pub fn ponder_then(e: &mut Engine, position: &str, go_ponder: &str, then: &str) -> String {
        e.send(position);
        e.send(go_ponder);
        e.silent_for(Duration::from_millis(300), "pondering");
        e.send(then);
        let (best, _) = e.search_end();
        assert!(best.starts_with("bestmove "), "{best}");
        best
    }

    /// After `ponderhit` the clock ends the search by itself: no stop is sent, and a clock that
    /// never applied would fail the wait after WAIT.
    pub fn ponder_then_ponderhit(e: &mut Engine, position: &str, go_ponder: &str) {
        ponder_then(e, position, go_ponder, "ponderhit");
    }

    /// `stop` ends a pondering search with a move, and the next position searches normally.
    pub fn ponder_then_stop_then_new_position(e: &mut Engine, position: &str, go_ponder: &str) {
        ponder_then(e, position, go_ponder, "stop");
        e.send("position startpos moves h2e2 b9c7");
        let best = e.go("go depth 2");
        let mut pos = Position::startpos();
        for m in ["h2e2", "b9c7"] {
            pos.make_move(Move::parse(m).unwrap());
        }
        assert!(pos.is_legal(best_of(&best)), "{best}");
    }

    /// With many threads (`threads_16`, the dialect's option line) `stop` still brings a
    /// move, searches after it and after fewer threads (`threads_1`) play, and `quit` during
    /// a search ends the process. `quit_reply` is what `quit` answers before the exit, if
    /// anything. No clock is involved: only node limits, `infinite` and `stop`.
    pub fn many_threads_stop_and_quit(e: &mut Engine, threads_16: &str, threads_1: &str, quit_reply: Option<&str>) {
        // More threads than cores are kept, with a note saying so (on machines with fewer
        // than 16 logical cores); nothing else is printed.
        let set_16 = |e: &mut Engine| {
            let lines = e.ask(threads_16);
            assert!(lines.iter().all(|l| l.starts_with("info string Threads 16: this machine has ")), "{lines:?}");
        };
        set_16(e);
        for _ in 0..3 {
            e.send("go infinite");
            e.send("stop");
            let (best, _) = e.search_end();
            assert!(Position::startpos().is_legal(best_of(&best)), "{best}");
        }
        assert!(Position::startpos().is_legal(best_of(&e.go("go nodes 5000"))));
        assert!(e.ask(threads_1).is_empty(), "{threads_1}");
        assert!(Position::startpos().is_legal(best_of(&e.go("go depth 3"))));
        set_16(e);
        e.send("go infinite");
        e.sync();
        e.send("quit");
        if let Some(reply) = quit_reply {
            e.until(|l| l == reply);
        }
        assert!(e.wait_exit(WAIT).expect("exits on quit while 16 threads search").success());
    }

    /// The end of input while thinking ends the process with status 0.
    pub fn eof_while_thinking_exits(e: &mut Engine) {
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(200));
        e.close_stdin();
        assert!(e.wait_exit(WAIT).expect("exits on EOF").success());
    }
}
