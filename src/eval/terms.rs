//! The evaluation terms: every piece's material, square and phase weight, one function per
//! kind for its own terms (returning its attack units on the enemy king), then king safety
//! and tempo. Every term is a (midgame, endgame) pair, Red minus Black; `mod.rs` blends
//! them by the phase.

use super::pst::{material, square_bonus};
use crate::board::tables::{HORSE, ORTHO};
use crate::board::{Color, PieceKind, Position, Square};

/// Number of terms.
pub(crate) const TERMS: usize = 10;

/// Term names, in the order of `Scores::mg` and `Scores::eg`.
pub(crate) const NAMES: [&str; TERMS] = [
    "material",
    "piece_squares",
    "pawn_advancement",
    "king_safety",
    "rook_mobility",
    "rook_open_files",
    "horse_mobility",
    "horse_blocked_legs",
    "cannon_aimed_at_king",
    "tempo",
];

const MATERIAL_T: usize = 0;
const PST_T: usize = 1;
const PAWN_T: usize = 2;
const KING_SAFETY_T: usize = 3;
const ROOK_MOB_T: usize = 4;
const ROOK_FILE_T: usize = 5;
const HORSE_MOB_T: usize = 6;
const HORSE_LEG_T: usize = 7;
const CANNON_T: usize = 8;
const TEMPO_T: usize = 9;

/// Phase weight of each rook, horse and cannon; the sum at the start is `PHASE_MAX`.
const ROOK_PHASE: i32 = 6;
const MINOR_PHASE: i32 = 3;
/// Phase of the full set of rooks, horses and cannons (pure midgame).
pub(crate) const PHASE_MAX: i32 = 4 * ROOK_PHASE + 8 * MINOR_PHASE;

/// Crossed-pawn bonus by rank from its owner's side (midgame, endgame).
const PAWN_RANK_MG: [i32; 10] = [0, 0, 0, 0, 0, 30, 45, 55, 40, 5];
const PAWN_RANK_EG: [i32; 10] = [0, 0, 0, 0, 0, 50, 70, 85, 60, 15];
/// Extra for a crossed pawn on the three central files near the palace.
const PAWN_CENTRAL: (i32, i32) = (15, 15);

/// Per point a rook can reach, over a baseline of 6.
const ROOK_MOBILITY: (i32, i32) = (4, 5);
const ROOK_MOBILITY_BASE: i32 = 6;
/// Rook on a file with no pawns at all / with only enemy pawns.
const ROOK_OPEN_FILE: (i32, i32) = (18, 8);
const ROOK_HALF_OPEN_FILE: (i32, i32) = (8, 4);

/// Per point a horse can jump to, over a baseline of 3; per blocked leg.
const HORSE_MOBILITY: (i32, i32) = (6, 8);
const HORSE_MOBILITY_BASE: i32 = 3;
const HORSE_BLOCKED_LEG: (i32, i32) = (-5, -3);

/// A cannon on the enemy king's file or rank, by the number of pieces between them: none
/// (an "empty" cannon: the king's file is frozen), one (that is check already: scored by
/// search, not here), two (moving a screen away gives a discovered check).
const CANNON_AIMED: [(i32, i32); 3] = [(45, 20), (0, 0), (20, 6)];

/// King-safety attack units of each attacker near the enemy palace.
const ROOK_ATTACK_UNITS: i32 = 3;
const HORSE_ATTACK_UNITS: i32 = 2;
const CANNON_ATTACK_UNITS: i32 = 2;
const PAWN_ATTACK_UNITS: i32 = 1;
/// Penalty per attack unit, and the extra per missing advisor or elephant.
const SAFETY_PER_UNIT: i32 = 3;
const SAFETY_PER_UNIT_PER_MISSING_GUARD: i32 = 4;

const TEMPO: (i32, i32) = (10, 5);

/// Midgame and endgame value of every term, Red minus Black, and the phase.
pub(crate) struct Scores {
    pub mg: [i32; TERMS],
    pub eg: [i32; TERMS],
    pub phase: i32,
}

impl Scores {
    #[inline(always)]
    fn add(&mut self, term: usize, sign: i32, v: (i32, i32)) {
        self.mg[term] += sign * v.0;
        self.eg[term] += sign * v.1;
    }
}

#[inline(always)]
fn scaled(v: (i32, i32), n: i32) -> (i32, i32) {
    (v.0 * n, v.1 * n)
}

/// What the per-kind terms of one side need.
struct Side {
    color: Color,
    /// +1 for Red, -1 for Black: the terms are Red minus Black.
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

/// Computes every term of `pos`.
pub(crate) fn compute(pos: &Position) -> Scores {
    let mut s = Scores { mg: [0; TERMS], eg: [0; TERMS], phase: 0 };
    let pawn_files = [pawn_files(pos, Color::Red), pawn_files(pos, Color::Black)];
    let mut attack_units = [0i32; 2]; // against each side's king
    for color in [Color::Red, Color::Black] {
        let side = Side {
            color,
            sign: if color == Color::Red { 1 } else { -1 },
            enemy_king: pos.king_square(color.opp()),
            own_pawn_files: pawn_files[color.index()],
            any_pawn_files: pawn_files[0] | pawn_files[1],
        };
        // King, advisors and elephants have no terms of their own: the guards count in
        // king safety.
        let none = |_: &Position, _: &Side, _: Square, _: &mut Scores| 0;
        attack_units[color.opp().index()] += each_piece(pos, &side, &mut s, PieceKind::King, none)
            + each_piece(pos, &side, &mut s, PieceKind::Advisor, none)
            + each_piece(pos, &side, &mut s, PieceKind::Elephant, none)
            + each_piece(pos, &side, &mut s, PieceKind::Horse, horse)
            + each_piece(pos, &side, &mut s, PieceKind::Rook, rook)
            + each_piece(pos, &side, &mut s, PieceKind::Cannon, cannon)
            + each_piece(pos, &side, &mut s, PieceKind::Pawn, pawn);
    }
    for color in [Color::Red, Color::Black] {
        king_safety(pos, color, attack_units[color.index()], &mut s);
    }
    let tempo_sign = if pos.side_to_move() == Color::Red { 1 } else { -1 };
    s.add(TEMPO_T, tempo_sign, TEMPO);
    s.phase = s.phase.min(PHASE_MAX);
    s
}

/// Phase weight of one piece of `kind`.
#[inline(always)]
const fn phase_weight(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::Rook => ROOK_PHASE,
        PieceKind::Horse | PieceKind::Cannon => MINOR_PHASE,
        _ => 0,
    }
}

