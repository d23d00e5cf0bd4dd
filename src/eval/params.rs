//! Every number of the hand-written evaluation, as one flat table of (midgame, endgame)
//! weights that `chuhe tune` fits. The values live in `weights.rs`, one readable table per
//! section, written in `pair.rs`'s terms; this file names the sections, their place in the
//! flat table and their term.

use super::pair::{S, SQUARES};
use super::weights;

/// One named block of weights.
#[derive(Clone, Copy, Debug)]
pub struct Section {
    /// The constant's name in `weights.rs`.
    pub name: &'static str,
    /// Its first index in the flat table.
    pub start: usize,
    /// Its number of weights.
    pub len: usize,
    /// The evaluation term it counts in (`eval` breakdown).
    pub term: &'static str,
    /// Weights printed per line in `weights.rs` (5 for a piece-square table: one rank).
    pub row: usize,
    /// What it weighs (the doc comment written above it).
    pub doc: &'static str,
}

const fn starts<const N: usize>(lens: [usize; N]) -> [usize; N] {
    let mut out = [0; N];
    let mut i = 1;
    while i < N {
        out[i] = out[i - 1] + lens[i - 1];
        i += 1;
    }
    out
}

macro_rules! sections {
    ($( $name:ident [$len:expr] $term:literal row $row:literal $doc:literal; )*) => {
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        enum Id { $($name),* }
        const LENS: [usize; [$(Id::$name),*].len()] = [$($len),*];
        const STARTS: [usize; LENS.len()] = starts(LENS);

        /// Where each section starts in the flat table.
        pub mod at {
            $(
                #[doc = $doc]
                pub const $name: usize = super::STARTS[super::Id::$name as usize];
            )*
        }

        /// Every section, in table order.
        pub const SECTIONS: [Section; LENS.len()] = [$(
            Section {
                name: stringify!($name),
                start: at::$name,
                len: $len,
                term: $term,
                row: $row,
                doc: $doc,
            }
        ),*];

        /// Number of weights.
        pub const COUNT: usize = STARTS[LENS.len() - 1] + LENS[LENS.len() - 1];

        const fn flatten() -> [S; COUNT] {
            let mut out = [S(0, 0); COUNT];
            $(
                let src = &weights::$name;
                let mut i = 0;
                while i < src.len() {
                    out[at::$name + i] = src[i];
                    i += 1;
                }
            )*
            out
        }
    };
}

sections! {
    MATERIAL [7] "material" row 7
        "Material by kind: king, advisor, elephant, horse, rook, cannon, pawn.";
    KING_SQUARES [SQUARES] "piece_squares" row 5
        "King by point; rows are ranks from the owner's back rank, columns the a/i..e files.";
    ADVISOR_SQUARES [SQUARES] "piece_squares" row 5
        "Advisor by point (as the king's table).";
    ELEPHANT_SQUARES [SQUARES] "piece_squares" row 5
        "Elephant by point (as the king's table).";
    HORSE_SQUARES [SQUARES] "piece_squares" row 5
        "Horse by point (as the king's table).";
    ROOK_SQUARES [SQUARES] "piece_squares" row 5
        "Rook by point (as the king's table).";
    CANNON_SQUARES [SQUARES] "piece_squares" row 5
        "Cannon by point (as the king's table).";
    PAWN_SQUARES [SQUARES] "piece_squares" row 5
        "Pawn by point (as the king's table): advancement across the river.";
    ROOK_MOBILITY [18] "rook_mobility" row 6
        "Rook by the number of points it can move to (0..17).";
    ROOK_FILES [2] "rook_open_files" row 2
        "Rook on a file with no pawns / with only enemy pawns.";
    HORSE_MOBILITY [9] "horse_mobility" row 9
        "Horse by the number of points it can jump to (0..8).";
    HORSE_BLOCKED_LEG [1] "horse_blocked_legs" row 1
        "Horse, per blocked leg.";
    CANNON_MOBILITY [18] "cannon_mobility" row 6
        "Cannon by the number of points it can move to without capturing (0..17).";
    CANNON_AIMED [3] "cannon_aimed_at_king" row 3
        "Cannon on the enemy king's line with 0, 1 or 2 pieces between (1 is check: search's job).";
    KING_ATTACK [8] "king_safety" row 4
        "Per attacker near the enemy palace: rook, horse, cannon, pawn; then the same with a rook.";
    KING_ATTACK_PER_MISSING_GUARD [8] "king_safety" row 4
        "The same, per advisor or elephant the defender has lost.";
    TEMPO [1] "tempo" row 1
        "The side to move.";
}

/// The weights the engine evaluates with, as one flat table (compile time).
pub const FLAT: [S; COUNT] = flatten();
/// The same table, at one address.
pub static WEIGHTS: [S; COUNT] = FLAT;

/// The section holding flat index `i`.
pub fn section_of(i: usize) -> &'static Section {
    SECTIONS.iter().find(|s| (s.start..s.start + s.len).contains(&i)).expect("index in the table")
}

/// Index of a piece-square weight: `rr` the rank from the owner's back rank, `fc` the
/// distance from the nearer edge file.
#[inline(always)]
pub const fn square_index(rr: usize, fc: usize) -> usize {
    rr * 5 + fc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_tile_the_table() {
        let mut next = 0;
        for s in SECTIONS {
            assert_eq!(s.start, next, "{}", s.name);
            assert!(s.len > 0 && s.len % s.row == 0 || s.name == "MATERIAL", "{}", s.name);
            next += s.len;
        }
        assert_eq!(next, COUNT);
        assert_eq!(section_of(at::TEMPO).name, "TEMPO");
        assert_eq!(WEIGHTS[at::MATERIAL + 4], weights::MATERIAL[4]);
    }
}
