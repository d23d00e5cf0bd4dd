//! UCI as the GUI side speaks it: `uci` with the engine's option list up to `uciok`,
//! `setoption name N value V`, `ucinewgame`; a multi-variant engine (Fairy-Stockfish) is set
//! to `xiangqi` and asked how it numbers ranks. `position` is the start and every move; `go`
//! gives both clocks as `wtime`/`btime` (Red is White).

use super::config::{EngineConfig, Limit, Proto};
use super::dialect::{Dialect, HANDSHAKE};
use super::line;
use super::pipe::Pipe;
use super::turn::{Ask, Failure, Reply};
use crate::matches::ranks::{from_probe, Ranks, PROBE_FEN};
use std::time::Instant;

/// A UCI engine.
#[derive(Default)]
pub(super) struct Uci {
    /// It offers `UCI_Variant`: it plays other games too, and may number ranks from one.
    variant: bool,
}

impl Dialect for Uci {
    fn handshake(&mut self, pipe: &mut Pipe, cfg: &EngineConfig) -> Result<Option<Vec<String>>, String> {
        pipe.send("uci").map_err(|f| pipe.fail("handshake", f))?;
        let names = options(pipe).map_err(|f| pipe.fail("handshake (uciok)", f))?;
        self.variant = names.iter().any(|n| n.eq_ignore_ascii_case("UCI_Variant"));
        // Multi-variant engines (Fairy-Stockfish) play chess until told otherwise.
        if self.variant && !cfg.options.iter().any(|(n, _)| n.eq_ignore_ascii_case("UCI_Variant")) {
            pipe.send("setoption name UCI_Variant value xiangqi").map_err(|f| pipe.fail("options", f))?;
        }
        Ok(Some(names))
    }

    fn option_line(&self, name: &str, value: &str) -> String {
        format!("setoption name {name} value {value}")
    }

    fn sync(&mut self) -> Option<(String, String)> {
        line::sync()
    }

    fn probe_ranks(&mut self, pipe: &mut Pipe) -> Result<Option<(Ranks, Option<String>)>, Failure> {
        if !self.variant {
            return Ok(None);
        }
        probe_ranks(pipe).map(Some)
    }

    fn hash_line(&self, mb: u32) -> Option<String> {
        Some(self.option_line("Hash", &mb.to_string()))
    }

    fn threads_line(&self, n: u32) -> Option<String> {
        Some(self.option_line("Threads", &n.to_string()))
    }

    fn new_game(&mut self, pipe: &mut Pipe) -> Result<(), Failure> {
        pipe.send("ucinewgame")
    }

    fn ask(&mut self, pipe: &mut Pipe, ask: Ask, ranks: Ranks) -> Result<(), Failure> {
        let position = line::position(&ask.game.start().to_fen(), ask.game.moves());
        line::send_ask(pipe, position, &go(&ask), ranks)
    }

    fn read(&mut self, text: &str, reply: &mut Reply, ranks: Ranks) -> bool {
        line::read_reply(text, reply, ranks, Proto::Uci)
    }

    fn ponder_option(&self) -> Option<(&'static str, &'static str)> {
        Some(("Ponder", "true"))
    }
}

/// `go` (`go ponder` on the opponent's time): the limit; a clock as both sides'
/// `wtime`/`btime`, `winc`/`binc` and the asked side's `movestogo`. UCI has no draw offer.
fn go(ask: &Ask) -> String {
    let go = if ask.ponder { "go ponder" } else { "go" };
    let limit = match ask.limit {
        Limit::Nodes(n) => format!("nodes {n}"),
        Limit::Depth(d) => format!("depth {d}"),
        Limit::MoveTime(ms) => format!("movetime {ms}"),
        Limit::Clock { .. } => {
            let [red, black] = ask.clocks.map(Option::unwrap_or_default);
            let mut s =
                format!("wtime {} btime {} winc {} binc {}", red.left_ms, black.left_ms, red.inc_ms, black.inc_ms);
            if let Some(m) = ask.own_clock().and_then(|c| c.movestogo) {
                s += &format!(" movestogo {m}");
            }
            s
        }
    };
    format!("{go} {limit}")
}

