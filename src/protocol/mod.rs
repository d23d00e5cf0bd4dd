//! The protocol front end: the loop GUIs talk to over stdin/stdout.
//!
//! - `mod.rs` (here): the [`Replies`] and [`Dialect`] traits, the shared output, and the boot
//!   dispatch on the first word (`ucci`, `uci`, `xboard`). Lines come from the shared reader
//!   in [`crate::lines`], on one channel ([`Event`]) with the end of each search.
//! - `session/`: the engine-driving state every dialect shares (position, banned moves,
//!   options, go/stop/ponderhit, the one wait on lines and search ends), with the book's
//!   choice, the search's reports and the diagnostic commands in files of their own.
//! - `ucci.rs`, `uci.rs`: line dialects, each line one shared [`Command`].
//! - `xboard/` (CECP): its own commands, game state machine, replies and time control, over the
//!   same session.
//! - `command.rs` (the typed commands and shared word parsers), `options/` (option specs and
//!   their handshake formats), `policy.rs` (best-move checks and the draw/resign policy),
//!   `wdl.rs` (the win/draw/loss model of `UCI_ShowWDL`).

pub mod command;
pub mod options;
pub mod policy;
pub mod session;
pub mod ucci;
pub mod uci;
pub mod wdl;
pub mod words;
pub mod xboard;

pub use crate::lines::Input;
pub use command::Command;

use crate::board::Move;
use crate::search::{Info, ProbeInfo};
use options::{OptionSet, Options};
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

/// What a dialect says: its options and the text of every reply. The session formats its
/// replies through it, and so does the search thread (info lines, the move), hence
/// `Send + Sync`. UCCI and UCI keep no state; CECP keeps its `post` switch and the analysis
/// status here, shared with the search thread. `None` (or no lines): nothing is sent.
pub trait Replies: Send + Sync {
    /// The options this dialect advertises and accepts.
    fn options(&self) -> &'static OptionSet;
    /// The handshake reply: id lines, option lines, the ok line.
    fn handshake(&self) -> Vec<String>;
    /// The options changed (after every accepted `setoption`): a dialect keeps what its
    /// replies depend on.
    fn options_changed(&self, _opts: &Options) {}
    /// A principal-variation report.
    fn info(&self, info: &Info) -> Option<String>;
    /// A current-move report.
    fn currmove(&self, depth: u32, mv: Move, number: u32) -> Option<String>;
    /// The lines that end a search: the move (or the no-move reply) with its flags.
    fn bestmove(&self, d: &Decision) -> Vec<String>;
    /// Free text for the user.
    fn message(&self, text: &str) -> String {
        format!("info string {text}")
    }
    /// A one-line error report; the engine carries on.
    fn error(&self, text: &str) -> String {
        format!("info string error: {text}")
    }
    /// Reply to `stop` while idle.
    fn stray_stop(&self) -> Option<String> {
        None
    }
    /// Reply to `quit`.
    fn bye(&self) -> Option<String> {
        None
    }
    /// Reply to `probe`.
    fn pophash(&self, p: Option<&ProbeInfo>) -> Option<String>;
    /// Whether `go perft`, `d` and `eval` answer in Pikafish's shapes (UCI, whose tools parse
    /// them), with Chuhe's extras after them as `info string` lines; else Chuhe's own forms.
    fn pikafish_shapes(&self) -> bool {
        false
    }
    /// Lines before `bestmove` when the side to move has no legal move (UCI: Pikafish's
    /// `info depth 0 score mate 0`: mated or stalemated, which loses in xiangqi).
    fn no_legal_move(&self) -> Vec<String> {
        Vec::new()
    }
}

/// A dialect in which every line is one self-contained shared [`Command`] (UCCI, UCI), run by
/// [`Session::run`]. CECP is not one: its commands act on the game it keeps, so it parses into
/// its own commands and runs its own state machine (`xboard`), replying through [`Replies`].
pub trait Dialect: Replies {
    /// Parses one line (already stripped of its line ending); options can change the units.
    fn parse(&self, line: &str, opts: &Options) -> Result<Command, String>;
}

/// A UCCI/UCI principal-variation line: `info depth D seldepth S`, the dialect's `fields`,
/// then ` pv` and the moves if there are any.
pub(crate) fn info_line(i: &Info, fields: std::fmt::Arguments) -> String {
    let mut s = format!("info depth {} seldepth {} {fields}", i.depth, i.seldepth);
    if !i.pv.is_empty() {
        s.push_str(" pv");
        push_moves(&mut s, &i.pv);
    }
    s
}

/// Appends each move of `moves` to `s`, each preceded by a space.
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

/// What the protocol loop waits for: the GUI's next input, or the end of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A line or the end of input, from the reader thread.
    Input(Input),
    /// A search has ended (it announced its move, or it died without one).
    SearchEnded,
}

/// The protocol loop on stdin/stdout (what `chuhe` with no arguments runs).
pub fn run_stdio() {
    run(std::io::BufReader::new(std::io::stdin()), Output::new(std::io::stdout()));
}

/// Runs the protocol on the lines of `input` (read by a thread of their own) until `quit`
/// or end of input, answering on `out`.
pub fn run(input: impl BufRead + Send + 'static, out: Output) {
    let (wake, rx) = channel();
    crate::lines::read_into(input, wake.clone(), Event::Input);
    boot(wake, &rx, out);
}

/// Boot state: waits for the first command, which picks the dialect, then runs the session
/// until `quit` or end of input. `wake` sends into `rx`, for the session's searches.
fn boot(wake: Sender<Event>, rx: &Receiver<Event>, out: Output) {
    while let Ok(Event::Input(Input::Line(line))) = rx.recv() {
        let first = line.split_whitespace().next().unwrap_or("");
        match first {
            "" => {}
            "ucci" => return Session::new(Arc::new(ucci::Ucci), out, wake).run(&ucci::Ucci, rx),
            "uci" => {
                let uci = Arc::new(uci::Uci::default());
                return Session::new(uci.clone(), out, wake).run(&*uci, rx);
            }
            "xboard" => return xboard::run(wake, rx, out),
            "quit" => return,
            other => out.line(&format!(
                "info string error: unknown command '{}' before the handshake; send ucci, uci or xboard first",
                words::clip(other)
            )),
        }
    }
}
