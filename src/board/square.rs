//! Squares on the padded 16×16 mailbox, which of them are board points, and their ICCS names.

use std::fmt;

/// Column of file `a` inside the 16-wide padded array.
pub const FILE_OFFSET: u8 = 3;
/// Row of rank 0 inside the 16-high padded array.
pub const RANK_OFFSET: u8 = 3;

/// True for the 90 board points of the padded array.
pub static ON_BOARD: [bool; 256] = build_on_board();

const fn build_on_board() -> [bool; 256] {
    let mut t = [false; 256];
    let mut r = 0;
    while r < 10 {
        let mut f = 0;
        while f < 9 {
            t[Square::new(f, r).index()] = true;
            f += 1;
        }
        r += 1;
    }
    t
}

/// A point of the padded 16×16 array; on-board points hold files a–i and ranks 0–9.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Square(pub u8);

impl Square {
    /// The square of `file` (0 = a .. 8 = i) and `rank` (0..9); both must be in range.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        Square((rank + RANK_OFFSET) * 16 + file + FILE_OFFSET)
    }

    /// File index 0..8 (a..i) of an on-board square.
    #[inline]
    pub const fn file(self) -> u8 {
        (self.0 & 15) - FILE_OFFSET
    }

    /// Rank index 0..9 of an on-board square.
    #[inline]
    pub const fn rank(self) -> u8 {
        (self.0 >> 4) - RANK_OFFSET
    }

    /// Index 0..90 of an on-board square (rank × 9 + file), for tables over the points.
    #[inline]
    pub const fn point(self) -> usize {
        self.rank() as usize * 9 + self.file() as usize
    }

    /// Raw index into the 256-entry mailbox.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether this padded index is one of the 90 board points.
    #[inline]
    pub fn on_board(self) -> bool {
        ON_BOARD[self.index()]
    }

    /// The square `delta` mailbox steps away (may be off the board, never out of the array
    /// for the deltas the engine uses from an on-board square).
    #[inline]
    pub const fn offset(self, delta: i16) -> Square {
        Square((self.0 as i16 + delta) as u8)
    }

    /// Square seen from the other side: the mirror through the board's centre point.
    pub const fn flip(self) -> Square {
        Square::new(8 - self.file(), 9 - self.rank())
    }

    /// Parses a two-character ICCS square such as `h2`.
    pub fn parse(text: &str) -> Option<Square> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let f = b[0].to_ascii_lowercase();
        if !(b'a'..=b'i').contains(&f) || !b[1].is_ascii_digit() {
            return None;
        }
        Some(Square::new(f - b'a', b[1] - b'0'))
    }

    /// All 90 board points, rank 0 first, file a first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..10u8).flat_map(|r| (0..9u8).map(move |f| Square::new(f, r)))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.on_board() {
            write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
        } else {
            write!(f, "?{}", self.0)
        }
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iccs_round_trip() {
        for sq in Square::all() {
            assert!(sq.on_board());
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::all().count(), 90);
        assert_eq!(ON_BOARD.iter().filter(|&&b| b).count(), 90);
        assert_eq!(Square::parse("j0"), None);
        assert_eq!(Square::parse("a"), None);
        assert_eq!(Square::parse("a10"), None);
        assert_eq!(Square::new(4, 0).to_string(), "e0");
    }
}
