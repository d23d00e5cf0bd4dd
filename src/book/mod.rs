//! Opening books: positions with the moves to play from them and their weights, read from a
//! file once and consulted once per `go` (never during a search).
//!
//! - `mod.rs` (here): [`Book`] (either format, detected from the file's first bytes),
//!   [`Books`] (UCCI's `;`-separated list), the weighted random choice [`pick`] (its random
//!   numbers from the board's `Rng`), and the left-right mirror both formats look positions
//!   up by.
//! - `eleeye.rs`: ElephantEye's `BOOK.DAT` layout (32-bit locks from its own RC4 Zobrist keys).
//! - `native.rs`: Chuhe's own format (a header, then records keyed by Chuhe's 64-bit key).
//! - `build.rs`: a book from games: which positions and moves, and the weight formula.
//!
//! Both formats store each position as it was played; a position that is not found is looked
//! up again as its left-right mirror, whose moves are mirrored back (ElephantEye's convention:
//! its books store a position or its mirror, not both).

pub mod build;
pub mod eleeye;
pub mod native;

use crate::board::{Move, Position, Square};

/// One book move and its weight (the chance of playing it is its share of the position's total).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move, in Chuhe's encoding.
    pub mv: Move,
    /// Its weight; 0 is never played (and never listed).
    pub weight: u32,
}

/// The file layouts a book can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Chuhe's own (`docs/book.md`).
    Chuhe,
    /// ElephantEye's `BOOK.DAT`.
    Eleeye,
}

impl Format {
    /// The name used by `--format` and in messages.
    pub fn name(self) -> &'static str {
        match self {
            Format::Chuhe => "chuhe",
            Format::Eleeye => "eleeye",
        }
    }

    /// The format called `name` (`chuhe` or `eleeye`).
    pub fn parse(name: &str) -> Option<Format> {
        match name.to_ascii_lowercase().as_str() {
            "chuhe" => Some(Format::Chuhe),
            "eleeye" | "elephanteye" => Some(Format::Eleeye),
            _ => None,
        }
    }
}

/// A book read into memory.
#[derive(Clone, Debug)]
pub enum Book {
    /// A book in Chuhe's format.
    Chuhe(native::NativeBook),
    /// A book in ElephantEye's layout.
    Eleeye(eleeye::EleeyeBook),
}

impl Book {
    /// Reads a book from its bytes: Chuhe's format if they start with its magic, else
    /// ElephantEye's layout; anything else (empty, truncated, unsorted) is an error.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, String> {
        if bytes.starts_with(&native::MAGIC) {
            return native::NativeBook::parse(bytes).map(Book::Chuhe);
        }
        eleeye::EleeyeBook::parse(bytes).map(Book::Eleeye).map_err(|e| {
            format!("neither a Chuhe book (no {} header) nor an ElephantEye book ({e})", native::MAGIC_TEXT)
        })
    }

    /// Reads the book file `path`; the error is one line naming the file.
    pub fn load(path: &str) -> Result<Book, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read book '{path}': {e}"))?;
        Book::from_bytes(&bytes).map_err(|e| format!("'{path}' is not an opening book: {e}"))
    }

    /// The file's format.
    pub fn format(&self) -> Format {
        match self {
            Book::Chuhe(_) => Format::Chuhe,
            Book::Eleeye(_) => Format::Eleeye,
        }
    }

    /// How many (position, move) records the file holds.
    pub fn records(&self) -> usize {
        match self {
            Book::Chuhe(b) => b.records(),
            Book::Eleeye(b) => b.records(),
        }
    }

    /// The book's moves for `pos` that are legal there, heaviest first (ties by move text);
    /// weight-0 moves left out and a move stored twice counted once with the weights added.
    /// Empty when the position (and its mirror) is not in the book.
    pub fn moves(&self, pos: &Position) -> Vec<BookMove> {
        for mirrored in [false, true] {
            let stored = match self {
                Book::Chuhe(b) => b.stored(pos, mirrored),
                Book::Eleeye(b) => b.stored(pos, mirrored),
            };
            let mut out: Vec<BookMove> = Vec::new();
            for (mv, weight) in stored {
                let mv = if mirrored { mirror_move(mv) } else { mv };
                if weight == 0 || !pos.is_legal(mv) {
                    continue; // a stale or foreign record: never play an illegal move
                }
                match out.iter_mut().find(|b| b.mv == mv) {
                    Some(b) => b.weight = b.weight.saturating_add(weight),
                    None => out.push(BookMove { mv, weight }),
                }
            }
            if !out.is_empty() {
                out.sort_by(|a, b| b.weight.cmp(&a.weight).then_with(|| a.mv.to_string().cmp(&b.mv.to_string())));
                return out;
            }
        }
        Vec::new()
    }
}

/// The books of UCCI's `bookfiles` (several paths separated by `;`), or UCI's and CECP's one
/// `BookFile`, consulted in order: the first that has legal moves for a position answers.
#[derive(Clone, Debug, Default)]
pub struct Books(Vec<(String, Book)>);

impl Books {
    /// Reads every book of `list` (`;`-separated paths, blanks ignored; empty: no book). All
    /// or nothing: the first file that cannot be read is the error.
    pub fn load_list(list: &str) -> Result<Books, String> {
        let paths = list.split(';').map(str::trim).filter(|p| !p.is_empty());
        paths.map(|p| Book::load(p).map(|b| (p.to_string(), b))).collect::<Result<_, _>>().map(Books)
    }

