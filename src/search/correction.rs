//! Correction history: how far the search's scores have landed from the static evaluation in
//! positions with the same pawns and king's guard (king, advisors, elephants), kept per side
//! to move as a running average and added to the evaluation before the pruning decisions
//! read it. The evaluation's blind spots for a structure are learnt during the search
//! instead of paid for at every node.

use crate::board::{zobrist, Color, Move, PieceKind, Position};

/// The kinds whose placement keys an entry: 0 the pawns and the king's guard, 1 the pawns.
const KEY_KINDS: [&[PieceKind]; 2] =
    [&[PieceKind::Pawn, PieceKind::King, PieceKind::Advisor, PieceKind::Elephant], &[PieceKind::Pawn]];

/// Entries per side (a power of two).
const SIZE: usize = 1 << 14;
/// Entries hold centipawns times this, so small weights still move them.
const GRAIN: i32 = 256;
/// The full weight of one update (the weights below are out of this).
const WEIGHT_SCALE: i32 = 256;

/// One search thread's corrections.
pub struct CorrectionHistory {
    /// `table[side * SIZE + key % SIZE]`, in centipawns × `GRAIN`.
    table: Vec<i32>,
    kinds: &'static [PieceKind],
}

impl CorrectionHistory {
    /// An empty table keyed by the kinds numbered `key` (see `KEY_KINDS`).
    pub fn new(key: i32) -> CorrectionHistory {
        CorrectionHistory { table: vec![0; 2 * SIZE], kinds: KEY_KINDS[key.clamp(0, 1) as usize] }
    }

    /// Whether this table is keyed as `CorrectionHistory::new(key)` keys one.
    pub fn keyed_by(&self, key: i32) -> bool {
        std::ptr::eq(self.kinds, KEY_KINDS[key.clamp(0, 1) as usize])
    }

    /// The structure key of `pos`, from scratch.
    pub fn key(&self, pos: &Position) -> u64 {
        pos.kinds_key(self.kinds)
    }

    /// The structure key after `m` is played in `pos`, whose key is `key` (the search keeps
    /// it move by move: most moves leave it as it is).
    #[inline]
    pub fn key_after(&self, pos: &Position, m: Move, key: u64) -> u64 {
        let mut k = key;
        if let Some(p) = pos.piece_at(m.from()).filter(|p| self.kinds.contains(&p.kind())) {
            k ^= zobrist::PIECE_SQUARE[p.index()][m.from().index()] ^ zobrist::PIECE_SQUARE[p.index()][m.to().index()];
        }
        if let Some(c) = pos.piece_at(m.to()).filter(|c| self.kinds.contains(&c.kind())) {
            k ^= zobrist::PIECE_SQUARE[c.index()][m.to().index()];
        }
        k
    }

    #[inline]
    fn slot(pos: &Position, key: u64) -> usize {
        let side = (pos.side_to_move() == Color::Black) as usize;
        side * SIZE + (key as usize & (SIZE - 1))
    }

    /// The correction for `pos` with structure key `key`, in centipawns.
    #[inline]
    pub fn get(&self, pos: &Position, key: u64) -> i32 {
        self.table[Self::slot(pos, key)] / GRAIN
    }

    /// Moves the entry of `pos` (structure key `key`) towards `diff` (search score less raw
    /// evaluation, in centipawns) by a weight that grows with the search depth; entries stay
    /// within ±`limit_cp`.
    pub fn update(&mut self, pos: &Position, key: u64, diff: i32, depth: i32, limit_cp: i32) {
        let w = (depth + 1).clamp(1, 16);
        let slot = Self::slot(pos, key);
        let e = &mut self.table[slot];
        let target = diff.clamp(-limit_cp, limit_cp) * GRAIN;
        *e = (*e * (WEIGHT_SCALE - w) + target * w) / WEIGHT_SCALE;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_move_towards_the_search_and_stay_within_the_limit() {
        let pos = Position::startpos();
        let mut c = CorrectionHistory::new(1);
        let k = c.key(&pos);
        assert_eq!(c.get(&pos, k), 0);
        for _ in 0..2000 {
            c.update(&pos, k, 500, 10, 80);
        }
        // Converges on the limit, never past it.
        assert!((75..=80).contains(&c.get(&pos, k)), "{}", c.get(&pos, k));
        for _ in 0..2000 {
            c.update(&pos, k, -30, 10, 80);
        }
        assert!((-30..=-25).contains(&c.get(&pos, k)), "{}", c.get(&pos, k));
        // The other side to move keeps its own entry.
        let black =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1").unwrap();
        assert_eq!(c.get(&black, c.key(&black)), 0);
    }

    #[test]
    fn the_key_kept_move_by_move_equals_the_key_from_scratch() {
        for key in 0..2 {
            let c = CorrectionHistory::new(key);
            let mut rng = zobrist::Rng::new(7 + key as u64);
            for _ in 0..20 {
                let mut pos = Position::startpos();
                let mut k = c.key(&pos);
                for _ in 0..150 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    // Captures half the time, so captured pawns and guards are covered.
                    let caps: Vec<Move> = moves.iter().copied().filter(|&m| pos.is_capture(m)).collect();
                    let m = if !caps.is_empty() && rng.below(2) == 0 {
                        caps[rng.below(caps.len())]
                    } else {
                        moves[rng.below(moves.len())]
                    };
                    k = c.key_after(&pos, m, k);
                    pos.make_move(m);
                    assert_eq!(k, c.key(&pos), "{pos:?}");
                }
            }
        }
    }

    #[test]
    fn the_keys_follow_their_kinds_only() {
        let a = Position::startpos();
        // A horse moved: same pawns, same key; a pawn moved: another key.
        let b = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4NC1/9/RNBAKAB1R b - - 1 1").unwrap();
        let c = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/2P6/P3P1P1P/1C5C1/9/RNBAKABNR b - - 0 1").unwrap();
        let pawns = KEY_KINDS[1];
        assert_eq!(a.kinds_key(pawns), b.kinds_key(pawns));
        assert_ne!(a.kinds_key(pawns), c.kinds_key(pawns));
        assert_ne!(a.kinds_key(pawns), 0);
        // The default key also follows the king's guard: an advisor's move changes it.
        let guard = KEY_KINDS[0];
        let d = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4A4/RNB1KABNR b - - 1 1").unwrap();
        assert_eq!(a.kinds_key(guard), b.kinds_key(guard));
        assert_ne!(a.kinds_key(guard), c.kinds_key(guard));
        assert_ne!(a.kinds_key(guard), d.kinds_key(guard));
        assert_eq!(a.kinds_key(pawns), d.kinds_key(pawns));
    }
}
