//! Chuhe's own book format (`docs/book.md`): a 16-byte header, then 16-byte records sorted by
//! key, all little-endian.
//!
//! | bytes | header field |
//! |---|---|
//! | 0..8 | magic `CHUHBOOK` |
//! | 8..10 | version, 1 |
//! | 10..12 | record size, 16 |
//! | 12..16 | record count N |
//!
//! | bytes | record field |
//! |---|---|
//! | 0..8 | the position's Chuhe Zobrist key (`Position::key`, `src/board/zobrist.rs`) |
//! | 8..10 | the move in Chuhe's encoding: from square × 256 + to square, on the padded 16×16 board (file a..i = column 3..11, rank 0..9 = row 3..12) |
//! | 10..12 | reserved, 0 |
//! | 12..16 | the move's weight |
//!
//! The file is exactly 16 + 16 × N bytes; records of one position are consecutive.

use super::{check_sorted, file_of, records_with, BookMove};
use crate::board::zobrist::{PIECE_SQUARE, SIDE};
use crate::board::{Color, Move, Piece, Position};
use crate::bytes::{u16_at, u32_at, u64_at};
use std::cmp::Reverse;

/// The first eight bytes of a Chuhe book.
pub const MAGIC: [u8; 8] = *b"CHUHBOOK";
/// The magic as text, for messages.
pub const MAGIC_TEXT: &str = "CHUHBOOK";
/// The format version this code writes and reads.
pub const VERSION: u16 = 1;
/// Bytes of the header.
pub const HEADER: usize = 16;
/// Bytes per record.
pub const RECORD: usize = 16;

