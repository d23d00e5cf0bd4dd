//! UCCI as the GUI side speaks it: `ucci` … `ucciok`, times in milliseconds
//! (`usemillisec`), `setoption NAME VALUE`, `setoption newgame`.

use super::pipe::Pipe;
use super::{line, Ask, Dialect, EngineConfig, Failure, Proto, Reply, HANDSHAKE};
use crate::matches::ranks::Ranks;

/// A UCCI engine.
pub(super) struct Ucci;

impl Dialect for Ucci {
    fn handshake(&mut self, pipe: &mut Pipe, _: &EngineConfig) -> Result<Option<Vec<String>>, String> {
        pipe.send("ucci").map_err(|f| pipe.fail("handshake", f))?;
        pipe.wait_for("ucciok", HANDSHAKE).map_err(|f| pipe.fail("handshake (ucciok)", f))?;
        pipe.send("setoption usemillisec true").map_err(|f| pipe.fail("options", f))?;
        Ok(None)
    }

    fn option_line(&self, name: &str, value: &str) -> String {
        format!("setoption {name} {value}")
    }

    fn sync(&mut self) -> Option<(String, String)> {
        line::sync()
    }

    fn new_game(&mut self, pipe: &mut Pipe) -> Result<(), Failure> {
        pipe.send("setoption newgame")
    }

    fn ask(&mut self, pipe: &mut Pipe, ask: Ask, ranks: Ranks) -> Result<(), Failure> {
        line::send_ask(pipe, ask, ranks)
    }

    fn read(&mut self, text: &str, reply: &mut Reply, ranks: Ranks) -> bool {
        line::read_reply(text, reply, ranks, Proto::Ucci)
    }
}