/// Reads the `uci` reply up to `uciok`: the names of the options it lists.
fn options(pipe: &Pipe) -> Result<Vec<String>, Failure> {
    let deadline = Instant::now() + HANDSHAKE;
    let mut names = Vec::new();
    loop {
        let line = pipe.next_line(deadline)?;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["uciok", ..] => return Ok(names),
            ["option", "name", rest @ ..] => {
                let end = rest.iter().position(|&w| w == "type").unwrap_or(rest.len());
                names.push(rest[..end].join(" "));
            }
            _ => {}
        }
    }
}

/// Asks for the one legal move of [`PROBE_FEN`] at depth 1: its text shows the numbering.
/// An answer that shows none keeps ranks 0–9, with a warning; 1–10 comes with a note.
fn probe_ranks(pipe: &mut Pipe) -> Result<(Ranks, Option<String>), Failure> {
    pipe.exchange("isready", "readyok", HANDSHAKE)?;
    pipe.send(&format!("position fen {PROBE_FEN}"))?;
    pipe.send("go depth 1")?;
    let deadline = Instant::now() + HANDSHAKE;
    loop {
        let line = pipe.next_line(deadline)?;
        let mut words = line.split_whitespace();
        if words.next() != Some("bestmove") {
            continue;
        }
        let answer = words.next().unwrap_or("");
        return Ok(match from_probe(answer) {
            Some(Ranks::FromOne) => (
                Ranks::FromOne,
                Some(format!(
                    "Note: {} numbers ranks 1-10 (it calls e0e1 '{answer}'); its moves are translated",
                    pipe.name
                )),
            ),
            Some(ranks) => (ranks, None),
            None => {
                let shown: String = answer.chars().take(16).collect();
                let warning = format!(
                    "Warning: cannot tell how {} numbers ranks (it answered '{shown}' where e0e1 is the only move); \
                     assuming 0-9, set ranks=1 if it counts from 1",
                    pipe.name
                );
                (Ranks::FromZero, Some(warning))
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::super::turn::SideClock;
    use super::*;
    use crate::board::{Move, Position};
    use crate::rules::Game;

    #[test]
    fn position_and_go() {
        let mut g = Game::new(Position::startpos());
        for m in ["h2e2", "h7e7", "e2e6"] {
            g.play(Move::parse(m).unwrap()).unwrap();
        }
        let ask = |limit, clocks| Ask { game: &g, limit, clocks, draw: true, ponder: false };
        let clock = |left_ms, movestogo| Some(SideClock { left_ms, inc_ms: 100, movestogo });
        let tc = Limit::Clock { moves: 0, base_ms: 10_000, inc_ms: 100 };
        assert_eq!(
            go(&ask(tc, [clock(9_000, None), clock(8_000, None)])),
            "go wtime 9000 btime 8000 winc 100 binc 100"
        );
        assert_eq!(
            go(&ask(tc, [clock(9_000, Some(37)), clock(8_000, Some(5))])),
            "go wtime 9000 btime 8000 winc 100 binc 100 movestogo 5"
        );
        assert_eq!(go(&ask(tc, [None, clock(8_000, None)])), "go wtime 0 btime 8000 winc 0 binc 100");
        assert_eq!(go(&ask(Limit::MoveTime(500), [None, None])), "go movetime 500");
        assert_eq!(go(&ask(Limit::Nodes(1000), [None, None])), "go nodes 1000");
        let ponder = Ask { ponder: true, ..ask(tc, [clock(9_000, None), clock(8_000, Some(5))]) };
        assert_eq!(go(&ponder), "go ponder wtime 9000 btime 8000 winc 100 binc 100 movestogo 5");
        assert_eq!(go(&Ask { limit: Limit::MoveTime(500), ..ponder }), "go ponder movetime 500");
        let start = Position::startpos().to_fen();
        assert_eq!(line::position(&start, g.moves()), format!("position fen {start} moves h2e2 h7e7 e2e6"));
    }
}
