//! The evaluation's features: one walk over the position that names every weight it uses
//! and how many times, Red minus Black. The engine sums the weights as it goes (`Sum`); the
//! tuner records the counts (`Trace`). One function per kind for its own terms, each
//! returning its attack units on the enemy king, then king safety and tempo.

use super::pair::SQUARES;
use super::params::{at, square_index};
use crate::board::tables::{HORSE, ORTHO};
use crate::board::{Color, PieceKind, Position, Square};

/// Phase weight of each rook, horse and cannon; the sum at the start is `PHASE_MAX`.
const ROOK_PHASE: i32 = 6;
const MINOR_PHASE: i32 = 3;
/// Phase of the full set of rooks, horses and cannons (pure midgame).
pub const PHASE_MAX: i32 = 4 * ROOK_PHASE + 8 * MINOR_PHASE;

/// Where a walk's weights go: `count` times weight `index`, signed (Red minus Black).
pub(crate) trait Sink {
    /// Counts weight `index` `count` times (negative: for Black).
    fn add(&mut self, index: usize, count: i32);

    /// Counts a `color` `kind` piece on `sq`: its material and its square weight (`square`
    /// is the square table's index). The engine's sum overrides it with one lookup.
    #[inline(always)]
    fn piece(&mut self, color: Color, kind: PieceKind, sq: Square, square: usize) {
        let _ = sq;
        let sign = if color == Color::Red { 1 } else { -1 };
        self.add(at::MATERIAL + kind.index(), sign);
        self.add(at::KING_SQUARES + kind.index() * SQUARES + square, sign);
    }
}

/// What the per-kind terms of one side need.
struct Side {
    color: Color,
    /// +1 for Red, -1 for Black: the counts are Red minus Black.
    sign: i32,
    enemy_king: Square,
    /// Files holding this side's pawns, and either side's, as bit masks.
    own_pawn_files: u16,
    any_pawn_files: u16,
}

impl Side {
    /// Rank of `sq` counted from this side's back rank (5 and up: across the river).
    #[inline(always)]
    fn rank(&self, sq: Square) -> usize {
        (if self.color == Color::Red { sq.rank() } else { 9 - sq.rank() }) as usize
    }

    /// Index of `sq` in a piece-square table, from this side's view.
    #[inline(always)]
    fn square(&self, sq: Square) -> usize {
        let f = sq.file() as usize;
        square_index(self.rank(sq), if f < 4 { f } else { 8 - f })
    }
}

/// Whether `sq` is on files c..g, the ones next to the palace.
#[inline(always)]
fn near_palace_file(sq: Square) -> bool {
    (2..=6).contains(&sq.file())
}

/// Files holding `color`'s pawns, as a bit mask.
#[inline]
fn pawn_files(pos: &Position, color: Color) -> u16 {
    pos.squares_of(color, PieceKind::Pawn).fold(0, |files, sq| files | 1 << sq.file())
}

/// Walks every feature of `pos` into `sink`; returns the phase (0 ..= `PHASE_MAX`).
#[inline(always)]
pub(crate) fn walk<K: Sink>(pos: &Position, sink: &mut K) -> i32 {
    let pawn_files = [pawn_files(pos, Color::Red), pawn_files(pos, Color::Black)];
    let mut phase = 0;
    for color in [Color::Red, Color::Black] {
        let side = Side {
            color,
            sign: if color == Color::Red { 1 } else { -1 },
            enemy_king: pos.king_square(color.opp()),
            own_pawn_files: pawn_files[color.index()],
            any_pawn_files: pawn_files[0] | pawn_files[1],
        };
        // King, advisors and elephants have no terms of their own: the guards count in
        // king safety. One call per kind, so each kind's terms are inlined in its loop.
        let none = |_: &Position, _: &Side, _: Square, _: &mut K| false;
        each_piece(pos, &side, sink, PieceKind::King, none);
        each_piece(pos, &side, sink, PieceKind::Advisor, none);
        each_piece(pos, &side, sink, PieceKind::Elephant, none);
        let attackers = [
            each_piece(pos, &side, sink, PieceKind::Rook, rook),
            each_piece(pos, &side, sink, PieceKind::Horse, horse),
            each_piece(pos, &side, sink, PieceKind::Cannon, cannon),
            each_piece(pos, &side, sink, PieceKind::Pawn, |_, side, sq, _| pawn(side, sq)),
        ];
        phase += ROOK_PHASE * pos.count(color, PieceKind::Rook) as i32
            + MINOR_PHASE * (pos.count(color, PieceKind::Horse) + pos.count(color, PieceKind::Cannon)) as i32;
        king_attack(pos, &side, attackers, sink);
    }
    let tempo = if pos.side_to_move() == Color::Red { 1 } else { -1 };
    sink.add(at::TEMPO, tempo);
    phase.min(PHASE_MAX)
}

