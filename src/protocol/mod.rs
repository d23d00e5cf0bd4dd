//! The protocol front end: the loop GUIs talk to over stdin/stdout.
//!
//! - `mod.rs` (here): the reader thread, the shared output, and the boot dispatch on the
//!   first word (`ucci`, `uci`, `xboard`).
//! - `session.rs`: the engine-driving state every dialect shares (position, banned moves,
//!   options, go/stop/ponderhit, the time-limit watchdog).
//! - one file per dialect (`ucci.rs`, `uci.rs`) implementing [`Dialect`]: text → typed
//!   [`Command`]s, engine events → reply lines. `xboard.rs` (CECP) is stateful and runs its
//!   own loop over the session's hooks.
//! - `command.rs` (the typed commands and shared word parsers), `options.rs`, `policy.rs`
//!   (best-move checks and the draw/resign policy).

pub mod command;
pub mod options;
pub mod policy;
pub mod session;
pub mod ucci;
pub mod uci;
pub mod xboard;

pub use command::Command;

use crate::board::Move;
use crate::search::{Info, ProbeInfo};
use options::{Options, Spec};
use policy::Decision;
use session::Session;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};

/// Engine name and version as announced in the handshake.
pub const ENGINE_NAME: &str = concat!("Chuhe ", env!("CARGO_PKG_VERSION"));
/// Author line of the handshake.
pub const ENGINE_AUTHOR: &str = "the Chuhe developers";

/// One protocol dialect: parses command lines and formats replies. Implementations hold no
/// mutable state (the session owns it), so replies can be formatted on the search thread.
pub trait Dialect: Send + Sync {
    /// The options this dialect advertises.
    fn options(&self) -> &'static [Spec];
    /// Whether `setoption` of an option never advertised is an error (else silently accepted).
    fn unknown_option_is_error(&self) -> bool;
    /// Parses one line (already stripped of its line ending).
    fn parse(&self, line: &str, opts: &Options) -> Result<Command, String>;
    /// The handshake reply: id lines, option lines, the ok line.
    fn handshake(&self) -> Vec<String>;
    /// A principal-variation report.
    fn info(&self, info: &Info) -> String;
    /// A current-move report.
    fn currmove(&self, depth: u32, mv: Move, number: u32) -> String;
    /// The end of a search: the move (or the no-move reply) with its flags.
    fn bestmove(&self, d: &Decision) -> String;
    /// Free text for the user.
    fn message(&self, text: &str) -> String {
        format!("info string {text}")
    }
    /// A one-line error report; the engine carries on.
    fn error(&self, text: &str) -> String {
        format!("info string error: {text}")
    }
    /// Reply to `stop` while idle, if any.
    fn stray_stop(&self) -> Option<String>;
    /// Reply to `quit`, if any.
    fn bye(&self) -> Option<String>;
    /// Reply to `probe`.
    fn pophash(&self, p: Option<&ProbeInfo>) -> String;
}

/// Appends each move of `moves` to `s`, each preceded by a space (the PV of an info line).
pub(crate) fn push_moves(s: &mut String, moves: &[Move]) {
    for m in moves {
        s.push(' ');
        s.push_str(&m.to_string());
    }
}

/// Where replies go: one writer shared by the loop and the search thread; every line is
/// written whole and flushed. Write errors (GUI gone) are ignored.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Output to `w`.
    pub fn new(w: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(w))))
    }

    /// Writes several lines without another writer's lines in between.
    pub fn lines<S: AsRef<str>>(&self, lines: &[S]) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        for l in lines {
            let _ = writeln!(w, "{}", l.as_ref());
        }
        let _ = w.flush();
    }

    /// Writes one line.
    pub fn line(&self, line: &str) {
        self.lines(&[line]);
    }

    /// Writes the lines that end a search and sets `done`, unless `done` is already set;
    /// both under the lock, so a search's end is announced exactly once.
    pub fn final_lines<S: AsRef<str>>(&self, lines: &[S], done: &AtomicBool) -> bool {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if done.load(Ordering::SeqCst) {
            return false;
        }
        for l in lines {
            let _ = writeln!(w, "{}", l.as_ref());
        }
        let _ = w.flush();
        done.store(true, Ordering::SeqCst);
        true
    }

    /// Waits until no other writer is in the middle of a write.
    pub fn barrier(&self) {
        drop(self.0.lock().unwrap_or_else(|e| e.into_inner()));
    }
}

/// What the reader thread delivers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A line without its `\n` / `\r\n`.
    Line(String),
    /// The input was closed.
    Eof,
}

/// Starts a thread reading lines from `input` into a channel; it never waits on the engine.
pub fn spawn_reader(mut input: impl BufRead + Send + 'static) -> Receiver<Input> {
    let (tx, rx): (Sender<Input>, Receiver<Input>) = channel();
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => {
                    let _ = tx.send(Input::Eof);
                    return;
                }
                Ok(_) => {
                    let text = String::from_utf8_lossy(&buf);
                    let line = text.trim_end_matches(['\n', '\r']).to_string();
                    if tx.send(Input::Line(line)).is_err() {
                        return;
                    }
                }
            }
        }
    });
    rx
}

/// The protocol loop on stdin/stdout (what `chuhe` with no arguments runs).
pub fn run_stdio() {
    let rx = spawn_reader(std::io::BufReader::new(std::io::stdin()));
    run(&rx, Output::new(std::io::stdout()));
}

/// Boot state: waits for the first command, which picks the dialect, then runs the session
/// until `quit` or end of input.
pub fn run(rx: &Receiver<Input>, out: Output) {
    while let Ok(Input::Line(line)) = rx.recv() {
        let first = line.split_whitespace().next().unwrap_or("");
        match first {
            "" => {}
            "ucci" => return Session::new(Arc::new(ucci::Ucci), out).run(rx),
            "uci" => return Session::new(Arc::new(uci::Uci), out).run(rx),
            "xboard" => return xboard::run(rx, out),
            "quit" => return,
            other => out.line(&format!(
                "info string error: unknown command '{}' before the handshake; send ucci, uci or xboard first",
                command::clip(other)
            )),
        }
    }
}
