//! ElephantEye's opening-book layout (`BOOK.DAT`, as ElephantEye and UCCI GUIs use it).
//!
//! The file is a bare array of 8-byte little-endian records sorted by lock, several records
//! per position (one per move), no header:
//!
//! | bytes | field |
//! |---|---|
//! | 0..4 | the position's 32-bit Zobrist lock (ElephantEye's `dwLock1`) |
//! | 4..6 | the move: from square + 256 × to square, on ElephantEye's 16×16 board |
//! | 6..8 | the move's value, used as its weight |
//!
//! ElephantEye's board numbers a square `16 × y + x` with files a..i at x = 3..11 and ranks
//! 9..0 at y = 3..12 (Black's back rank on top), so ICCS `a0` is 0xC3 and `i9` is 0x3B.
//!
//! Its Zobrist keys come from RC4 with an empty key (the key schedule run with every key byte
//! 0), each 32-bit number four output bytes, low byte first. The generator yields, in order,
//! the side-to-move triple, then for piece index 0..13 (Red king, advisor, elephant, horse,
//! rook, cannon, pawn, then Black's in the same order) and square 0..255 a triple (key, lock0,
//! lock1). A position's lock is the xor of its pieces' `lock1`s, and the side's when Black is
//! to move. These are facts about the format; the code below is Chuhe's own.

use super::{check_sorted, file_of, records_with, BookMove};
use crate::board::{Color, Move, Position, Square};
use crate::bytes::{u16_at, u32_at};
use std::cmp::Reverse;
use std::sync::OnceLock;

/// Bytes per record.
pub const RECORD: usize = 8;

/// ElephantEye's `lock1` numbers: the side to move's and one per (piece index, square).
struct Locks {
    side: u32,
    table: Box<[[u32; 256]; 14]>,
}

/// RC4's output stream with an all-zero key.
struct Rc4 {
    s: [u8; 256],
    i: u8,
    j: u8,
}

impl Rc4 {
    fn zero_key() -> Rc4 {
        let mut s = [0u8; 256];
        for (i, v) in s.iter_mut().enumerate() {
            *v = i as u8;
        }
        let mut j = 0u8;
        for i in 0..256 {
            j = j.wrapping_add(s[i]); // + key byte, which is 0
            s.swap(i, j as usize);
        }
        Rc4 { s, i: 0, j: 0 }
    }

    fn byte(&mut self) -> u8 {
        self.i = self.i.wrapping_add(1);
        self.j = self.j.wrapping_add(self.s[self.i as usize]);
        self.s.swap(self.i as usize, self.j as usize);
        self.s[self.s[self.i as usize].wrapping_add(self.s[self.j as usize]) as usize]
    }

    fn long(&mut self) -> u32 {
        u32::from_le_bytes([self.byte(), self.byte(), self.byte(), self.byte()])
    }

    /// One (key, lock0, lock1) triple; only lock1 is stored in books.
    fn lock1(&mut self) -> u32 {
        self.long();
        self.long();
        self.long()
    }
}

/// The lock table, computed on first use (a book is loaded at most a few times per run).
fn locks() -> &'static Locks {
    static LOCKS: OnceLock<Locks> = OnceLock::new();
    LOCKS.get_or_init(|| {
        let mut rc4 = Rc4::zero_key();
        let side = rc4.lock1();
        let mut table = Box::new([[0u32; 256]; 14]);
        for row in table.iter_mut() {
            for v in row.iter_mut() {
                *v = rc4.lock1();
            }
        }
        Locks { side, table }
    })
}

/// A square on ElephantEye's board.
pub fn square(sq: Square) -> u8 {
    (12 - sq.rank()) * 16 + sq.file() + 3
}

/// The board point of an ElephantEye square (`None` off the board).
pub fn from_square(b: u8) -> Option<Square> {
    let (x, y) = (b & 15, b >> 4);
    ((3..=11).contains(&x) && (3..=12).contains(&y)).then(|| Square::new(x - 3, 12 - y))
}

