//! Constant look-up tables over the padded mailbox: palace, halves, deltas.

use super::piece::Color;
use super::square::{Square, RANK_OFFSET};

const fn build_palace() -> [u8; 256] {
    // bit 0: Red palace, bit 1: Black palace
    let mut t = [0u8; 256];
    let mut f = 3;
    while f <= 5 {
        let mut r = 0;
        while r <= 2 {
            t[Square::new(f, r).index()] |= 1;
            t[Square::new(f, 9 - r).index()] |= 2;
            r += 1;
        }
        f += 1;
    }
    t
}

static PALACE: [u8; 256] = build_palace();

/// Whether `sq` is inside `color`'s palace.
#[inline]
pub fn in_palace(sq: Square, color: Color) -> bool {
    PALACE[sq.index()] & (1 << color as u8) != 0
}

/// Whether the on-board `sq` lies on `color`'s own side of the river.
#[inline]
pub fn own_half(sq: Square, color: Color) -> bool {
    // Red's half is rows RANK_OFFSET..RANK_OFFSET+4 (ranks 0-4).
    let red = sq.0 < (RANK_OFFSET + 5) * 16;
    red == (color == Color::Red)
}

/// One step forward for a pawn of `color`.
#[inline]
pub const fn forward(color: Color) -> i16 {
    match color {
        Color::Red => 16,
        Color::Black => -16,
    }
}

/// Orthogonal steps.
pub const ORTHO: [i16; 4] = [1, -1, 16, -16];
/// Diagonal steps.
pub const DIAG: [i16; 4] = [17, 15, -15, -17];
/// Horse jumps with their leg: (leg delta, [two jump deltas through that leg]).
pub const HORSE: [(i16, [i16; 2]); 4] = [(16, [31, 33]), (-16, [-31, -33]), (1, [18, -14]), (-1, [14, -18])];
/// Squares from which a horse attacks a target, keyed by the target's diagonal neighbour
/// (the leg every such horse uses): (diagonal delta, [two horse deltas]).
pub const HORSE_ATTACK: [(i16, [i16; 2]); 4] = [(17, [18, 33]), (15, [14, 31]), (-15, [-14, -31]), (-17, [-18, -33])];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_agree_with_coordinates() {
        let red_palace = Square::all().filter(|&s| in_palace(s, Color::Red)).count();
        assert_eq!(red_palace, 9);
        assert!(in_palace(Square::new(4, 8), Color::Black));
        assert!(own_half(Square::new(0, 4), Color::Red));
        assert!(!own_half(Square::new(0, 5), Color::Red));
        assert!(own_half(Square::new(0, 5), Color::Black));
        // Every horse or elephant step from a board point stays inside the array.
        for s in Square::all() {
            for (_, jumps) in HORSE {
                for j in jumps {
                    let t = s.0 as i16 + j;
                    assert!((0..256).contains(&t));
                }
            }
        }
        // The horse-attack table is the inverse of the horse-move table.
        for (leg, jumps) in HORSE {
            for j in jumps {
                // A horse at h jumping by j uses leg h+leg; seen from the target t = h + j,
                // the horse sits at -j and the leg at -j + leg, a diagonal neighbour of t.
                let diag = -j + leg;
                let entry = HORSE_ATTACK.iter().find(|(d, _)| *d == diag).unwrap();
                assert!(entry.1.contains(&-j));
            }
        }
    }
}