/// Scores every `kind` piece of `side`: material, square, phase, then `terms` (the kind's
/// own terms, returning its attack units on the enemy king). Returns the units.
#[inline(always)]
fn each_piece(
    pos: &Position,
    side: &Side,
    s: &mut Scores,
    kind: PieceKind,
    terms: impl Fn(&Position, &Side, Square, &mut Scores) -> i32,
) -> i32 {
    let mut units = 0;
    for sq in pos.squares_of(side.color, kind) {
        s.add(MATERIAL_T, side.sign, material(kind));
        s.add(PST_T, side.sign, square_bonus(side.color, kind, sq));
        s.phase += phase_weight(kind);
        units += terms(pos, side, sq, s);
    }
    units
}

/// A horse: mobility and blocked legs; attack units across the river near the palace.
#[inline]
fn horse(pos: &Position, side: &Side, sq: Square, s: &mut Scores) -> i32 {
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
    s.add(HORSE_MOB_T, side.sign, scaled(HORSE_MOBILITY, mobility - HORSE_MOBILITY_BASE));
    s.add(HORSE_LEG_T, side.sign, scaled(HORSE_BLOCKED_LEG, blocked));
    if side.rank(sq) >= 5 && near_palace_file(sq) {
        HORSE_ATTACK_UNITS
    } else {
        0
    }
}

/// A rook: mobility, open and half-open files; attack units across the river or on the
/// palace files.
#[inline]
fn rook(pos: &Position, side: &Side, sq: Square, s: &mut Scores) -> i32 {
    let mut mobility = 0;
    for d in ORTHO {
        let mut t = sq.offset(d);
        while pos.is_empty(t) {
            mobility += 1;
            t = t.offset(d);
        }
        if pos.has_piece_of(t, side.color.opp()) {
            mobility += 1;
        }
    }
    s.add(ROOK_MOB_T, side.sign, scaled(ROOK_MOBILITY, mobility - ROOK_MOBILITY_BASE));
    let file = sq.file();
    let bit = 1u16 << file;
    if side.any_pawn_files & bit == 0 {
        s.add(ROOK_FILE_T, side.sign, ROOK_OPEN_FILE);
    } else if side.own_pawn_files & bit == 0 {
        s.add(ROOK_FILE_T, side.sign, ROOK_HALF_OPEN_FILE);
    }
    if side.rank(sq) >= 5 || (3..=5).contains(&file) {
        ROOK_ATTACK_UNITS
    } else {
        0
    }
}

/// A cannon: aimed at the enemy king (see `CANNON_AIMED`); attack units across the river
/// or on the king's file.
#[inline]
fn cannon(pos: &Position, side: &Side, sq: Square, s: &mut Scores) -> i32 {
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
            s.add(CANNON_T, side.sign, CANNON_AIMED[between]);
        }
    }
    if side.rank(sq) >= 5 || sq.file() == ek.file() {
        CANNON_ATTACK_UNITS
    } else {
        0
    }
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

/// A pawn across the river: advancement (more near the palace centre) and attack units
/// near the palace.
#[inline]
fn pawn(_: &Position, side: &Side, sq: Square, s: &mut Scores) -> i32 {
    let rr = side.rank(sq);
    if rr < 5 {
        return 0;
    }
    s.add(PAWN_T, side.sign, (PAWN_RANK_MG[rr], PAWN_RANK_EG[rr]));
    let near_king = (6..=8).contains(&rr);
    if near_king && (3..=5).contains(&sq.file()) {
        s.add(PAWN_T, side.sign, PAWN_CENTRAL);
    }
    if near_king && near_palace_file(sq) {
        PAWN_ATTACK_UNITS
    } else {
        0
    }
}

/// The attacks on `color`'s king, worse for every missing advisor or elephant, and halved
/// when the attacker has no rook left.
fn king_safety(pos: &Position, color: Color, attack_units: i32, s: &mut Scores) {
    let sign = if color == Color::Red { -1 } else { 1 };
    let guards = pos.count(color, PieceKind::Advisor) + pos.count(color, PieceKind::Elephant);
    let missing = 4 - guards as i32;
    let mut units = attack_units;
    if pos.count(color.opp(), PieceKind::Rook) == 0 {
        units /= 2;
    }
    let penalty = units * (SAFETY_PER_UNIT + SAFETY_PER_UNIT_PER_MISSING_GUARD * missing);
    s.add(KING_SAFETY_T, sign, (penalty, penalty / 3));
}
