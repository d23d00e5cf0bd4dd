//! The evaluation terms, computed in one pass over both sides' pieces. Every term is a
//! (midgame, endgame) pair, Red minus Black; `mod.rs` blends them by the game phase.

use super::pst::{square_bonus_raw, MATERIAL};
use crate::board::tables::{HORSE, ORTHO};
use crate::board::{Color, Position, Square};

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

const EMPTY: u8 = 0;
const OFF: u8 = 0x40;

/// Kind index of each of a side's 16 slots (see `board::Position`).
const SLOT_KIND: [usize; 16] = [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 6, 6, 6];

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

/// Computes every term of `pos`.
pub(crate) fn compute(pos: &Position) -> Scores {
    let mut s = Scores { mg: [0; TERMS], eg: [0; TERMS], phase: 0 };
    let cells = &pos.cells;
    // Files holding pawns, per side, as bit masks.
    let mut pawn_files = [0u16; 2];
    for (c, files) in pawn_files.iter_mut().enumerate() {
        let base = 16 + 16 * c;
        for slot in 11..16 {
            let sq = pos.slot_sq[base + slot];
            if sq != 0 {
                *files |= 1 << Square(sq).file();
            }
        }
    }
    let mut attack_units = [0i32; 2]; // against each side's king
    let mut guards = [0i32; 2];
    let mut rooks = [0i32; 2];
    for c in 0..2 {
        let color = if c == 0 { Color::Red } else { Color::Black };
        let sign = if c == 0 { 1 } else { -1 };
        let base = 16 + 16 * c;
        let own_bit = 16u8 << c;
        let enemy_bit = 16u8 << (1 - c);
        let enemy_king = pos.king_square(color.opp());
        let (ek_file, ek_rank) = (enemy_king.file(), enemy_king.rank());
        for (slot, &kind) in SLOT_KIND.iter().enumerate() {
            let raw = pos.slot_sq[base + slot];
            if raw == 0 {
                continue;
            }
            let sq = Square(raw);
            s.add(MATERIAL_T, sign, MATERIAL[kind]);
            s.add(PST_T, sign, square_bonus_raw(c, kind, raw as usize));
            let file = sq.file();
            let rr = if c == 0 { sq.rank() } else { 9 - sq.rank() } as usize;
            let near_palace_file = (2..=6).contains(&file);
            let f = raw as i16;
            match kind {
                1 | 2 => guards[c] += 1,
                3 => {
                    s.phase += MINOR_PHASE;
                    let mut mobility = 0;
                    let mut blocked = 0;
                    for (leg, jumps) in HORSE {
                        if cells[(f + leg) as usize] == EMPTY {
                            for j in jumps {
                                let t = cells[(f + j) as usize];
                                if t != OFF && t & own_bit == 0 {
                                    mobility += 1;
                                }
                            }
                        } else {
                            blocked += 1;
                        }
                    }
                    s.add(HORSE_MOB_T, sign, scaled(HORSE_MOBILITY, mobility - HORSE_MOBILITY_BASE));
                    s.add(HORSE_LEG_T, sign, scaled(HORSE_BLOCKED_LEG, blocked));
                    if rr >= 5 && near_palace_file {
                        attack_units[1 - c] += HORSE_ATTACK_UNITS;
                    }
                }
                4 => {
                    s.phase += ROOK_PHASE;
                    rooks[c] += 1;
                    let mut mobility = 0;
                    for d in ORTHO {
                        let mut t = f + d;
                        while cells[t as usize] == EMPTY {
                            mobility += 1;
                            t += d;
                        }
                        if cells[t as usize] & enemy_bit != 0 {
                            mobility += 1;
                        }
                    }
                    s.add(ROOK_MOB_T, sign, scaled(ROOK_MOBILITY, mobility - ROOK_MOBILITY_BASE));
                    let bit = 1u16 << file;
                    if (pawn_files[0] | pawn_files[1]) & bit == 0 {
                        s.add(ROOK_FILE_T, sign, ROOK_OPEN_FILE);
                    } else if pawn_files[c] & bit == 0 {
                        s.add(ROOK_FILE_T, sign, ROOK_HALF_OPEN_FILE);
                    }
                    if rr >= 5 || (3..=5).contains(&file) {
                        attack_units[1 - c] += ROOK_ATTACK_UNITS;
                    }
                }
                5 => {
                    s.phase += MINOR_PHASE;
                    let d: i16 = if file == ek_file {
                        if ek_rank > sq.rank() {
                            16
                        } else {
                            -16
                        }
                    } else if sq.rank() == ek_rank {
                        if ek_file > file {
                            1
                        } else {
                            -1
                        }
                    } else {
                        0
                    };
                    if d != 0 {
                        let mut between = 0;
                        let mut t = f + d;
                        while t != enemy_king.0 as i16 && between < 3 {
                            if cells[t as usize] != EMPTY {
                                between += 1;
                            }
                            t += d;
                        }
                        if between < 3 {
                            s.add(CANNON_T, sign, CANNON_AIMED[between]);
                        }
                    }
                    if rr >= 5 || file == ek_file {
                        attack_units[1 - c] += CANNON_ATTACK_UNITS;
                    }
                }
                6 if rr >= 5 => {
                    let central = (3..=5).contains(&file) && (6..=8).contains(&rr);
                    s.add(PAWN_T, sign, (PAWN_RANK_MG[rr], PAWN_RANK_EG[rr]));
                    if central {
                        s.add(PAWN_T, sign, PAWN_CENTRAL);
                    }
                    if near_palace_file && (6..=8).contains(&rr) {
                        attack_units[1 - c] += PAWN_ATTACK_UNITS;
                    }
                }
                _ => {}
            }
        }
    }
    for c in 0..2 {
        // Attacks on side c's king, worse for every missing advisor or elephant, and
        // halved when the attacker has no rook left.
        let sign = if c == 0 { -1 } else { 1 };
        let missing = 4 - guards[c];
        let mut units = attack_units[c];
        if rooks[1 - c] == 0 {
            units /= 2;
        }
        let penalty = units * (SAFETY_PER_UNIT + SAFETY_PER_UNIT_PER_MISSING_GUARD * missing);
        s.add(KING_SAFETY_T, sign, (penalty, penalty / 3));
    }
    let tempo_sign = if pos.side_to_move() == Color::Red { 1 } else { -1 };
    s.add(TEMPO_T, tempo_sign, TEMPO);
    s.phase = s.phase.min(PHASE_MAX);
    s
}
