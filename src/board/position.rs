//! `Position`: the padded mailbox with per-piece squares, make/unmake and the Zobrist key.
//!
//! Each cell holds a piece *slot* code: Red slots 16..=31, Black 32..=47, 0 for an empty
//! point and `OFF` for the margin. Slots have fixed kinds (`SLOT_KIND`, the only place the
//! layout is written out), so a slot is also a piece's identity (`PieceId`) as it moves,
//! which the repetition rules use to follow a chased piece. Layers above see pieces through
//! `pieces`, `squares_of`, `count`, `PieceId` and the square tests, never the cells.

use super::mv::Move;
use super::piece::{Color, Piece, PieceKind};
use super::square::Square;
use super::zobrist;

/// Cell value of the sentinel margin (no colour bit set).
pub(super) const OFF: u8 = 0x40;
/// Cell value of an empty point.
pub(super) const EMPTY: u8 = 0;

/// The slot layout, the one place it is written out: the kind of each of a side's 16 slots.
const SLOT_KIND: [PieceKind; 16] = {
    use PieceKind::*;
    [King, Advisor, Advisor, Elephant, Elephant, Horse, Horse, Rook, Rook, Cannon, Cannon, Pawn, Pawn, Pawn, Pawn, Pawn]
};

/// Each kind's slots within a side, as `lo..hi` (slots of one kind are consecutive).
const fn build_kind_slots() -> [(u8, u8); 7] {
    let mut t = [(16u8, 0u8); 7];
    let mut s = 0;
    while s < 16 {
        let k = SLOT_KIND[s] as usize;
        if t[k].0 > s as u8 {
            t[k].0 = s as u8;
        }
        t[k].1 = s as u8 + 1;
        s += 1;
    }
    t
}

/// First slot (within a colour's 16) of each kind, and the end of its range.
const KIND_SLOTS: [(u8, u8); 7] = build_kind_slots();

const fn build_cell_piece() -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut s = 0;
    while s < 16 {
        t[16 + s] = Piece::new(Color::Red, SLOT_KIND[s]).0;
        t[32 + s] = Piece::new(Color::Black, SLOT_KIND[s]).0;
        s += 1;
    }
    t
}

/// Piece code (see `Piece`) of each cell value; 0 for empty and off-board.
pub(super) static CELL_PIECE: [u8; 64] = build_cell_piece();

/// The colour bit of a cell value: 16 for Red, 32 for Black.
#[inline]
pub(super) const fn side_bit(c: Color) -> u8 {
    16 << (c as u8)
}

/// Kind of a piece's cell value (a slot code 16..48; meaningless for empty or margin cells).
#[inline(always)]
pub(super) const fn cell_kind(cell: u8) -> PieceKind {
    SLOT_KIND[(cell & 15) as usize]
}

/// A piece's identity: its slot, fixed for the whole game while the piece moves (the
/// repetition rules follow a chased piece by it). Each side has 16.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct PieceId(u8);

impl PieceId {
    /// Identities per side.
    pub const PER_SIDE: usize = 16;

    /// The `index`-th identity (0..16) of `color`.
    #[inline]
    pub const fn new(color: Color, index: usize) -> PieceId {
        PieceId(side_bit(color) + (index & 15) as u8)
    }

    /// Every identity of `color`, in slot order.
    #[inline]
    pub fn all(color: Color) -> impl Iterator<Item = PieceId> {
        (0..Self::PER_SIDE).map(move |i| PieceId::new(color, i))
    }

    /// Its side.
    #[inline]
    pub const fn color(self) -> Color {
        if self.0 & side_bit(Color::Red) != 0 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// Its kind, fixed by the slot.
    #[inline]
    pub const fn kind(self) -> PieceKind {
        cell_kind(self.0)
    }

    /// Index 0..16 within its side (for per-side masks).
    #[inline]
    pub const fn index(self) -> usize {
        (self.0 & 15) as usize
    }
}

/// What `unmake_move` needs to restore the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    pub(crate) captured: u8,
    pub(crate) halfmove: u16,
    // Restored, not decremented: the counter saturates at u16::MAX, so `-1` would not undo `+1`.
    pub(crate) fullmove: u16,
    pub(crate) key: u64,
}