    /// Whether no book is loaded.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The loaded books with their paths.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Book)> {
        self.0.iter().map(|(p, b)| (p.as_str(), b))
    }

    /// The legal book moves of the first book that has any for `pos`.
    pub fn moves(&self, pos: &Position) -> Vec<BookMove> {
        self.0.iter().map(|(_, b)| b.moves(pos)).find(|m| !m.is_empty()).unwrap_or_default()
    }
}

/// The sum of the weights of `moves`.
pub fn total_weight(moves: &[BookMove]) -> u64 {
    moves.iter().map(|b| u64::from(b.weight)).sum()
}

/// Chooses a move at random by weight: with `r` uniform over `u64`, each move's chance is its
/// weight over the total. `None` when the list is empty or weighs nothing.
pub fn pick(moves: &[BookMove], r: u64) -> Option<BookMove> {
    let total = total_weight(moves);
    if total == 0 {
        return None;
    }
    let mut x = r % total;
    for &b in moves {
        if x < u64::from(b.weight) {
            return Some(b);
        }
        x -= u64::from(b.weight);
    }
    None // unreachable: x < total
}

/// Both formats keep their records sorted by key: the records whose key is `key`.
fn records_with<R, K: Ord>(records: &[R], key: K, key_of: impl Fn(&R) -> K) -> &[R] {
    let start = records.partition_point(|r| key_of(r) < key);
    let len = records[start..].partition_point(|r| key_of(r) == key);
    &records[start..start + len]
}

/// A book file: `head`, then `records` in `order` (the lookup's: by key, the heaviest move
/// first, then by move), each as `put` writes it.
fn file_of<R, K: Ord>(
    head: &[u8],
    mut records: Vec<R>,
    order: impl Fn(&R) -> K,
    put: impl Fn(&R, &mut Vec<u8>),
) -> Vec<u8> {
    records.sort_by_key(order);
    let mut out = head.to_vec();
    for r in &records {
        put(r, &mut out);
    }
    out
}

/// The check that makes a lookup sound: an error naming the first record out of key order.
fn check_sorted<R, K: Ord>(records: &[R], what: &str, key_of: impl Fn(&R) -> K) -> Result<(), String> {
    match records.windows(2).position(|w| key_of(&w[0]) > key_of(&w[1])) {
        Some(i) => Err(format!("its records are not sorted by {what} (record {})", i + 2)),
        None => Ok(()),
    }
}

/// A square's left-right mirror (file a ↔ i, the rank kept).
pub fn mirror_square(sq: Square) -> Square {
    Square::new(8 - sq.file(), sq.rank())
}

/// A move's left-right mirror.
pub fn mirror_move(m: Move) -> Move {
    Move::new(mirror_square(m.from()), mirror_square(m.to()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::zobrist::Rng;

    fn bm(text: &str, weight: u32) -> BookMove {
        BookMove { mv: Move::parse(text).unwrap(), weight }
    }

    #[test]
    fn pick_follows_the_weights() {
        let moves = [bm("h2e2", 6), bm("h0g2", 3), bm("c3c4", 1)];
        let mut rng = Rng::new(7);
        let mut counts = [0u32; 3];
        let n = 100_000;
        for _ in 0..n {
            let b = pick(&moves, rng.next_u64()).unwrap();
            counts[moves.iter().position(|m| *m == b).unwrap()] += 1;
        }
        // Expected 60%, 30%, 10%; the bound is many standard deviations wide (about 0.15%).
        for (c, want) in counts.iter().zip([0.6, 0.3, 0.1]) {
            let share = f64::from(*c) / f64::from(n);
            assert!((share - want).abs() < 0.01, "{counts:?}");
        }
        // The same seed gives the same choices.
        let (mut a, mut b) = (Rng::new(3), Rng::new(3));
        assert!((0..50).all(|_| pick(&moves, a.next_u64()) == pick(&moves, b.next_u64())));
    }

    #[test]
    fn pick_boundaries() {
        let moves = [bm("h2e2", 2), bm("h0g2", 1)];
        assert_eq!(pick(&moves, 0).unwrap().mv, moves[0].mv);
        assert_eq!(pick(&moves, 1).unwrap().mv, moves[0].mv);
        assert_eq!(pick(&moves, 2).unwrap().mv, moves[1].mv);
        assert_eq!(pick(&moves, 3).unwrap().mv, moves[0].mv);
        assert_eq!(pick(&[], 5), None);
        assert_eq!(pick(&[bm("h2e2", 0)], 5), None);
    }

    #[test]
    fn mirror_is_an_involution() {
        for sq in Square::all() {
            assert_eq!(mirror_square(mirror_square(sq)), sq);
        }
        assert_eq!(mirror_move(Move::parse("h2e2").unwrap()).to_string(), "b2e2");
        assert_eq!(mirror_move(Move::parse("b0c2").unwrap()).to_string(), "h0g2");
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        for bytes in [&b""[..], b"abc", b"0123456789", &native::MAGIC, b"CHUHBOOK\x01\x00\x10\x00\x05\x00\x00\x00"] {
            assert!(Book::from_bytes(bytes).is_err(), "{bytes:?}");
        }
        let e = Book::load("/nonexistent/book.bin").unwrap_err();
        assert!(e.starts_with("cannot read book '/nonexistent/book.bin'"), "{e}");
        assert!(Books::load_list(" ; ").unwrap().is_empty());
    }
}
