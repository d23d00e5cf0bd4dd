//! The engine's process and its lines: spawn, write a line, read the next one by a deadline
//! (the shared line reader, `crate::lines`, so a crashed engine shows as end of input), log
//! both ways to the `-debug` log, and make sure the process is gone at the end.

use super::config::{DebugLog, EngineConfig};
use super::turn::{describe, Failure};
use crate::lines::{recv_until, spawn_reader, Input};
use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

/// A running engine process and its pipes.
pub(super) struct Pipe {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Input>,
    /// The engine's name, for the log and messages.
    pub name: String,
    debug: Option<DebugLog>,
}

impl Pipe {
    /// The engine process's id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Spawns `cfg`'s program with its stdin and stdout piped; a one-line error otherwise.
    pub fn spawn(cfg: &EngineConfig) -> Result<Pipe, String> {
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
        Ok(Pipe { child, stdin, lines, name: cfg.name.clone(), debug: cfg.debug.clone() })
    }

    /// The one-line error for a failure during `what` of the start.
    pub fn fail(&self, what: &str, f: Failure) -> String {
        format!("engine '{}' {what}: {}", self.name, describe(f))
    }

    /// Writes one line to the engine.
    pub fn send(&mut self, line: &str) -> Result<(), Failure> {
        if let Some(d) = &self.debug {
            d.line(&self.name, '<', line);
        }
        writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush()).map_err(|_| Failure::Disconnected)
    }

    /// The engine's next line, by `deadline`.
    pub fn next_line(&self, deadline: Instant) -> Result<String, Failure> {
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
    pub fn drain(&self) {
        while let Ok(input) = self.lines.try_recv() {
            if let (Input::Line(line), Some(d)) = (input, &self.debug) {
                d.line(&self.name, '>', &line);
            }
        }
    }

    /// Reads lines until one whose first word is `word`, within `timeout`.
    pub fn wait_for(&mut self, word: &str, timeout: Duration) -> Result<(), Failure> {
        let deadline = Instant::now() + timeout;
        loop {
            if self.next_line(deadline)?.split_whitespace().next() == Some(word) {
                return Ok(());
            }
        }
    }

    /// Sends `ask` and reads up to the line `answer` (words compared, spacing aside) within
    /// `timeout`; the lines the engine wrote before it.
    pub fn exchange(&mut self, ask: &str, answer: &str, timeout: Duration) -> Result<Vec<String>, Failure> {
        self.send(ask)?;
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let line = self.next_line(deadline)?;
            if line.split_whitespace().collect::<Vec<_>>().join(" ") == answer {
                return Ok(seen);
            }
            seen.push(line);
        }
    }

    /// Asks the engine to quit and waits a moment for it to go (`Drop` kills it otherwise).
    pub fn quit(&mut self) {
        let _ = self.send("quit");
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                self.drain();
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Pipe {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}
