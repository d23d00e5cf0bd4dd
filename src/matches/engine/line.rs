//! What UCCI and UCI, the line dialects, share on the GUI side: the `position` line and the
//! sending of a request, the lines read while the engine thinks (`info` scores, `bestmove`),
//! the sync.

use super::config::Proto;
use super::pipe::Pipe;
use super::turn::{Eval, Failure, Reply};
use crate::board::Move;
use crate::matches::ranks::Ranks;

/// The line dialects' sync: `isready`, answered `readyok`.
pub(super) fn sync() -> Option<(String, String)> {
    Some(("isready".to_string(), "readyok".to_string()))
}

/// `position fen FEN moves ...` (no `moves` when there are none).
pub(super) fn position(fen: &str, moves: &[Move]) -> String {
    let mut s = format!("position fen {fen}");
    if !moves.is_empty() {
        s += " moves";
        for m in moves {
            s += &format!(" {m}");
        }
    }
    s
}

/// Sends a request's `position` (its moves renumbered for the engine) and `go` lines.
pub(super) fn send_ask(pipe: &mut Pipe, position: String, go: &str, ranks: Ranks) -> Result<(), Failure> {
    let position = match ranks {
        Ranks::FromZero => position,
        Ranks::FromOne => Ranks::after_keyword(&position, "moves", |m| ranks.to_engine(m)),
    };
    pipe.send(&position)?;
    pipe.send(go)
}

/// One line while thinking; `true` once it ends the move (`bestmove`, `nobestmove`).
pub(super) fn read_reply(line: &str, reply: &mut Reply, ranks: Ranks, proto: Proto) -> bool {
    let mut words = line.split_whitespace();
    match words.next() {
        Some("info") => {
            if let Some((eval, depth)) = parse_info(line, proto) {
                reply.eval = Some(eval);
                reply.depth = depth;
            }
            false
        }
        Some("nobestmove") => true,
        Some("bestmove") => {
            let mv = words.next().unwrap_or("");
            if !mv.is_empty() && mv != "(none)" && mv != "0000" {
                reply.bestmove = Some(ranks.to_ours(mv));
            }
            while let Some(w) = words.next() {
                match w {
                    "draw" => reply.draw = true,
                    "resign" => reply.resign = true,
                    "ponder" => reply.ponder = words.next().map(|p| ranks.to_ours(p)),
                    _ => {}
                }
            }
            true
        }
        _ => false,
    }
}

/// The score and depth of an `info` line of the principal line (`multipv 1` or none): UCI
/// `score cp X` / `score mate N`, or UCCI's bare `score X`, where ±(10000 − plies) above 9900
/// is a mate (as Chuhe and ElephantEye write them).
pub fn parse_info(line: &str, proto: Proto) -> Option<(Eval, Option<u32>)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let after = |key: &str| words.iter().position(|&w| w == key).and_then(|i| words.get(i + 1)).copied();
    if after("multipv").is_some_and(|k| k != "1") {
        return None;
    }
    let depth = after("depth").and_then(|d| d.parse().ok());
    let i = words.iter().position(|&w| w == "score")?;
    let eval = match *words.get(i + 1)? {
        "cp" => Eval::Cp(words.get(i + 2)?.parse().ok()?),
        "mate" => Eval::Mate(words.get(i + 2)?.parse().ok()?),
        bare => {
            let s: i32 = bare.parse().ok()?;
            if proto == Proto::Ucci && (9901..=10_000).contains(&s.abs()) {
                let moves = (10_000 - s.abs() + 1) / 2;
                Eval::Mate(if s > 0 { moves } else { -moves })
            } else {
                Eval::Cp(s)
            }
        }
    };
    Some((eval, depth))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_in_every_dialect() {
        let p = |l: &str| parse_info(l, Proto::Ucci);
        assert_eq!(p("info depth 5 score 37 pv h2e2"), Some((Eval::Cp(37), Some(5))));
        assert_eq!(p("info depth 5 seldepth 7 score cp -120 nodes 5"), Some((Eval::Cp(-120), Some(5))));
        assert_eq!(p("info depth 9 score mate 3 pv a0a9"), Some((Eval::Mate(3), Some(9))));
        assert_eq!(p("info depth 9 score mate -2"), Some((Eval::Mate(-2), Some(9))));
        assert_eq!(p("info depth 9 score 9995"), Some((Eval::Mate(3), Some(9))));
        assert_eq!(p("info depth 9 score -9994"), Some((Eval::Mate(-3), Some(9))));
        assert_eq!(parse_info("info depth 9 score 9995", Proto::Uci), Some((Eval::Cp(9995), Some(9))));
        assert_eq!(p("info score 12"), Some((Eval::Cp(12), None)));
        assert_eq!(p("info depth 9 multipv 2 score cp 5"), None);
        assert_eq!(p("info depth 9 multipv 1 score cp 5"), Some((Eval::Cp(5), Some(9))));
        assert_eq!(p("info time 5 nodes 100"), None);
        assert_eq!(p("info depth 9 score cp"), None);
        assert_eq!(Eval::Mate(3).centipawns(), 29_997);
        assert_eq!(Eval::Mate(-2).centipawns(), -29_998);
    }

    #[test]
    fn bestmove_with_ponder_draw_and_resign() {
        let read = |l: &str, ranks| {
            let mut r = Reply::default();
            assert!(read_reply(l, &mut r, ranks, Proto::Ucci));
            r
        };
        let r = read("bestmove h2e2 ponder h9g7 draw", Ranks::FromZero);
        assert_eq!((r.bestmove.as_deref(), r.ponder.as_deref(), r.draw), (Some("h2e2"), Some("h9g7"), true));
        let r = read("bestmove h3e3 ponder h10g8", Ranks::FromOne);
        assert_eq!((r.bestmove.as_deref(), r.ponder.as_deref()), (Some("h2e2"), Some("h9g7")));
        let r = read("bestmove h2e2 resign", Ranks::FromZero);
        assert_eq!((r.ponder, r.resign), (None, true));
        assert_eq!(read("bestmove h2e2 ponder", Ranks::FromZero).ponder, None);
    }
}
