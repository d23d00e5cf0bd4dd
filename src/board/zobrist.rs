//! Zobrist keys: one per (piece, square) and one for the side to move, fixed at compile time.

/// splitmix64 step, usable in const context: (next state, output).
pub const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const SEED: u64 = 0x4368_7568_6521_0001; // "Chuhe!" plus a version; fixed so keys never change

const fn build() -> ([[u64; 256]; 16], u64) {
    let mut table = [[0u64; 256]; 16];
    let mut state = SEED;
    let mut p = 0;
    while p < 16 {
        let mut s = 0;
        while s < 256 {
            let (ns, v) = splitmix(state);
            state = ns;
            table[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    let (_, side) = splitmix(state);
    (table, side)
}

const TABLES: ([[u64; 256]; 16], u64) = build();

/// Key of piece code `p` (see `Piece`) on padded square `s`.
pub static PIECE_SQUARE: [[u64; 256]; 16] = TABLES.0;
/// Toggled whenever the side to move changes; present when Black is to move.
pub const SIDE: u64 = TABLES.1;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Color, Piece, PieceKind, Square};

    #[test]
    fn every_piece_on_every_point_has_its_own_key() {
        // Composed positions put any piece (but a king) on any point: each needs a key.
        let mut keys: Vec<u64> = Square::all()
            .flat_map(|s| {
                [Color::Red, Color::Black].into_iter().flat_map(move |c| {
                    PieceKind::ALL.into_iter().map(move |k| PIECE_SQUARE[Piece::new(c, k).0 as usize][s.index()])
                })
            })
            .chain([SIDE])
            .collect();
        let n = keys.len();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), n);
        assert!(!keys.contains(&0));
    }
}
