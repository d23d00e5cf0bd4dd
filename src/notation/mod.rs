//! Move notations players write: ICCS (`h2e2`, `H2-E2`), WXF (`C2=5`, `H8+7`) and Chinese
//! (炮二平五, 马８进７), read and written against a position (`docs/notation.md`). Sits between
//! the rules and the tools: it uses the board's legal moves and nothing above them.

mod chinese;
mod naming;
mod wxf;

use crate::board::{Color, Move, Position};
use std::fmt;

/// A move notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// ICCS coordinates: `h2e2`, `H2-E2` (files a-i, ranks 0-9 from Red's side).
    Iccs,
    /// The WXF's Latin form: `C2=5`, `H8+7`, `+R-1`.
    Wxf,
    /// Chinese: 炮二平五, 马８进７.
    Chinese,
}

impl Notation {
    /// All three, in the order PGN's `[Format]` names them.
    pub const ALL: [Notation; 3] = [Notation::Iccs, Notation::Wxf, Notation::Chinese];

    /// The name PGN's `[Format]` tag gives it: `ICCS`, `WXF`, `Chinese`.
    pub const fn name(self) -> &'static str {
        match self {
            Notation::Iccs => "ICCS",
            Notation::Wxf => "WXF",
            Notation::Chinese => "Chinese",
        }
    }

    /// The notation a `[Format]` value names (any case), if one of the three.
    pub fn from_name(name: &str) -> Option<Notation> {
        Notation::ALL.into_iter().find(|n| n.name().eq_ignore_ascii_case(name.trim()))
    }

    /// The notation `text` is written in, by its shape: any non-ASCII character means
    /// Chinese; a square, an optional hyphen and a square mean ICCS; other ASCII is WXF.
    pub fn detect(text: &str) -> Option<Notation> {
        let text = text.trim();
        if text.is_empty() {
            None
        } else if !text.is_ascii() {
            Some(Notation::Chinese)
        } else if iccs_move(text).is_some() {
            Some(Notation::Iccs)
        } else {
            Some(Notation::Wxf)
        }
    }

    /// A short example for messages.
    const fn example(self) -> &'static str {
        match self {
            Notation::Iccs => "ICCS like h2e2 or H2-E2",
            Notation::Wxf => "WXF like C2=5, H8+7 or +R-1",
            Notation::Chinese => "Chinese like 炮二平五 or 马８进７",
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a move text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// Not a move in the notation asked for (`None`: in none of the three).
    Malformed { text: String, notation: Option<Notation> },
    /// Well formed, but no legal move of the side to move; for ICCS text, the move it spells
    /// (the judge rules on an illegal move rather than refusing the record).
    NotLegal { text: String, side: Color, iccs: Option<Move> },
    /// Names more than one legal move.
    Ambiguous { text: String, moves: Vec<Move> },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Malformed { text, notation: Some(n) } => {
                write!(f, "malformed move '{}': expected {}", shown(text), n.example())
            }
            NotationError::Malformed { text, notation: None } => {
                write!(f, "malformed move '{}': expected ICCS (h2e2), WXF (C2=5) or Chinese (炮二平五)", shown(text))
            }
            NotationError::NotLegal { text, side, .. } => {
                write!(f, "'{}' is not a legal move for {} here", shown(text), side.name())
            }
            NotationError::Ambiguous { text, moves } => {
                let list: Vec<String> = moves.iter().map(Move::to_string).collect();
                write!(f, "ambiguous move '{}': it could be {}", shown(text), list.join(" or "))
            }
        }
    }
}

impl std::error::Error for NotationError {}

/// At most 16 characters of a move text, for messages.
fn shown(text: &str) -> String {
    text.chars().take(16).collect()
}

/// ICCS text (`h2e2`, `H2-E2`, `h2-e2`) as a move, legality not checked.
pub fn iccs_move(text: &str) -> Option<Move> {
    let b = text.as_bytes();
    let plain = if b.len() == 5 && b[2] == b'-' && text.is_ascii() {
        format!("{}{}", &text[..2], &text[3..])
    } else {
        text.to_string()
    };
    Move::parse(&plain).ok()
}

