//! What the hand-written evaluation's weights are written in: `S`, a (midgame, endgame) pair,
//! and the shape of a piece-square table (`SQUARES`, `ranks`). `weights.rs` and `params.rs`
//! both read this file; it reads neither.

/// A (midgame, endgame) pair in centipawns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

/// Piece-square tables have one weight per (rank from the owner's back rank, file column):
/// columns are the a/i, b/h, c/g, d/f and e files (the board is left-right symmetric).
pub const SQUARES: usize = 50;

/// A square table given up to its last rank with a weight: the ranks past it are zero.
/// `weights.rs` writes the king's, advisors' and elephants' tables so (they never stand there
/// in a game, and the tuner leaves a weight it never saw at zero).
pub const fn ranks<const N: usize>(given: [S; N]) -> [S; SQUARES] {
    let mut table = [S(0, 0); SQUARES];
    let mut i = 0;
    while i < N {
        table[i] = given[i];
        i += 1;
    }
    table
}
