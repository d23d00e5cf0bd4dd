//! The refresh cache ("finny table"): per perspective and king key, the accumulator of the
//! last position refreshed with that key and that position's pieces. When a general changes
//! bucket (or mirror side) its perspective's accumulator is rebuilt from the cached one for
//! the new key by the pieces that differ, usually a few, instead of from every piece.

use super::{KingKey, Network};
use crate::board::{Color, Piece, Position, Square};

/// A search thread's cache: allocated once per search, nothing per refresh.
pub(super) struct Finny {
    hidden: usize,
    keys: usize,
    /// Accumulators, `(persp × keys + key) × hidden`.
    acc: Vec<i16>,
    /// The pieces each accumulator holds, by point.
    boards: Vec<[Option<Piece>; 90]>,
}

impl Finny {
    /// An empty cache for `net` (every entry the biases alone, of an empty board).
    pub(super) fn new(net: &Network) -> Finny {
        let (hidden, keys) = (net.arch.hidden, net.arch.king_keys());
        let acc = net.b1.iter().copied().cycle().take(2 * keys * hidden).collect();
        Finny { hidden, keys, acc, boards: vec![[None; 90]; 2 * keys] }
    }

    /// Writes `persp`'s accumulator of `pos` (whose key for `persp` is `key`) into `out`,
    /// bringing the cached entry up to `pos` first.
    pub(super) fn refresh(&mut self, net: &Network, pos: &Position, persp: Color, key: KingKey, out: &mut [i16]) {
        let entry = persp.index() * self.keys + key as usize;
        let acc = &mut self.acc[entry * self.hidden..(entry + 1) * self.hidden];
        let board = &mut self.boards[entry];
        for (sq, cached) in Square::all().zip(board.iter_mut()) {
            let now = pos.piece_at(sq);
            if now == *cached {
                continue;
            }
            if let Some(old) = *cached {
                net.simd.sub(acc, net.column(net.arch.index(key, persp, old, sq)));
            }
            if let Some(new) = now {
                net.simd.add(acc, net.column(net.arch.index(key, persp, new, sq)));
            }
            *cached = now;
        }
        out.copy_from_slice(acc);
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{random_arch_net, test_archs};
    use super::*;

    #[test]
    fn cached_refreshes_equal_refreshes_from_scratch() {
        for arch in test_archs() {
            let net = random_arch_net(arch, 31);
            let mut finny = Finny::new(&net);
            let mut out = vec![0i16; arch.hidden];
            let mut fresh = vec![0i16; arch.hidden];
            crate::board::testing::random_games(4, 6, 90, |pos, _, _, _| {
                for persp in [Color::Red, Color::Black] {
                    finny.refresh(&net, pos, persp, arch.king_key(pos, persp), &mut out);
                    net.refresh_into(pos, persp, &mut fresh);
                    assert_eq!(out, fresh, "{arch:?} {}", pos.to_fen());
                }
            });
        }
    }
}