impl Undo {
    /// The piece captured by the move, if any.
    pub fn captured(&self) -> Option<Piece> {
        (self.captured != EMPTY).then(|| Piece(CELL_PIECE[self.captured as usize]))
    }
}

/// A xiangqi position: placement, side to move, move counters and Zobrist key.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    pub(super) cells: [u8; 256],
    /// Square of each slot code (index 16..48); 0 when the piece is not on the board.
    pub(super) slot_sq: [u8; 48],
    pub(super) side: Color,
    pub(super) halfmove: u16,
    pub(super) fullmove: u16,
    pub(super) key: u64,
}

impl Position {
    /// An empty board with Red to move (pieces are added by the FEN parser).
    pub(super) fn empty() -> Position {
        let mut cells = [OFF; 256];
        for sq in Square::all() {
            cells[sq.index()] = EMPTY;
        }
        Position { cells, slot_sq: [0; 48], side: Color::Red, halfmove: 0, fullmove: 1, key: 0 }
    }

    /// Side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Sets the move counters (a stored record's, which keeps them apart from the placement).
    pub fn set_counters(&mut self, halfmove: u16, fullmove: u16) {
        (self.halfmove, self.fullmove) = (halfmove, fullmove.max(1));
    }

    /// Zobrist key of placement and side to move.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Plies since the last capture (FEN field 5).
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove as u32
    }

    /// Full-move number (FEN field 6).
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove as u32
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let c = self.cells[sq.index()];
        (c != EMPTY && c != OFF).then(|| Piece(CELL_PIECE[c as usize]))
    }

    /// Whether `sq` is an empty board point (false off the board).
    #[inline(always)]
    pub fn is_empty(&self, sq: Square) -> bool {
        self.cells[sq.index()] == EMPTY
    }

    /// Whether a piece of `color` stands on `sq` (false for empty and off-board points).
    #[inline(always)]
    pub fn has_piece_of(&self, sq: Square, color: Color) -> bool {
        self.cells[sq.index()] & side_bit(color) != 0
    }

    /// Identity of the piece on `sq`, if any.
    #[inline]
    pub fn piece_id_at(&self, sq: Square) -> Option<PieceId> {
        let c = self.cells[sq.index()];
        (c != EMPTY && c != OFF).then_some(PieceId(c))
    }

    /// Square of the piece with identity `id`, if it is on the board.
    #[inline]
    pub fn square_of_id(&self, id: PieceId) -> Option<Square> {
        let s = self.slot_sq[id.0 as usize & 63];
        (s != 0).then_some(Square(s))
    }

    /// Square of `color`'s king.
    #[inline]
    pub fn king_square(&self, color: Color) -> Square {
        Square(self.slot_sq[side_bit(color) as usize])
    }

    /// Every piece of `color` as (kind, square), kind by kind in `PieceKind` order.
    #[inline]
    pub fn pieces(&self, color: Color) -> impl Iterator<Item = (PieceKind, Square)> + '_ {
        let base = side_bit(color);
        (base..base + 16).filter_map(move |cell| {
            let s = self.slot_sq[cell as usize];
            (s != 0).then(|| (cell_kind(cell), Square(s)))
        })
    }

    /// Squares of `color`'s pieces of `kind`, in slot order.
    #[inline]
    pub fn squares_of(&self, color: Color, kind: PieceKind) -> impl Iterator<Item = Square> + '_ {
        let base = side_bit(color) as usize;
        let (lo, hi) = KIND_SLOTS[kind.index()];
        self.slot_sq[base + lo as usize..base + hi as usize].iter().filter(|&&s| s != 0).map(|&s| Square(s))
    }

    /// How many pieces of `color` and `kind` are on the board.
    #[inline]
    pub fn count(&self, color: Color, kind: PieceKind) -> u32 {
        self.squares_of(color, kind).count() as u32
    }

    /// Places a piece on an empty point, using the first free slot of its kind.
    /// Returns false if the set has no free slot of that kind.
    pub(super) fn put(&mut self, sq: Square, piece: Piece) -> bool {
        let base = side_bit(piece.color()) as usize;
        let (lo, hi) = KIND_SLOTS[piece.kind().index()];
        for s in lo..hi {
            let slot = base + s as usize;
            if self.slot_sq[slot] == 0 {
                self.slot_sq[slot] = sq.0;
                self.cells[sq.index()] = slot as u8;
                self.key ^= zobrist::PIECE_SQUARE[piece.index()][sq.index()];
                return true;
            }
        }
        false
    }

    /// Zobrist key of the pieces of `kinds` alone (both sides), computed on demand: a
    /// structure (the pawns, the king's guard) that evaluation corrections are keyed by.
    pub fn kinds_key(&self, kinds: &[PieceKind]) -> u64 {
        let mut k = 0;
        for color in [Color::Red, Color::Black] {
            for &kind in kinds {
                let code = Piece::new(color, kind).index();
                for sq in self.squares_of(color, kind) {
                    k ^= zobrist::PIECE_SQUARE[code][sq.index()];
                }
            }
        }
        k
    }

    /// The key computed from scratch (tests compare it with the incremental one).
    pub fn compute_key(&self) -> u64 {
        let mut k = 0;
        for sq in Square::all() {
            if let Some(p) = self.piece_at(sq) {
                k ^= zobrist::PIECE_SQUARE[p.index()][sq.index()];
            }
        }
        if self.side == Color::Black {
            k ^= zobrist::SIDE;
        }
        k
    }

    /// The key after `m` (legal or pseudo-legal), without playing it: the search asks for the
    /// child's table entry before the move is made.
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        let (from, to) = (m.from().index(), m.to().index());
        let mp = CELL_PIECE[self.cells[from] as usize] as usize;
        let key = self.key ^ zobrist::PIECE_SQUARE[mp][from] ^ zobrist::PIECE_SQUARE[mp][to] ^ zobrist::SIDE;
        match self.cells[to] {
            EMPTY => key,
            captured => key ^ zobrist::PIECE_SQUARE[CELL_PIECE[captured as usize] as usize][to],
        }
    }

    /// Plays `m`, which must be legal (or at least pseudo-legal); returns what undoes it.
    #[inline]
    pub fn make_move(&mut self, m: Move) -> Undo {
        let (from, to) = (m.from().index(), m.to().index());
        let moving = self.cells[from];
        let captured = self.cells[to];
        let undo = Undo { captured, halfmove: self.halfmove, fullmove: self.fullmove, key: self.key };
        let key = self.key_after(m);
        if captured != EMPTY {
            self.slot_sq[captured as usize] = 0;
            self.halfmove = 0;
        } else {
            self.halfmove = self.halfmove.saturating_add(1);
        }
        self.cells[to] = moving;
        self.cells[from] = EMPTY;
        self.slot_sq[moving as usize] = to as u8;
        if self.side == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.opp();
        self.key = key;
        undo
    }

    /// Takes back `m`, given the `Undo` that `make_move(m)` returned.
    #[inline]
    pub fn unmake_move(&mut self, m: Move, undo: Undo) {
        let (from, to) = (m.from().index(), m.to().index());
        let moving = self.cells[to];
        self.cells[from] = moving;
        self.slot_sq[moving as usize] = from as u8;
        self.cells[to] = undo.captured;
        if undo.captured != EMPTY {
            self.slot_sq[undo.captured as usize] = to as u8;
        }
        self.side = self.side.opp();
        self.fullmove = undo.fullmove;
        self.halfmove = undo.halfmove;
        self.key = undo.key;
    }

    /// Passes the turn (for null-move pruning); undo with `unmake_null`.
    #[inline]
    pub fn make_null(&mut self) -> Undo {
        let undo = Undo { captured: EMPTY, halfmove: self.halfmove, fullmove: self.fullmove, key: self.key };
        self.side = self.side.opp();
        self.key ^= zobrist::SIDE;
        undo
    }

    /// Takes back a null move.
    #[inline]
    pub fn unmake_null(&mut self, undo: Undo) {
        self.side = self.side.opp();
        self.key = undo.key;
    }

    /// Whether `m` captures a piece.
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        self.cells[m.to().index()] != EMPTY
    }

    /// A text diagram of the board, Black at the top, with ranks and files labelled.
    pub fn pretty(&self) -> String {
        let mut out = String::new();
        for r in (0..10u8).rev() {
            out.push_str(&format!("{r} "));
            for f in 0..9u8 {
                out.push(' ');
                out.push(self.piece_at(Square::new(f, r)).map_or('.', |p| p.letter()));
            }
            out.push('\n');
            if r == 5 {
                out.push_str("   ~~~~~~~~~~~~~~~~~\n");
            }
        }
        out.push_str("   a b c d e f g h i\n");
        out
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::testing::random_games;
    use crate::board::zobrist::Rng;

    #[test]
    fn slot_layout_holds_the_full_set() {
        for kind in PieceKind::ALL {
            let (lo, hi) = KIND_SLOTS[kind.index()];
            assert_eq!(hi - lo, kind.set_count(), "{kind:?}");
            assert!((lo..hi).all(|s| SLOT_KIND[s as usize] == kind));
        }
        let pos = Position::startpos();
        for color in [Color::Red, Color::Black] {
            for id in PieceId::all(color) {
                let sq = pos.square_of_id(id).unwrap();
                assert_eq!(pos.piece_at(sq), Some(Piece::new(color, id.kind())));
                assert_eq!((pos.piece_id_at(sq), id.color()), (Some(id), color));
            }
        }
    }

    #[test]
    fn random_games_keep_key_and_unmake_exact() {
        let mut rng = Rng::new(0x1234_5678_9abc_def1);
        let mut plies = 0;
        for _ in 0..300 {
            let mut pos = Position::startpos();
            let mut history = Vec::new();
            for _ in 0..150 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
                let before = pos.clone();
                let predicted = pos.key_after(m);
                let undo = pos.make_move(m);
                assert_eq!((pos.key(), predicted), (pos.compute_key(), pos.compute_key()), "key after {m}");
                let reparsed = Position::from_fen(&pos.to_fen()).unwrap();
                assert_eq!((reparsed.to_fen(), reparsed.key()), (pos.to_fen(), pos.key()), "FEN round trip");
                assert!(!pos.king_attacked(pos.side_to_move().opp()), "{m} left its king attacked");
                let mut again = pos.clone();
                again.unmake_move(m, undo);
                assert_eq!(again, before, "unmake of {m}");
                history.push((m, undo));
                plies += 1;
            }
            while let Some((m, undo)) = history.pop() {
                pos.unmake_move(m, undo);
            }
            assert_eq!(pos, Position::startpos());
        }
        assert!(plies > 20_000, "only {plies} plies played");
    }

    #[test]
    fn unmake_restores_saturated_move_number() {
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 65535 65535";
        let mut pos = Position::from_fen(fen).unwrap();
        let m = Move::parse("h7e7").unwrap();
        let undo = pos.make_move(m);
        assert_eq!((pos.fullmove_number(), pos.halfmove_clock()), (65535, 65535));
        pos.unmake_move(m, undo);
        assert_eq!(pos.to_fen(), fen);
    }

    #[test]
    fn null_move_round_trip() {
        let mut pos = Position::startpos();
        let u = pos.make_null();
        assert_eq!(pos.key(), pos.compute_key());
        pos.unmake_null(u);
        assert_eq!(pos, Position::startpos());
    }

    #[test]
    fn gives_check_agrees_with_making_the_move() {
        random_games(99, 100, 100, |pos, moves, _, _| {
            for &m in moves {
                let mut p = pos.clone();
                let predicted = p.gives_check(m);
                p.make_move(m);
                assert_eq!(predicted, p.in_check(), "{m} in {}", pos.to_fen());
                assert!(pos.is_legal(m));
            }
        });
    }
}
