//! The packed `Move` type and its ICCS text (`h2e2`).

use super::square::Square;
use arrayvec::ArrayVec;
use std::fmt;

/// A move from one square to another, packed into 16 bits; captures are recorded in `Undo`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move(pub u16);

/// Upper bound on the moves of one position (the most known is well under 150).
pub const MAX_MOVES: usize = 160;

/// A fixed-capacity move list that never touches the heap.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// Why a move text could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveParseError(pub String);

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "malformed move '{}': expected ICCS like h2e2", self.0)
    }
}

impl std::error::Error for MoveParseError {}

impl Move {
    /// The null move (no real move; used by search and as "none").
    pub const NULL: Move = Move(0);

    /// A move from `from` to `to`.
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(((from.0 as u16) << 8) | to.0 as u16)
    }

    /// Origin square.
    #[inline]
    pub const fn from(self) -> Square {
        Square((self.0 >> 8) as u8)
    }

    /// Destination square.
    #[inline]
    pub const fn to(self) -> Square {
        Square(self.0 as u8)
    }

    /// Whether this is the null move.
    #[inline]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// Parses ICCS text such as `h2e2` (either case); says nothing about legality.
    pub fn parse(text: &str) -> Result<Move, MoveParseError> {
        let bad = || MoveParseError(text.chars().take(16).collect());
        if text.len() != 4 || !text.is_ascii() {
            return Err(bad());
        }
        let from = Square::parse(&text[0..2]).ok_or_else(bad)?;
        let to = Square::parse(&text[2..4]).ok_or_else(bad)?;
        if from == to {
            return Err(bad());
        }
        Ok(Move::new(from, to))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            write!(f, "0000")
        } else {
            write!(f, "{}{}", self.from(), self.to())
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        let m = Move::parse("h2e2").unwrap();
        assert_eq!(m.from(), Square::new(7, 2));
        assert_eq!(m.to(), Square::new(4, 2));
        assert_eq!(m.to_string(), "h2e2");
        assert_eq!(Move::parse("H2E2").unwrap(), m);
        for bad in ["", "h2e", "h2e2x", "j2e2", "h2h2", "h2é2", "h-e2"] {
            assert_eq!(
                Move::parse(bad).unwrap_err().to_string(),
                format!("malformed move '{bad}': expected ICCS like h2e2")
            );
        }
    }
}
