//! CECP's words: a line becomes one [`Cmd`], or the reply that refuses it.

use super::super::command::Command;
use super::super::options::{HASH, THREADS};
use super::super::words::{parse_count, parse_time, Words};
use super::clock::Level;
use super::replies::{illegal_move, refusal};
use crate::board::{FenError, Move, Position};
use crate::search::MAX_DEPTH;

/// One CECP command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cmd {
    /// Accepted and ignored: a blank line, or information Chuhe has no use for.
    Nothing,
    /// `.`: the analysis status.
    Status,
    /// `bk`: the book moves (there is no book).
    Book,
    /// `protover N` with N ≥ 2: the feature list.
    Features,
    /// `ping N`: `pong N`.
    Ping(String),
    /// `new`: a new game from the start position.
    New,
    /// `setboard FEN`.
    SetBoard(Box<Position>),
    /// `usermove M` or a bare move: the opponent's move, and its text for the replies.
    UserMove(Move, String),
    /// `go`: play the side to move, now.
    Go,
    /// `playother`: play the side not to move.
    PlayOther,
    /// `force`: play neither side.
    Force,
    /// `?`: move now.
    MoveNow,
    /// `draw`: the opponent offers a draw.
    Draw,
    /// `result ...`: the game is over.
    Result,
    /// `undo` (1 ply) / `remove` (2 plies); `name` for the error.
    TakeBack {
        /// Plies to take back.
        plies: usize,
        /// The command's name.
        name: &'static str,
    },
    /// `level MPS BASE INC`.
    Level(Level),
    /// `st T`, in ms.
    MoveTime(u64),
    /// `sd D`.
    Depth(u32),
    /// `time N`: our clock, in ms.
    Time(u64),
    /// `post` / `nopost`.
    Post(bool),
    /// `hard` / `easy`: pondering on / off.
    Ponder(bool),
    /// `analyze`.
    Analyze,
    /// `exit`: leave analyze mode.
    Exit,
    /// A command with the same meaning in every dialect: `option`, `memory`, `cores`, `quit`,
    /// and the debugging `d`, `eval`.
    Shared(Command),
}

/// XBoard 4.9 writes xiangqi FENs with four fields, `board side halfmove fullmove` (no
/// castling and en-passant fields); this puts the two `-` back so the counters are read.
pub fn normalize_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    if f.len() == 4 && parse_count(f[2]).is_some() && parse_count(f[3]).is_some() {
        format!("{} {} - - {} {}", f[0], f[1], f[2], f[3])
    } else {
        f.join(" ")
    }
}

/// Parses one line; `Err` is the reply refusing it (the engine's state is unchanged).
pub fn parse(line: &str) -> Result<Cmd, String> {
    let (Some(cmd), mut w) = Words::command(line) else { return Ok(Cmd::Nothing) };
    let needs = |why: &str| refusal(why, line);
    Ok(match cmd {
        "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating" | "ics" | "hint" | "otim" => {
            Cmd::Nothing
        }
        "." => Cmd::Status,
        "bk" => Cmd::Book,
        "protover" if w.next_word().and_then(parse_count).is_some_and(|v| v >= 2) => Cmd::Features,
        "protover" => Cmd::Nothing,
        "ping" => Cmd::Ping(w.rest()),
        "new" => Cmd::New,
        "variant" => match w.next_word() {
            Some("xiangqi") => Cmd::Nothing,
            Some(v) => return Err(refusal("unsupported variant", v)),
            None => return Err(needs("variant needs a name")),
        },
        "setboard" => match Position::from_fen(&normalize_fen(&w.rest())) {
            Ok(p) => Cmd::SetBoard(Box::new(p)),
            // Text that is no FEN is a command error; a readable but illegal position is what
            // CECP's "Illegal position" is for, shown to the user.
            Err(FenError::Parse(e)) => return Err(refusal(&format!("not a FEN: {e}"), "setboard")),
            Err(FenError::Position(e)) => return Err(format!("tellusererror Illegal position: {e}")),
        },
        "usermove" => match w.next_word() {
            Some(m) => Cmd::UserMove(Move::parse(m).map_err(|_| illegal_move(m, None))?, m.to_string()),
            None => return Err(needs("usermove needs a move")),
        },
        "go" => Cmd::Go,
        "playother" => Cmd::PlayOther,
        "force" => Cmd::Force,
        "?" => Cmd::MoveNow,
        "draw" => Cmd::Draw,
        "result" => Cmd::Result,
        "undo" => Cmd::TakeBack { plies: 1, name: "undo" },
        "remove" => Cmd::TakeBack { plies: 2, name: "remove" },
        "level" => Cmd::Level(Level::parse(&mut w).ok_or_else(|| needs("level needs MPS BASE INC"))?),
        "st" => {
            Cmd::MoveTime(w.next_word().and_then(|t| parse_time(t, 1000)).ok_or_else(|| needs("st needs seconds"))?)
        }
        "sd" => match w.next_word().and_then(parse_count) {
            Some(d) => Cmd::Depth(d.clamp(1, MAX_DEPTH as u64) as u32),
            None => return Err(needs("sd needs a depth")),
        },
        "time" => {
            Cmd::Time(w.next_word().and_then(|t| parse_time(t, 10)).ok_or_else(|| needs("time needs centiseconds"))?)
        }
        "post" => Cmd::Post(true),
        "nopost" => Cmd::Post(false),
        "hard" => Cmd::Ponder(true),
        "easy" => Cmd::Ponder(false),
        "analyze" => Cmd::Analyze,
        "exit" => Cmd::Exit,
        _ => match Move::parse(cmd) {
            Ok(m) if w.peek().is_none() => Cmd::UserMove(m, cmd.to_string()),
            _ => Cmd::Shared(parse_shared(cmd, &mut w).ok_or_else(|| refusal("unknown command", cmd))?),
        },
    })
}