/// Counts every `kind` piece of `side` (material and square), then its own `terms`, which
/// say whether it attacks near the enemy palace; returns how many do.
#[inline(always)]
fn each_piece<K: Sink>(
    pos: &Position,
    side: &Side,
    sink: &mut K,
    kind: PieceKind,
    terms: impl Fn(&Position, &Side, Square, &mut K) -> bool,
) -> i32 {
    let mut attackers = 0;
    for sq in pos.squares_of(side.color, kind) {
        sink.piece(side.color, kind, sq, side.square(sq));
        attackers += terms(pos, side, sq, sink) as i32;
    }
    attackers
}

/// A horse: mobility and blocked legs; attacks across the river near the palace.
#[inline(always)]
fn horse(pos: &Position, side: &Side, sq: Square, sink: &mut impl Sink) -> bool {
    let them = side.color.opp();
    let (mut mobility, mut blocked) = (0, 0);
    for (leg, jumps) in HORSE {
        if pos.is_empty(sq.offset(leg)) {
            for j in jumps {
                let t = sq.offset(j);
                if pos.is_empty(t) || pos.has_piece_of(t, them) {
                    mobility += 1;
                }
            }
        } else {
            blocked += 1;
        }
    }
    sink.add(at::HORSE_MOBILITY + mobility, side.sign);
    if blocked > 0 {
        sink.add(at::HORSE_BLOCKED_LEG, side.sign * blocked);
    }
    side.rank(sq) >= 5 && near_palace_file(sq)
}

/// The empty points from `sq` along step `d`, and the first point that is not empty
/// (a piece or off the board).
#[inline(always)]
fn empty_run(pos: &Position, sq: Square, d: i16) -> (usize, Square) {
    let (mut n, mut t) = (0, sq.offset(d));
    while pos.is_empty(t) {
        n += 1;
        t = t.offset(d);
    }
    (n, t)
}

/// A rook: mobility, open and half-open files; attacks across the river or on the palace
/// files.
#[inline(always)]
fn rook(pos: &Position, side: &Side, sq: Square, sink: &mut impl Sink) -> bool {
    let mut mobility = 0;
    for d in ORTHO {
        let (empty, t) = empty_run(pos, sq, d);
        mobility += empty + pos.has_piece_of(t, side.color.opp()) as usize;
    }
    sink.add(at::ROOK_MOBILITY + mobility, side.sign);
    let file = sq.file();
    let bit = 1u16 << file;
    if side.any_pawn_files & bit == 0 {
        sink.add(at::ROOK_FILES, side.sign);
    } else if side.own_pawn_files & bit == 0 {
        sink.add(at::ROOK_FILES + 1, side.sign);
    }
    side.rank(sq) >= 5 || (3..=5).contains(&file)
}

/// A cannon: mobility (quiet moves), aimed at the enemy king
/// (see `CANNON_AIMED`); attacks across the river or on the king's file.
#[inline(always)]
fn cannon(pos: &Position, side: &Side, sq: Square, sink: &mut impl Sink) -> bool {
    // Quiet moves only: a capture over a screen would double the scan for little.
    let mobility: usize = ORTHO.iter().map(|&d| empty_run(pos, sq, d).0).sum();
    sink.add(at::CANNON_MOBILITY + mobility, side.sign);
    let ek = side.enemy_king;
    if let Some(d) = line_step(sq, ek) {
        let mut between = 0;
        let mut t = sq.offset(d);
        while t != ek && between < 3 {
            if !pos.is_empty(t) {
                between += 1;
            }
            t = t.offset(d);
        }
        if between < 3 {
            sink.add(at::CANNON_AIMED + between, side.sign);
        }
    }
    side.rank(sq) >= 5 || sq.file() == ek.file()
}

/// The mailbox step from `from` towards `to` when they share a file or rank.
#[inline(always)]
fn line_step(from: Square, to: Square) -> Option<i16> {
    if from.file() == to.file() {
        Some(if to.rank() > from.rank() { 16 } else { -16 })
    } else if from.rank() == to.rank() {
        Some(if to.file() > from.file() { 1 } else { -1 })
    } else {
        None
    }
}

/// A pawn (its advancement is in its square table): attacks near the palace.
#[inline(always)]
fn pawn(side: &Side, sq: Square) -> bool {
    (6..=8).contains(&side.rank(sq)) && near_palace_file(sq)
}

/// `side`'s attackers near the enemy palace (rooks, horses, cannons, pawns), counted apart when it still
/// has a rook, and again per advisor or elephant the defender has lost.
#[inline(always)]
fn king_attack(pos: &Position, side: &Side, attackers: [i32; 4], sink: &mut impl Sink) {
    let them = side.color.opp();
    let guards = pos.count(them, PieceKind::Advisor) + pos.count(them, PieceKind::Elephant);
    let missing = 4 - guards.min(4) as i32;
    let with_rook = if pos.count(side.color, PieceKind::Rook) > 0 { 4 } else { 0 };
    for (slot, &n) in attackers.iter().enumerate() {
        if n > 0 {
            sink.add(at::KING_ATTACK + with_rook + slot, side.sign * n);
            if missing > 0 {
                sink.add(at::KING_ATTACK_PER_MISSING_GUARD + with_rook + slot, side.sign * n * missing);
            }
        }
    }
}
