//! CECP, "xboard protocol version 2" (XBoard / WinBoard and tools built on them). Unlike
//! UCCI/UCI the engine keeps state across commands: it plays the side it is told (`go`,
//! `playother`, `force`), keeps its own game (`usermove`, `undo`, `remove`, `setboard`), its
//! clock (`level`, `st`, `sd`, `time`/`otim` in centiseconds), ponders on its own (`hard`) and
//! claims game ends with the `rules` verdict. See `docs/protocol-xboard.md`.
//!
//! - `command.rs`: a line → one `command::Cmd`, or the reply refusing it.
//! - `state.rs`: the state machine executing them over the shared session.
//! - `replies.rs`: [`Xboard`], CECP's [`Replies`](super::Replies) (features, thinking lines,
//!   `move`, `stat01`, errors).
//! - `clock.rs`: the time control and the engine's clock.
//! - `claims.rs`: which rules verdicts are claimed to XBoard.

mod claims;
mod clock;
mod command;
mod replies;
mod state;

pub use claims::{claim, claimable};
pub use command::normalize_fen;
pub use replies::{cecp_score, Xboard, MATE_SCORE};

use super::session::drive;
use super::{Event, Output};
use std::sync::mpsc::{Receiver, Sender};

/// Runs a CECP session until `quit` or end of input (the `xboard` command already read); it
/// plays its move as soon as the search's end comes through `rx`.
pub fn run(wake: Sender<Event>, rx: &Receiver<Event>, out: Output) {
    drive(&mut state::Cecp::new(out, wake), rx);
}