/// Reads a legal move of the side to move in whichever notation `text` is written.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let malformed = || NotationError::Malformed { text: text.to_string(), notation: None };
    let n = Notation::detect(text).ok_or_else(malformed)?;
    match parse_move_as(pos, text, n) {
        // Its shape only guessed the notation: say all three are read.
        Err(NotationError::Malformed { .. }) => Err(malformed()),
        result => result,
    }
}

/// Reads a legal move of the side to move written in `notation`.
pub fn parse_move_as(pos: &Position, text: &str, notation: Notation) -> Result<Move, NotationError> {
    let malformed = || NotationError::Malformed { text: text.to_string(), notation: Some(notation) };
    let trimmed = text.trim();
    let written = match notation {
        Notation::Iccs => {
            let m = iccs_move(trimmed).ok_or_else(malformed)?;
            if pos.is_legal(m) {
                return Ok(m);
            }
            let side = pos.side_to_move();
            return Err(NotationError::NotLegal { text: text.to_string(), side, iccs: Some(m) });
        }
        Notation::Wxf => wxf::parse(trimmed),
        Notation::Chinese => chinese::parse(trimmed),
    }
    .ok_or_else(malformed)?;
    match naming::resolve(pos, &written)[..] {
        [m] => Ok(m),
        [] => Err(NotationError::NotLegal { text: text.to_string(), side: pos.side_to_move(), iccs: None }),
        ref moves => Err(NotationError::Ambiguous { text: text.to_string(), moves: moves.to_vec() }),
    }
}

/// `mv` written in `notation`; `pos` is the position before it. A move that no piece of the
/// side to move can make is written in ICCS whatever the notation.
pub fn format_move(pos: &Position, mv: Move, notation: Notation) -> String {
    let described = match notation {
        Notation::Iccs => None,
        _ => naming::describe(pos, mv),
    };
    let Some(w) = described else { return mv.to_string() };
    let side = pos.side_to_move();
    match notation {
        Notation::Chinese => chinese::render(side, &w),
        _ => wxf::render(&w, naming::file_no(side, mv.from())),
    }
}

/// A game's moves from `start` written in `notation` (ICCS from the first move that is not
/// legal on, as nothing else can name it).
pub fn format_moves(start: &Position, moves: &[Move], notation: Notation) -> Vec<String> {
    let mut pos = start.clone();
    let mut legal = true;
    moves
        .iter()
        .map(|&m| {
            legal = legal && pos.is_legal(m);
            if !legal {
                return m.to_string();
            }
            let text = format_move(&pos, m, notation);
            pos.make_move(m);
            text
        })
        .collect()
}

/// Reads a game's moves from `start`, each in `notation` or, without one, in whichever it is
/// written. An ICCS move that is not legal is kept and ends the replay (the judge rules on
/// it); the words after it must be ICCS. Errors name the move: `move 3: ...`.
pub fn parse_moves<'a>(
    start: &Position,
    texts: impl IntoIterator<Item = &'a str>,
    notation: Option<Notation>,
) -> Result<Vec<Move>, String> {
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let mut replaying = true;
    for (i, text) in texts.into_iter().enumerate() {
        let at = |e: NotationError| format!("move {}: {e}", i + 1);
        let parsed = match notation {
            _ if !replaying => iccs_move(text.trim())
                .ok_or(NotationError::Malformed { text: text.to_string(), notation: Some(Notation::Iccs) }),
            Some(n) => parse_move_as(&pos, text, n),
            None => parse_move(&pos, text),
        };
        let m = match parsed {
            Ok(m) => m,
            Err(NotationError::NotLegal { iccs: Some(m), .. }) => {
                replaying = false;
                m
            }
            Err(e) => return Err(at(e)),
        };
        if replaying {
            pos.make_move(m);
        }
        moves.push(m);
    }
    Ok(moves)
}

#[cfg(test)]
mod tests;
