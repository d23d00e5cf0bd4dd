//! The `Dialect` trait: one protocol as the GUI side speaks it, implemented once per file
//! (`ucci.rs`, `uci.rs`, `cecp.rs`), and the time a handshake or a sync may take.

use super::config::EngineConfig;
use super::pipe::Pipe;
use super::turn::{Ask, Failure, Reply};
use crate::matches::ranks::Ranks;
use std::time::Duration;

/// Time allowed for the handshake, for each option's acknowledgement and for `isready`.
pub(super) const HANDSHAKE: Duration = Duration::from_secs(10);

/// One protocol as the GUI side speaks it, one implementation per file: the handshake, how
/// options are set and a sync is asked, a new game, the request to move and the lines read
/// while the engine thinks. `EngineProcess` drives any of them the same way.
pub(super) trait Dialect: Send {
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

    /// The line that resizes the hash table to `mb` MB, if the engine can be told.
    fn hash_line(&self, mb: u32) -> Option<String>;

    /// The line that sets the search threads to `n`, if the engine can be told.
    fn threads_line(&self, n: u32) -> Option<String>;

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
