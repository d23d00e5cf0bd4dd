//! UCCI as the GUI side speaks it: `ucci` … `ucciok`, times in milliseconds
//! (`usemillisec`), `setoption NAME VALUE`, `setoption newgame`; the position after the last
//! capture, and `go` with both clocks and a draw offer.

use super::config::{EngineConfig, Limit, Proto};
use super::dialect::{Dialect, HANDSHAKE};
use super::line;
use super::pipe::Pipe;
use super::turn::{Ask, Failure, Reply};
use crate::matches::ranks::Ranks;
use crate::rules::Game;

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

    fn hash_line(&self, mb: u32) -> Option<String> {
        Some(self.option_line("hashsize", &mb.to_string()))
    }

    fn threads_line(&self, n: u32) -> Option<String> {
        Some(self.option_line("threads", &n.to_string()))
    }

    fn new_game(&mut self, pipe: &mut Pipe) -> Result<(), Failure> {
        pipe.send("setoption newgame")
    }

    fn ask(&mut self, pipe: &mut Pipe, ask: Ask, ranks: Ranks) -> Result<(), Failure> {
        line::send_ask(pipe, position(ask.game), &go(&ask), ranks)
    }

    fn read(&mut self, text: &str, reply: &mut Reply, ranks: Ranks) -> bool {
        line::read_reply(text, reply, ranks, Proto::Ucci)
    }

    /// `ponderhit draw` passes the opponent's draw offer on with its move.
    fn ponderhit(&self, draw: bool) -> String {
        if draw { "ponderhit draw" } else { "ponderhit" }.to_string()
    }
}

/// `position`: the FEN after the last capture and the moves since, as the protocol advises
/// (repetitions stay visible, the line stays short).
fn position(game: &Game) -> String {
    let mut pos = game.start().clone();
    let (mut base, mut since) = (pos.clone(), 0);
    for (i, &m) in game.moves().iter().enumerate() {
        let capture = pos.is_capture(m);
        pos.make_move(m);
        if capture {
            (base, since) = (pos.clone(), i + 1);
        }
    }
    line::position(&base.to_fen(), &game.moves()[since..])
}

/// `go`: `ponder` or `draw` for an offer (the protocol allows one of them), then the limit; a
/// clock as `time` with `movestogo` or `increment`, and the opponent's as `opptime` with
/// `oppmovestogo` or `oppincrement`.
fn go(ask: &Ask) -> String {
    let draw = if ask.ponder {
        "ponder "
    } else if ask.draw {
        "draw "
    } else {
        ""
    };
    match ask.limit {
        Limit::Nodes(n) => format!("go {draw}nodes {n}"),
        Limit::Depth(d) => format!("go {draw}depth {d}"),
        Limit::MoveTime(ms) => format!("go {draw}time {ms} movestogo 1"),
        Limit::Clock { .. } => {
            let own = ask.own_clock().unwrap_or_default();
            let mut s = format!("go {draw}time {}", own.left_ms);
            match own.movestogo {
                Some(m) => s += &format!(" movestogo {m}"),
                None => s += &format!(" increment {}", own.inc_ms),
            }
            if let Some(opp) = ask.opp_clock() {
                s += &format!(" opptime {}", opp.left_ms);
                match opp.movestogo {
                    Some(m) => s += &format!(" oppmovestogo {m}"),
                    None => s += &format!(" oppincrement {}", opp.inc_ms),
                }
            }
            s
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::turn::SideClock;
    use super::*;
    use crate::board::{Move, Position};

    fn game(moves: &[&str]) -> Game {
        let mut g = Game::new(Position::startpos());
        for m in moves {
            g.play(Move::parse(m).unwrap()).unwrap();
        }
        g
    }

    #[test]
    fn position_restarts_from_the_last_capture() {
        assert_eq!(position(&game(&[])), format!("position fen {}", Position::startpos().to_fen()));
        assert_eq!(
            position(&game(&["h2e2", "h7e7", "e2e6", "d9e8"])),
            "position fen rnbakabnr/9/1c2c4/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 0 2 moves d9e8"
        );
    }

    #[test]
    fn go_with_both_clocks_and_a_draw_offer() {
        let g = game(&["h2e2"]);
        let clock = |left_ms, movestogo| Some(SideClock { left_ms, inc_ms: 100, movestogo });
        let ask = |limit, clocks, draw| go(&Ask { game: &g, limit, clocks, draw, ponder: false });
        let tc = Limit::Clock { moves: 0, base_ms: 10_000, inc_ms: 100 };
        assert_eq!(
            ask(tc, [clock(9_000, None), clock(8_000, None)], true),
            "go draw time 8000 increment 100 opptime 9000 oppincrement 100"
        );
        let periods = Limit::Clock { moves: 40, base_ms: 60_000, inc_ms: 0 };
        assert_eq!(
            ask(periods, [clock(9_000, Some(37)), clock(8_000, Some(37))], false),
            "go time 8000 movestogo 37 opptime 9000 oppmovestogo 37"
        );
        assert_eq!(ask(tc, [None, clock(8_000, None)], false), "go time 8000 increment 100");
        assert_eq!(ask(Limit::MoveTime(500), [None, None], false), "go time 500 movestogo 1");
        assert_eq!(ask(Limit::Depth(4), [None, None], true), "go draw depth 4");
        let ponder =
            Ask { game: &g, limit: tc, clocks: [clock(9_000, None), clock(8_000, None)], draw: false, ponder: true };
        assert_eq!(go(&ponder), "go ponder time 8000 increment 100 opptime 9000 oppincrement 100");
        assert_eq!(go(&Ask { limit: Limit::MoveTime(500), ..ponder }), "go ponder time 500 movestogo 1");
        assert_eq!((Ucci.ponderhit(true), Ucci.ponderhit(false)), ("ponderhit draw".into(), "ponderhit".into()));
    }
}
