//! Static evaluation in centipawns from the side to move's view (a pawn ≈ 100).
//!
//! STUB (to be completed under the search/eval issue): material only.

use crate::board::{Color, PieceKind, Position};

/// Material value of each kind, in centipawns.
pub const PIECE_VALUE: [i32; 7] = [0, 200, 200, 400, 900, 450, 100];

/// One named evaluation term, from Red's point of view.
#[derive(Clone, Debug)]
pub struct Term {
    /// What it measures.
    pub name: &'static str,
    /// Red's share minus Black's, in centipawns.
    pub red_minus_black: i32,
}

/// The evaluation split into its terms (for the `eval` debugging command).
pub fn breakdown(pos: &Position) -> Vec<Term> {
    let mut material = 0;
    for k in PieceKind::ALL {
        material += PIECE_VALUE[k.index()] * (pos.count(Color::Red, k) as i32 - pos.count(Color::Black, k) as i32);
    }
    vec![Term { name: "material", red_minus_black: material }]
}

/// The evaluation from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let red: i32 = breakdown(pos).iter().map(|t| t.red_minus_black).sum();
    if pos.side_to_move() == Color::Red {
        red
    } else {
        -red
    }
}
