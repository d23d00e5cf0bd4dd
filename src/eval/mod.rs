//! Static evaluation in centipawns from the side to move's view (a pawn ≈ 100).
//!
//! Material and piece-square tables (`pst.rs`) plus xiangqi knowledge (`terms.rs`): king
//! safety against attackers near the palace, worse without advisors and elephants; rook
//! mobility and open files; horse mobility and blocked legs; cannons aimed at the king
//! through zero, one or two pieces; crossed and advanced pawns; tempo. Each term is a
//! (midgame, endgame) pair blended by the phase (rooks, horses and cannons left).

mod pst;
mod terms;

use crate::board::{Color, Position};
pub use pst::{material, piece_value, square_bonus};

/// One named evaluation term, from Red's point of view.
#[derive(Clone, Debug)]
pub struct Term {
    /// What it measures.
    pub name: &'static str,
    /// Red's share minus Black's, in centipawns.
    pub red_minus_black: i32,
}

#[inline]
fn blend(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (terms::PHASE_MAX - phase)) / terms::PHASE_MAX
}

/// The evaluation split into its terms (for the `eval` debugging command); they sum to
/// `evaluate` from Red's side.
pub fn breakdown(pos: &Position) -> Vec<Term> {
    let s = terms::compute(pos);
    (0..terms::TERMS)
        .map(|i| Term { name: terms::NAMES[i], red_minus_black: blend(s.mg[i], s.eg[i], s.phase) })
        .collect()
}

/// The evaluation from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let s = terms::compute(pos);
    let mut red = 0;
    for i in 0..terms::TERMS {
        red += blend(s.mg[i], s.eg[i], s.phase);
    }
    if pos.side_to_move() == Color::Red {
        red
    } else {
        -red
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mirror(fen: &str) -> String {
        // Swap colours and flip the board top to bottom (files stay): same position, other side.
        let mut parts = fen.split(' ');
        let board: Vec<String> = parts
            .next()
            .unwrap()
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
                    .collect()
            })
            .collect();
        let side = if parts.next() == Some("w") { "b" } else { "w" };
        format!("{} {side} - - 0 1", board.join("/"))
    }

    #[test]
    fn symmetric_positions_score_the_same_for_the_mover() {
        for fen in [
            crate::board::START_FEN,
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
        ] {
            let a = Position::from_fen(fen).unwrap();
            let b = Position::from_fen(&mirror(fen)).unwrap();
            assert_eq!(evaluate(&a), evaluate(&b), "{fen}");
        }
        let start = Position::startpos();
        let red: i32 = breakdown(&start).iter().filter(|t| t.name != "tempo").map(|t| t.red_minus_black).sum();
        assert_eq!(red, 0);
    }

    #[test]
    fn breakdown_sums_to_evaluate_and_material_counts() {
        // Red has an extra rook.
        let pos = Position::from_fen("3akab2/9/4b4/9/9/9/9/9/R8/2BAKAB2 w - - 0 1").unwrap();
        let terms = breakdown(&pos);
        let sum: i32 = terms.iter().map(|t| t.red_minus_black).sum();
        assert_eq!(sum, evaluate(&pos));
        let material = terms.iter().find(|t| t.name == "material").unwrap().red_minus_black;
        assert!((850..=1000).contains(&material), "{material}");
        assert!(evaluate(&pos) > 700);
    }

    #[test]
    fn knowledge_terms_point_the_right_way() {
        // A crossed pawn near the palace is worth more than one at home.
        let home = Position::from_fen("3k5/9/9/9/9/9/4P4/9/9/4K4 w - - 0 1").unwrap();
        let deep = Position::from_fen("3k5/9/4P4/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
        assert!(evaluate(&deep) > evaluate(&home) + 40);
        // A central cannon aimed at the king through two pieces scores.
        let aimed = Position::from_fen("4k4/4a4/9/9/4p4/9/9/4C4/9/3K5 w - - 0 1").unwrap();
        let term = breakdown(&aimed).into_iter().find(|t| t.name == "cannon_aimed_at_king").unwrap();
        assert!(term.red_minus_black > 0);
        // King safety: the same attack hurts more when the defender lost its advisors.
        let guarded = Position::from_fen("3akab2/9/4b4/3R5/9/9/9/9/9/5K3 w - - 0 1").unwrap();
        let bare = Position::from_fen("4k4/9/9/3R5/9/9/9/9/9/5K3 w - - 0 1").unwrap();
        let ks = |p: &Position| breakdown(p).into_iter().find(|t| t.name == "king_safety").unwrap().red_minus_black;
        assert!(ks(&bare) > ks(&guarded) && ks(&guarded) > 0);
    }
}