/// The commands with a shared meaning; `None` for an unknown or malformed one.
fn parse_shared(cmd: &str, w: &mut Words) -> Option<Command> {
    let set = |name: &str, value: Option<String>| Command::SetOption { name: name.to_string(), value };
    Some(match cmd {
        "option" => match w.rest() {
            rest if rest.is_empty() => return None,
            rest => match rest.split_once('=') {
                Some((n, v)) => set(n.trim(), Some(v.trim().to_string())),
                None => set(&rest, None),
            },
        },
        "memory" => set(HASH.name, Some(w.count(cmd).ok()?.to_string())),
        "cores" => set(THREADS.name, Some(w.count(cmd).ok()?.to_string())),
        "quit" => Command::Quit,
        "d" => Command::Display,
        "eval" => Command::Eval,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xboard_fens() {
        let xb = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4HC1/9/RHEAKAE1R b 7 12";
        assert_eq!(normalize_fen(xb), "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4HC1/9/RHEAKAE1R b - - 7 12");
        let p = Position::from_fen(&normalize_fen(xb)).unwrap();
        assert_eq!((p.halfmove_clock(), p.fullmove_number()), (7, 12));
        assert_eq!(normalize_fen("4k4/9/9/9/9/9/9/9/9/4K4  w - - 0 1"), "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
        assert_eq!(normalize_fen("4k4/9/9/9/9/9/9/9/9/4K4 w"), "4k4/9/9/9/9/9/9/9/9/4K4 w");
    }

    #[test]
    fn words() {
        let set =
            |n: &str, v: Option<&str>| Cmd::Shared(Command::SetOption { name: n.into(), value: v.map(Into::into) });
        assert_eq!(parse("option MultiPV=3"), Ok(set("MultiPV", Some("3"))));
        assert_eq!(parse("option Clear Hash"), Ok(set("Clear Hash", None)));
        assert_eq!(parse("memory 64"), Ok(set("Hash", Some("64"))));
        assert_eq!(parse("cores many"), Err("Error (unknown command): cores".to_string()));
        assert_eq!(parse("option"), Err("Error (unknown command): option".to_string()));
        assert_eq!(parse("frobnicate now"), Err("Error (unknown command): frobnicate".to_string()));
        assert_eq!(parse("H2E2"), Ok(Cmd::UserMove(Move::parse("h2e2").unwrap(), "H2E2".into())));
        assert_eq!(parse("h2e2 x"), Err("Error (unknown command): h2e2".to_string()));
        assert_eq!(parse("usermove zz"), Err("Illegal move: zz".to_string()));
        assert_eq!(parse("usermove"), Err("Error (usermove needs a move): usermove".to_string()));
        assert_eq!(parse("variant shogi"), Err("Error (unsupported variant): shogi".to_string()));
        assert_eq!(parse("sd 0"), Ok(Cmd::Depth(1)));
        assert_eq!(parse("time 150"), Ok(Cmd::Time(1500)));
        assert_eq!(parse("st 2"), Ok(Cmd::MoveTime(2000)));
        assert_eq!(parse("protover 1"), Ok(Cmd::Nothing));
        assert_eq!(parse("protover 2"), Ok(Cmd::Features));
        assert_eq!(parse("setboard 9/9 w"), Err("Error (not a FEN: 2 ranks, expected 10): setboard".to_string()));
        assert_eq!(
            parse("setboard 4k4/9/9/9/9/9/9/9/9/4K4 w"),
            Err("tellusererror Illegal position: the kings face each other on an open file".to_string())
        );
    }
}