/// A move in ElephantEye's encoding.
pub fn encode(m: Move) -> u16 {
    u16::from(square(m.from())) | u16::from(square(m.to())) << 8
}

/// The move of an ElephantEye move word (`None`: a square off the board, or no move).
pub fn decode(w: u16) -> Option<Move> {
    let (from, to) = (from_square(w as u8)?, from_square((w >> 8) as u8)?);
    (from != to).then(|| Move::new(from, to))
}

/// ElephantEye's lock of `pos`, or of its left-right mirror.
pub fn lock(pos: &Position, mirrored: bool) -> u32 {
    let l = locks();
    let mut k = if pos.side_to_move() == Color::Black { l.side } else { 0 };
    for color in [Color::Red, Color::Black] {
        let base = if color == Color::Red { 0 } else { 7 };
        for (kind, sq) in pos.pieces(color) {
            let sq = if mirrored { super::mirror_square(sq) } else { sq };
            k ^= l.table[base + kind.index()][square(sq) as usize];
        }
    }
    k
}

/// One record of the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Record {
    lock: u32,
    mv: u16,
    value: u16,
}

/// An ElephantEye book in memory: its records, sorted by lock.
#[derive(Clone, Debug)]
pub struct EleeyeBook {
    records: Vec<Record>,
}

impl EleeyeBook {
    /// Checks and reads the records: a whole number of them, at least one, sorted by lock.
    pub fn parse(bytes: &[u8]) -> Result<EleeyeBook, String> {
        if bytes.is_empty() {
            return Err("the file is empty".to_string());
        }
        if !bytes.len().is_multiple_of(RECORD) {
            return Err(format!("its {} bytes are not a whole number of {RECORD}-byte records", bytes.len()));
        }
        let records: Vec<Record> = bytes
            .chunks_exact(RECORD)
            .map(|c| Record { lock: u32_at(c, 0), mv: u16_at(c, 4), value: u16_at(c, 6) })
            .collect();
        // Sorted locks are what a lookup relies on; random bytes fail this almost surely.
        check_sorted(&records, "lock", |r| r.lock)?;
        Ok(EleeyeBook { records })
    }

    /// How many records the book holds.
    pub fn records(&self) -> usize {
        self.records.len()
    }

    /// The moves stored for `pos` (or its mirror), as stored: not mirrored back, legality
    /// not checked, records whose move is not on the board dropped.
    pub(super) fn stored(&self, pos: &Position, mirrored: bool) -> Vec<(Move, u32)> {
        records_with(&self.records, lock(pos, mirrored), |r| r.lock)
            .iter()
            .filter_map(|r| Some((decode(r.mv)?, u32::from(r.value))))
            .collect()
    }
}

/// Writes positions and their moves as an ElephantEye book: one record per move, each
/// position under its own lock, sorted by lock then by weight (heaviest first). Weights above
/// 65535 are scaled down per position (keeping their ratios; no move drops below 1).
pub fn write(entries: &[(Position, Vec<BookMove>)]) -> Vec<u8> {
    let mut records = Vec::new();
    for (pos, moves) in entries {
        let key = lock(pos, false);
        let max = moves.iter().map(|b| b.weight).max().unwrap_or(0);
        for b in moves.iter().filter(|b| b.weight > 0) {
            let value = if max > u32::from(u16::MAX) {
                (u64::from(b.weight) * u64::from(u16::MAX) / u64::from(max)).max(1) as u16
            } else {
                b.weight as u16
            };
            records.push(Record { lock: key, mv: encode(b.mv), value });
        }
    }
    // No header: the file is its records.
    file_of(
        &[],
        records,
        |r| (r.lock, Reverse(r.value), r.mv),
        |r, out| {
            out.extend_from_slice(&r.lock.to_le_bytes());
            out.extend_from_slice(&r.mv.to_le_bytes());
            out.extend_from_slice(&r.value.to_le_bytes());
        },
    )
}

#[cfg(test)]
mod tests {
    use super::super::Book;
    use super::*;

    fn mv(t: &str) -> Move {
        Move::parse(t).unwrap()
    }

