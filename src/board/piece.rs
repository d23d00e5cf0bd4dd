//! Colours, piece kinds and the one-byte piece code stored in the mailbox.

use std::fmt;

/// The side: Red moves first and sits at ranks 0–4.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// Red (upper-case FEN letters).
    Red = 0,
    /// Black (lower-case FEN letters).
    Black = 1,
}

impl Color {
    /// The other side.
    #[inline]
    pub const fn opp(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for Red, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// "Red" or "Black".
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "Red",
            Color::Black => "Black",
        }
    }
}

coded_enum! {
    /// The seven kinds of xiangqi piece; `kind as usize` is 0 (King) to 6 (Pawn) in this order.
    #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
    pub enum PieceKind {
        /// King (general).
        King,
        /// Advisor.
        Advisor,
        /// Elephant (bishop).
        Elephant,
        /// Horse (knight).
        Horse,
        /// Rook (chariot).
        Rook,
        /// Cannon.
        Cannon,
        /// Pawn (soldier).
        Pawn,
    }
}

impl PieceKind {
    /// Index 0..6.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// How many of this kind one side has in the full set.
    pub const fn set_count(self) -> u8 {
        match self {
            PieceKind::King => 1,
            PieceKind::Pawn => 5,
            _ => 2,
        }
    }

    /// Upper-case FEN letter (UCCI style: K A B N R C P).
    pub const fn letter(self) -> char {
        match self {
            PieceKind::King => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Rook => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Pawn => 'P',
        }
    }

    /// English name, lower case.
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::King => "king",
            PieceKind::Advisor => "advisor",
            PieceKind::Elephant => "elephant",
            PieceKind::Horse => "horse",
            PieceKind::Rook => "rook",
            PieceKind::Cannon => "cannon",
            PieceKind::Pawn => "pawn",
        }
    }

    /// Kind from a FEN letter of either case, accepting E/H for elephant/horse.
    pub fn from_letter(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_uppercase() {
            'K' => PieceKind::King,
            'A' => PieceKind::Advisor,
            'B' | 'E' => PieceKind::Elephant,
            'N' | 'H' => PieceKind::Horse,
            'R' => PieceKind::Rook,
            'C' => PieceKind::Cannon,
            'P' => PieceKind::Pawn,
            _ => return None,
        })
    }
}

/// A coloured piece, packed as `color << 3 | (kind + 1)`: Red 1..7, Black 9..15.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece(pub u8);

impl Piece {
    /// The piece of `color` and `kind`.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece(((color as u8) << 3) | (kind as u8 + 1))
    }

    /// Its colour.
    #[inline]
    pub const fn color(self) -> Color {
        if self.0 & 8 == 0 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// Its kind.
    #[inline]
    pub const fn kind(self) -> PieceKind {
        PieceKind::ALL[((self.0 & 7) - 1) as usize]
    }

    /// Index 0..15 for tables keyed by piece code.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// FEN letter: upper case for Red, lower case for Black.
    pub const fn letter(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_codes_round_trip() {
        for color in [Color::Red, Color::Black] {
            for kind in PieceKind::ALL {
                let p = Piece::new(color, kind);
                assert_eq!(p.color(), color);
                assert_eq!(p.kind(), kind);
                assert!(p.0 != 0 && p.0 < 16);
            }
        }
        assert_eq!(Piece::new(Color::Black, PieceKind::Horse).letter(), 'n');
        assert_eq!(PieceKind::from_letter('e'), Some(PieceKind::Elephant));
        assert_eq!(PieceKind::from_letter('H'), Some(PieceKind::Horse));
        assert_eq!(PieceKind::from_letter('x'), None);
    }
}
