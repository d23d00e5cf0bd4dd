//! Threat inputs (issue 70): which pieces attack which. For each pseudo-legal capture on the
//! board (either side's, whoever is to move) one input, seen from a perspective as (attacker
//! own or enemy, attacker's kind, victim's kind, victim's point), the board turned to the
//! perspective like the piece inputs: 2 × 7 × 7 × 90 = 8,820. They change with every move in
//! ways no local update follows (sliders, cannon screens), so the engine computes them afresh
//! at each evaluation, over at most `MAX_THREATS` captures.

use crate::board::{Color, MoveList, PieceKind, Position};

/// Threat inputs per perspective.
pub const THREAT_FEATURES: usize = 2 * 7 * 7 * 90;
/// Most threats an evaluation sums (the first found, Red's pieces first): bounds the
/// accumulator's range with `MAX_PIECES`.
pub const MAX_THREATS: usize = 48;
/// Blocks of 90 points per attacker side: attacker kind × victim kind.
const BLOCKS_PER_SIDE: usize = 7 * 7;

/// A position's threats from Red's view (`feature` for `Color::Red`); `flipped` gives Black's.
#[derive(Clone, Copy)]
pub struct Threats {
    /// Threat inputs from Red's view.
    pub red: [u16; MAX_THREATS],
    /// How many.
    pub count: u8,
}

impl Threats {
    /// The threats of `pos`, from Red's view.
    pub fn of(pos: &Position) -> Threats {
        let mut t = Threats { red: [0; MAX_THREATS], count: 0 };
        let mut list = MoveList::new();
        for color in [Color::Red, Color::Black] {
            list.clear();
            pos.pseudo_captures_of(color, &mut list);
            for m in &list {
                if t.count as usize == MAX_THREATS {
                    return t;
                }
                let (Some(attacker), Some(victim)) = (pos.piece_at(m.from()), pos.piece_at(m.to())) else {
                    continue;
                };
                let point = m.to().rank() as usize * 9 + m.to().file() as usize;
                t.red[t.count as usize] = feature(color != Color::Red, attacker.kind(), victim.kind(), point) as u16;
                t.count += 1;
            }
        }
        t
    }

    /// The threat inputs seen from `persp`.
    #[inline]
    pub fn seen_by(&self, persp: Color) -> impl Iterator<Item = usize> + '_ {
        let black = persp == Color::Black;
        self.red[..self.count as usize].iter().map(move |&f| if black { flipped(f as usize) } else { f as usize })
    }
}

/// The threat input of an attacker of kind `attacker` (the perspective's enemy's when
/// `enemy`) on a victim of kind `victim` at `point` (rank × 9 + file, the perspective's view).
#[inline(always)]
pub fn feature(enemy: bool, attacker: PieceKind, victim: PieceKind, point: usize) -> usize {
    ((enemy as usize * 7 + attacker.index()) * 7 + victim.index()) * 90 + point
}

/// The same threat seen from the other side: attacker's side swapped, the board turned.
#[inline(always)]
pub const fn flipped(threat: usize) -> usize {
    let (block, point) = (threat / 90, threat % 90);
    let side = block / BLOCKS_PER_SIDE;
    ((1 - side) * BLOCKS_PER_SIDE + block % BLOCKS_PER_SIDE) * 90 + (9 - point / 9) * 9 + point % 9
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::mirrored;

    #[test]
    fn threats_are_the_captures_seen_from_each_side() {
        // Red's rook on a0 attacks Black's pawn on a6; Black's cannon on b7 attacks Red's
        // horse on b2 over the screen on b3. Nothing else is attacked.
        let fen = "3k5/9/1c7/p8/9/9/1P7/1N7/9/R3K4";
        let pos = Position::from_fen(&format!("{fen} w - - 0 1")).unwrap();
        let t = Threats::of(&pos);
        let red: Vec<usize> = t.seen_by(Color::Red).collect();
        let (rook, pawn, cannon, horse) = (PieceKind::Rook, PieceKind::Pawn, PieceKind::Cannon, PieceKind::Horse);
        assert_eq!(red, vec![feature(false, rook, pawn, 6 * 9), feature(true, cannon, horse, 2 * 9 + 1)]);
        // Black sees the same, the sides swapped and the board turned.
        let black: Vec<usize> = t.seen_by(Color::Black).collect();
        assert_eq!(black, vec![feature(true, rook, pawn, 3 * 9), feature(false, cannon, horse, 7 * 9 + 1)]);
        // Whoever is to move, the same pieces are attacked.
        let other = Position::from_fen(&format!("{fen} b - - 0 1")).unwrap();
        assert_eq!(Threats::of(&other).red, t.red);
    }

    #[test]
    fn flipping_and_mirroring_are_involutions_over_all_inputs() {
        let mut seen = vec![false; THREAT_FEATURES];
        for f in 0..THREAT_FEATURES {
            assert_eq!(flipped(flipped(f)), f);
            assert_eq!(mirrored(mirrored(f)), f);
            assert!(flipped(f) < THREAT_FEATURES && mirrored(f) < THREAT_FEATURES);
            seen[flipped(f)] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn a_turned_position_has_the_same_threats_from_the_other_side() {
        crate::board::testing::random_games(3, 9, 120, |pos, _, _, _| {
            let turned = pos.flipped().unwrap();
            let (a, b) = (Threats::of(pos), Threats::of(&turned));
            let mut red: Vec<usize> = a.seen_by(Color::Red).collect();
            let mut black: Vec<usize> = b.seen_by(Color::Black).collect();
            red.sort_unstable();
            black.sort_unstable();
            assert_eq!(red, black, "{}", pos.to_fen());
        });
    }
}