    #[test]
    fn squares_and_moves_round_trip() {
        assert_eq!(square(Square::parse("a0").unwrap()), 0xC3);
        assert_eq!(square(Square::parse("i9").unwrap()), 0x3B);
        assert_eq!(square(Square::parse("e0").unwrap()), 0xC7);
        for sq in Square::all() {
            assert_eq!(from_square(square(sq)), Some(sq));
        }
        assert_eq!(from_square(0x00), None);
        assert_eq!(from_square(0xC2), None);
        assert_eq!(from_square(0xD3), None);
        // h2e2: from 0xAA, to 0xA7.
        assert_eq!(encode(mv("h2e2")), 0xA7AA);
        for m in Position::startpos().legal_moves() {
            assert_eq!(decode(encode(m)), Some(m));
        }
        assert_eq!(decode(0), None);
    }

    #[test]
    fn locks_match_elephanteyes_keys() {
        // RC4's published test vector for the 8-byte zero key begins de 18 89 41 a3 37 5d 3a;
        // the key length does not matter when every key byte is 0.
        let mut rc4 = Rc4::zero_key();
        let first: Vec<u8> = (0..8).map(|_| rc4.byte()).collect();
        assert_eq!(first, [0xde, 0x18, 0x89, 0x41, 0xa3, 0x37, 0x5d, 0x3a]);
        // The start position's lock, as ElephantEye computes it.
        assert_eq!(lock(&Position::startpos(), false), 0x0526_56d5);
        // The start position is symmetric: its mirror has the same lock.
        assert_eq!(lock(&Position::startpos(), true), 0x0526_56d5);
        let mut p = Position::startpos();
        p.make_move(mv("h2e2"));
        assert_ne!(lock(&p, false), lock(&p, true));
        let mut q = Position::startpos();
        q.make_move(mv("b2e2"));
        assert_eq!(lock(&p, true), lock(&q, false), "a position's mirror is the mirrored game");
    }

    #[test]
    fn written_books_read_back_with_mirrors_and_only_legal_moves() {
        let start = Position::startpos();
        let mut after = start.clone();
        after.make_move(mv("h2e2"));
        let entries = vec![
            (start.clone(), vec![BookMove { mv: mv("h2e2"), weight: 70_000 }, BookMove { mv: mv("b0c2"), weight: 7 }]),
            // h9g7 is legal after h2e2; a0a5 (a rook jumping its pawn) never is.
            (after.clone(), vec![BookMove { mv: mv("h9g7"), weight: 3 }, BookMove { mv: mv("a0a5"), weight: 9 }]),
        ];
        let bytes = write(&entries);
        assert_eq!(bytes.len(), 4 * RECORD);
        let book = Book::from_bytes(&bytes).unwrap();
        assert_eq!(book.records(), 4);
        let m = book.moves(&start);
        assert_eq!(
            m.iter().map(|b| (b.mv.to_string(), b.weight)).collect::<Vec<_>>(),
            [("h2e2".to_string(), 65535), ("b0c2".to_string(), 6)]
        );
        assert_eq!(book.moves(&after), [BookMove { mv: mv("h9g7"), weight: 3 }]);
        // After b2e2 (the mirror of h2e2) the book answers with h9g7's mirror, b9c7.
        let mut mirror = start.clone();
        mirror.make_move(mv("b2e2"));
        assert_eq!(book.moves(&mirror), [BookMove { mv: mv("b9c7"), weight: 3 }]);
        let mut elsewhere = start;
        elsewhere.make_move(mv("c3c4"));
        assert!(book.moves(&elsewhere).is_empty());
    }

    #[test]
    fn bad_files_are_refused() {
        assert!(EleeyeBook::parse(&[]).unwrap_err().contains("empty"));
        assert!(EleeyeBook::parse(&[0; 12]).unwrap_err().contains("whole number"));
        let mut unsorted = vec![9, 0, 0, 0, 0, 0, 1, 0];
        unsorted.extend([1, 0, 0, 0, 0, 0, 1, 0]);
        assert!(EleeyeBook::parse(&unsorted).unwrap_err().contains("not sorted"));
    }
}