/// Chuhe's key of `pos`, or of its left-right mirror (computed from the pieces, so the mirror
/// needs no board of its own).
pub fn key(pos: &Position, mirrored: bool) -> u64 {
    if !mirrored {
        return pos.key();
    }
    let mut k = if pos.side_to_move() == Color::Black { SIDE } else { 0 };
    for color in [Color::Red, Color::Black] {
        for (kind, sq) in pos.pieces(color) {
            k ^= PIECE_SQUARE[Piece::new(color, kind).index()][super::mirror_square(sq).index()];
        }
    }
    k
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Record {
    key: u64,
    mv: Move,
    weight: u32,
}

/// A Chuhe book in memory: its records, sorted by key.
#[derive(Clone, Debug)]
pub struct NativeBook {
    records: Vec<Record>,
}

impl NativeBook {
    /// Checks and reads a whole file: magic, version, record size, length, sorted keys, and
    /// moves between board points.
    pub fn parse(bytes: &[u8]) -> Result<NativeBook, String> {
        if bytes.len() < HEADER || bytes[..8] != MAGIC {
            return Err(format!("a Chuhe book needs a {HEADER}-byte header starting {MAGIC_TEXT}"));
        }
        let (version, size, count) = (u16_at(bytes, 8), u16_at(bytes, 10), u32_at(bytes, 12) as usize);
        if version != VERSION {
            return Err(format!("Chuhe book version {version}; this build reads version {VERSION}"));
        }
        if usize::from(size) != RECORD {
            return Err(format!("Chuhe book records of {size} bytes; version 1 has {RECORD}"));
        }
        let want = count.checked_mul(RECORD).and_then(|n| n.checked_add(HEADER));
        if want != Some(bytes.len()) {
            return Err(format!(
                "the header says {count} records but the file has {} bytes (truncated or corrupt)",
                bytes.len()
            ));
        }
        let mut records = Vec::with_capacity(count);
        for (i, r) in bytes[HEADER..].chunks_exact(RECORD).enumerate() {
            let key = u64_at(r, 0);
            let mv = Move(u16_at(r, 8));
            if !mv.from().on_board() || !mv.to().on_board() || mv.from() == mv.to() {
                return Err(format!("record {}: the move {:#06x} is not between two board points", i + 1, mv.0));
            }
            records.push(Record { key, mv, weight: u32_at(r, 12) });
        }
        check_sorted(&records, "key", |r| r.key)?;
        Ok(NativeBook { records })
    }

    /// How many records the book holds.
    pub fn records(&self) -> usize {
        self.records.len()
    }

    /// The moves stored for `pos` (or its mirror), as stored: not mirrored back, legality
    /// not checked.
    pub(super) fn stored(&self, pos: &Position, mirrored: bool) -> Vec<(Move, u32)> {
        records_with(&self.records, key(pos, mirrored), |r| r.key).iter().map(|r| (r.mv, r.weight)).collect()
    }
}

/// Writes positions and their moves as a Chuhe book, sorted by key, heaviest move first;
/// weight-0 moves are left out.
pub fn write(entries: &[(Position, Vec<BookMove>)]) -> Vec<u8> {
    let records: Vec<Record> = entries
        .iter()
        .flat_map(|(pos, moves)| {
            moves.iter().filter(|b| b.weight > 0).map(|b| Record { key: pos.key(), mv: b.mv, weight: b.weight })
        })
        .collect();
    let mut head = Vec::with_capacity(HEADER);
    head.extend_from_slice(&MAGIC);
    head.extend_from_slice(&VERSION.to_le_bytes());
    head.extend_from_slice(&(RECORD as u16).to_le_bytes());
    head.extend_from_slice(&(records.len() as u32).to_le_bytes());
    let order = |r: &Record| (r.key, Reverse(r.weight), r.mv);
    file_of(&head, records, order, |r, out| {
        out.extend_from_slice(&r.key.to_le_bytes());
        out.extend_from_slice(&r.mv.0.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(&r.weight.to_le_bytes());
    })
}

#[cfg(test)]
mod tests {
    use super::super::Book;
    use super::*;

    fn mv(t: &str) -> Move {
        Move::parse(t).unwrap()
    }

    #[test]
    fn mirror_key_is_the_key_of_the_mirrored_game() {
        let mut p = Position::startpos();
        p.make_move(mv("h2e2"));
        let mut q = Position::startpos();
        q.make_move(mv("b2e2"));
        assert_eq!(key(&p, true), q.key());
        assert_eq!(key(&p, false), p.key());
        assert_eq!(key(&Position::startpos(), true), Position::startpos().key());
    }

    #[test]
    fn round_trip_with_mirror_and_legality() {
        let start = Position::startpos();
        let mut after = start.clone();
        after.make_move(mv("h0g2"));
        let entries = vec![
            (start.clone(), vec![BookMove { mv: mv("h0g2"), weight: 100_000 }, BookMove { mv: mv("c3c4"), weight: 0 }]),
            (after.clone(), vec![BookMove { mv: mv("h9g7"), weight: 4 }, BookMove { mv: mv("e0e5"), weight: 4 }]),
        ];
        let bytes = write(&entries);
        assert_eq!(bytes.len(), HEADER + 3 * RECORD, "the weight-0 move is not written");
        assert_eq!(&bytes[..8], b"CHUHBOOK");
        let book = Book::from_bytes(&bytes).unwrap();
        assert_eq!(book.format(), super::super::Format::Chuhe);
        assert_eq!(book.moves(&start), [BookMove { mv: mv("h0g2"), weight: 100_000 }]);
        assert_eq!(book.moves(&after), [BookMove { mv: mv("h9g7"), weight: 4 }], "e0e5 is illegal");
        let mut mirror = start;
        mirror.make_move(mv("b0c2"));
        assert_eq!(book.moves(&mirror), [BookMove { mv: mv("b9c7"), weight: 4 }]);
    }

    #[test]
    fn damaged_files_are_refused() {
        let entries = vec![(Position::startpos(), vec![BookMove { mv: mv("h0g2"), weight: 1 }])];
        let good = write(&entries);
        assert!(NativeBook::parse(&good).is_ok());
        let e = NativeBook::parse(&good[..good.len() - 1]).unwrap_err();
        assert!(e.contains("truncated"), "{e}");
        let mut v2 = good.clone();
        v2[8] = 2;
        assert!(NativeBook::parse(&v2).unwrap_err().contains("version 2"));
        let mut off = good.clone();
        off[HEADER + 8] = 0;
        off[HEADER + 9] = 0;
        assert!(NativeBook::parse(&off).unwrap_err().contains("board points"));
        let mut huge = good;
        huge[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(NativeBook::parse(&huge).is_err());
    }
}
