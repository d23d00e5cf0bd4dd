//! What the player types: a command word or a move, and the one-line answer to a move that
//! cannot be played. Moves are read and written by `parse_move` and `format_move` only, over
//! the `notation` module.

use crate::board::{Color, Move, PieceKind, Position};

pub use crate::notation::Notation;
use crate::notation::NotationError;

/// Reads a typed move in `pos`: ICCS (`h2e2`, `H2-E2`), WXF (`C2=5`) or Chinese (炮二平五).
/// An ICCS move that is not legal is returned, for `why_illegal` to explain.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, String> {
    match crate::notation::parse_move(pos, text) {
        Ok(m) | Err(NotationError::NotLegal { iccs: Some(m), .. }) => Ok(m),
        Err(e) => Err(e.to_string()),
    }
}

/// Writes `mv` (legal in `pos`) in `notation`.
pub fn format_move(pos: &Position, mv: Move, notation: Notation) -> String {
    crate::notation::format_move(pos, mv, notation)
}

/// A line the player typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A move to play (parsed, not yet checked).
    Move(Move),
    /// Take back the engine's reply and the player's move.
    Undo,
    /// Show the engine's best move here.
    Hint,
    /// Give up.
    Resign,
    /// Offer a draw.
    Draw,
    /// Turn the board round.
    Flip,
    /// Write the game so far as PGN.
    Save(String),
    /// List the commands.
    Help,
    /// Leave (the game is saved).
    Quit,
    /// Nothing typed.
    Empty,
}

/// Reads one typed line; the error is the one-line answer.
pub fn parse(pos: &Position, line: &str) -> Result<Command, String> {
    let line = line.trim();
    let (word, rest) = line.split_once(char::is_whitespace).map_or((line, ""), |(w, r)| (w, r.trim()));
    let bare = |c: Command| if rest.is_empty() { Ok(c) } else { Err(format!("'{word}' takes nothing after it")) };
    match word.to_ascii_lowercase().as_str() {
        "" => Ok(Command::Empty),
        "undo" | "takeback" => bare(Command::Undo),
        "hint" => bare(Command::Hint),
        "resign" => bare(Command::Resign),
        "draw" => bare(Command::Draw),
        "flip" => bare(Command::Flip),
        "help" | "?" => bare(Command::Help),
        "quit" | "exit" => bare(Command::Quit),
        "save" if rest.is_empty() => Err("save needs a file name: save FILE".to_string()),
        "save" => Ok(Command::Save(rest.to_string())),
        _ => match parse_move(pos, line) {
            Ok(m) => Ok(Command::Move(m)),
            Err(_) => {
                let shown: String = line.chars().take(20).collect();
                Err(format!("'{shown}' is neither a move (like h2e2) nor a command ('help' lists them)"))
            }
        },
    }
}

/// Why `m` cannot be played in `pos` (it is not legal there).
pub fn why_illegal(pos: &Position, m: Move) -> String {
    let side = pos.side_to_move();
    let (from, to) = (m.from(), m.to());
    let Some(piece) = pos.piece_at(from) else { return format!("there is no piece on {from}") };
    if piece.color() != side {
        return format!("the {} on {from} is {}'s", piece.kind().name(), side.opp().name());
    }
    let mut pseudo = crate::board::MoveList::new();
    pos.generate_pseudo(&mut pseudo);
    if !pseudo.contains(&m) {
        return format!("a {} on {from} cannot go to {to}", piece.kind().name());
    }
    let mut after = pos.clone();
    after.make_move(m);
    if generals_face(&after) {
        "the generals would face each other on an open file".to_string()
    } else {
        format!("it leaves {}'s general in check", side.name())
    }
}

/// Whether the two generals stand on one file with nothing between them.
fn generals_face(pos: &Position) -> bool {
    let (r, b) = (pos.king_square(Color::Red), pos.king_square(Color::Black));
    r.file() == b.file() && (r.rank() + 1..b.rank()).all(|rank| pos.is_empty(crate::board::Square::new(r.file(), rank)))
}

/// The kinds' names, so the board's letters can be told apart (help and the plain-board note).
pub fn letter_key() -> String {
    PieceKind::ALL.iter().map(|k| format!("{}={}", k.letter(), k.name())).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_moves() {
        let pos = Position::startpos();
        let p = |s: &str| parse(&pos, s);
        assert_eq!(p("  h2e2 "), Ok(Command::Move(Move::parse("h2e2").unwrap())));
        assert_eq!(p("H2-E2"), Ok(Command::Move(Move::parse("h2e2").unwrap())));
        assert_eq!(p("takeback"), Ok(Command::Undo));
        assert_eq!(p("UNDO"), Ok(Command::Undo));
        assert_eq!(p("save my game.pgn"), Ok(Command::Save("my game.pgn".into())));
        assert_eq!(p(""), Ok(Command::Empty));
        assert!(p("save").unwrap_err().contains("save FILE"));
        assert!(p("hint now").unwrap_err().contains("takes nothing"));
        assert!(p("xyzzy").unwrap_err().contains("neither a move"));
        assert!(p("h2").unwrap_err().contains("'h2'"));
    }

    #[test]
    fn illegal_moves_say_why() {
        let pos = Position::startpos();
        let why = |s: &str| why_illegal(&pos, Move::parse(s).unwrap());
        assert_eq!(why("e3e5"), "a pawn on e3 cannot go to e5");
        assert_eq!(why("e4e5"), "there is no piece on e4");
        assert_eq!(why("h7h0"), "the cannon on h7 is Black's");
        // The red horse on e1 is the only screen between the generals.
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4N4/4K4 w - - 0 1").unwrap();
        assert_eq!(
            why_illegal(&pos, Move::parse("e1c2").unwrap()),
            "the generals would face each other on an open file"
        );
        let pos = Position::from_fen("5k3/9/9/9/9/9/9/9/4r4/3K5 w - - 0 1").unwrap();
        assert_eq!(why_illegal(&pos, Move::parse("d0e0").unwrap()), "it leaves Red's general in check");
    }

    #[test]
    fn notation_names() {
        assert_eq!(Notation::from_name("WXF"), Some(Notation::Wxf));
        assert_eq!(Notation::from_name("chinese"), Some(Notation::Chinese));
        assert_eq!(Notation::from_name("san"), None);
        let pos = Position::startpos();
        let m = Move::parse("h2e2").unwrap();
        assert_eq!(format_move(&pos, m, Notation::Iccs), "h2e2");
        assert_eq!(format_move(&pos, m, Notation::Wxf), "C2=5");
        assert_eq!(format_move(&pos, m, Notation::Chinese), "炮二平五");
        assert_eq!(parse_move(&pos, "炮二平五"), Ok(m));
        assert_eq!(parse_move(&pos, "C2=5"), Ok(m));
        // An illegal ICCS move comes back for why_illegal; an impossible WXF one is refused.
        assert_eq!(parse_move(&pos, "h2h8"), Ok(Move::parse("h2h8").unwrap()));
        assert!(parse_move(&pos, "C2+9").unwrap_err().contains("not a legal move"));
    }
}
