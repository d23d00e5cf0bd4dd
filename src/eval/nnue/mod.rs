//! The learned evaluation: an efficiently updatable neural network (NNUE).
//!
//! Architecture 1 (`docs/training.md`, "The network"): per perspective (Red's, Black's)
//! 1260 inputs, one per (own/enemy, kind, point) with the board turned so that the
//! perspective's side plays up the board; a hidden layer of `HIDDEN` neurons shared by both
//! perspectives (the *accumulator*); squared clipped ReLU; the side to move's half and the
//! other half concatenated into one linear output. Integer inference: `i16` accumulators at
//! scale `QA`, output weights at scale `QB`, `i32` sums.
//!
//! The accumulator is kept in step by `Accumulator::update` only where the search makes and
//! unmakes moves (`EvalState`, `super::state`); a position's full `refresh` is needed only at the root.

mod file;
mod simd;

use crate::board::{Color, Move, Piece, Position, Square};
pub use file::{NetError, HEADER_SIZE, MAGIC, VERSION};

/// Inputs per perspective: 2 sides (own, enemy) × 7 kinds × 90 points.
pub const INPUTS: usize = 2 * 7 * 90;
/// Neurons of the hidden layer, per perspective.
pub const HIDDEN: usize = 256;
/// Architecture id written in net files: 1260 → 2×256 (SCReLU) → 1.
pub const ARCHITECTURE: u16 = 1;
/// Accumulator quantisation: the float activation range [0, 1] maps to 0..=QA.
pub const QA: i32 = 255;
/// Output weight quantisation.
pub const QB: i32 = 128;
/// Largest output weight magnitude: |w·v| ≤ 127·255 fits an `i16` for the SIMD product, and
/// a half's sum of `HIDDEN` terms v²·w ≤ 256·255²·127 fits an `i32`.
pub const MAX_OUTPUT_WEIGHT: i32 = 127;
/// Most pieces a position holds: bounds how many input columns an accumulator sums.
const MAX_PIECES: i32 = 32;

/// Input index of `piece` on `sq` seen from `persp`.
#[inline(always)]
pub fn feature(persp: Color, piece: Piece, sq: Square) -> usize {
    let rank = if persp == Color::Red { sq.rank() } else { 9 - sq.rank() } as usize;
    let enemy = (piece.color() != persp) as usize;
    (enemy * 7 + piece.kind().index()) * 90 + rank * 9 + sq.file() as usize
}

/// The same input on the left-right mirrored board (file a ↔ i): the board and the rules
/// are symmetric, so the trainer doubles its data with it.
#[inline(always)]
pub const fn mirrored(feature: usize) -> usize {
    let (block, point) = (feature / 90, feature % 90);
    block * 90 + (point / 9) * 9 + 8 - point % 9
}

/// A quantised network, as the engine evaluates with it.
#[derive(Clone)]
pub struct Network {
    /// Input weights, one column of `HIDDEN` per input.
    pub(crate) w1: Vec<[i16; HIDDEN]>,
    /// Hidden biases.
    pub(crate) b1: [i16; HIDDEN],
    /// Output weights: `[0]` for the side to move's half, `[1]` for the other's.
    pub(crate) w2: [[i16; HIDDEN]; 2],
    /// Output bias, at scale `QA × QB`.
    pub(crate) b2: i32,
    /// Centipawns per unit of the float output (the data's sigmoid scale `K`).
    pub(crate) scale: i32,
    /// The payload's checksum, as the file header holds it (identifies the net).
    pub(crate) checksum: u64,
    /// The header's free-text description.
    pub(crate) description: String,
}

/// The hidden layer's values for both perspectives (`v[Color::index()]`).
#[derive(Clone)]
#[repr(C, align(64))]
pub struct Accumulator {
    /// Per perspective, at scale `QA`.
    pub v: [[i16; HIDDEN]; 2],
}

impl Network {
    /// Decodes a net file (header checked first, then sizes, checksum and weight ranges).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        file::decode(bytes)
    }

    /// The net file's bytes (what `from_bytes` reads back).
    pub fn to_bytes(&self) -> Vec<u8> {
        file::encode(self)
    }

    /// Reads a net file.
    pub fn load(path: &str) -> Result<Network, NetError> {
        let bytes = std::fs::read(path).map_err(|e| NetError::Io(format!("cannot read '{path}': {e}")))?;
        Network::from_bytes(&bytes)
    }

    /// The payload checksum (FNV-1a, 64 bits) that names this net.
    pub fn checksum(&self) -> u64 {
        self.checksum
    }

    /// The description stored in the file.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Centipawns per unit of the float output.
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// The accumulator of `pos` computed from scratch.
    pub fn refresh(&self, pos: &Position) -> Accumulator {
        let mut acc = Accumulator { v: [self.b1; 2] };
        for color in [Color::Red, Color::Black] {
            for (kind, sq) in pos.pieces(color) {
                let piece = Piece::new(color, kind);
                for persp in [Color::Red, Color::Black] {
                    simd::add(&mut acc.v[persp.index()], &self.w1[feature(persp, piece, sq)]);
                }
            }
        }
        acc
    }

    /// Writes into `next` the accumulator after `m` is played from the position whose
    /// accumulator is `prev`; `pos` is that position, before the move.
    #[inline]
    pub fn update(&self, prev: &Accumulator, next: &mut Accumulator, pos: &Position, m: Move) {
        let (from, to) = (m.from(), m.to());
        let Some(mover) = pos.piece_at(from) else {
            // Not a move of this position (the search never plays one): keep the parent's.
            next.v = prev.v;
            return;
        };
        let captured = pos.piece_at(to);
        for persp in [Color::Red, Color::Black] {
            let (old, new) = (&prev.v[persp.index()], &mut next.v[persp.index()]);
            let sub = &self.w1[feature(persp, mover, from)];
            let add = &self.w1[feature(persp, mover, to)];
            match captured {
                None => simd::sub_add(old, new, sub, add),
                Some(c) => simd::sub_sub_add(old, new, sub, &self.w1[feature(persp, c, to)], add),
            }
        }
    }

    /// The evaluation in centipawns from `stm`'s view, given the position's accumulator.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, stm: Color) -> i32 {
        let us = simd::screlu_dot(&acc.v[stm.index()], &self.w2[0]) as i64;
        let them = simd::screlu_dot(&acc.v[stm.opp().index()], &self.w2[1]) as i64;
        let out = (us + them) / QA as i64 + self.b2 as i64;
        (out * self.scale as i64 / (QA * QB) as i64) as i32
    }

    /// The evaluation of `pos` from the side to move's view, from scratch.
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        self.evaluate(&self.refresh(pos), pos.side_to_move())
    }

    /// The inference path this machine takes: "avx2" or "portable".
    pub fn simd_path() -> &'static str {
        simd::path()
    }
}

/// The network built into the binary (`nets/default.nnue`), decoded once at first use.
pub static DEFAULT: std::sync::LazyLock<std::sync::Arc<Network>> = std::sync::LazyLock::new(|| {
    std::sync::Arc::new(Network::from_bytes(EMBEDDED).expect("the embedded net is a valid net file"))
});

/// The embedded net file.
pub const EMBEDDED: &[u8] = include_bytes!("../../../nets/default.nnue");

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::board::testing::random_games;
    use crate::board::{Color, PieceKind};

    /// A net with small random weights (deterministic), for tests that need any net.
    pub(crate) fn random_net(seed: u64) -> Network {
        let mut rng = crate::board::zobrist::Rng::new(seed);
        let mut small = |range: i32| (rng.next_u64() % (2 * range as u64 + 1)) as i32 - range;
        let mut w1 = vec![[0i16; HIDDEN]; INPUTS];
        for col in w1.iter_mut() {
            for w in col.iter_mut() {
                *w = small(80) as i16;
            }
        }
        let mut b1 = [0i16; HIDDEN];
        for b in b1.iter_mut() {
            *b = (small(120) + 120) as i16;
        }
        let mut w2 = [[0i16; HIDDEN]; 2];
        for half in w2.iter_mut() {
            for w in half.iter_mut() {
                *w = small(MAX_OUTPUT_WEIGHT) as i16;
            }
        }
        let mut net = Network { w1, b1, w2, b2: small(5000), scale: 400, checksum: 0, description: "random".into() };
        net = Network::from_bytes(&net.to_bytes()).unwrap();
        net
    }

    #[test]
    fn features_cover_the_inputs_and_mirror_back() {
        let mut seen = vec![false; INPUTS];
        for persp in [Color::Red, Color::Black] {
            for color in [Color::Red, Color::Black] {
                for kind in PieceKind::ALL {
                    for sq in Square::all() {
                        let f = feature(persp, Piece::new(color, kind), sq);
                        seen[f] = true;
                        assert_eq!(mirrored(mirrored(f)), f);
                        let m = Square::new(8 - sq.file(), sq.rank());
                        assert_eq!(mirrored(f), feature(persp, Piece::new(color, kind), m));
                    }
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
        // Each side sees its own pieces as "own", the board turned to it.
        let red_king = feature(Color::Red, Piece::new(Color::Red, PieceKind::King), Square::parse("e0").unwrap());
        let black_king = feature(Color::Black, Piece::new(Color::Black, PieceKind::King), Square::parse("e9").unwrap());
        assert_eq!(red_king, black_king);
    }

    #[test]
    fn incremental_updates_equal_a_refresh() {
        // Every legal move (captures included) of positions along random games, against a
        // refresh of the position it reaches (null moves and unmaking: `eval::state`).
        let net = random_net(11);
        random_games(5, 20, 120, |pos, moves, _, _| {
            let before = net.refresh(pos);
            for &m in moves.iter() {
                let mut after = before.clone();
                net.update(&before, &mut after, pos, m);
                let mut next = pos.clone();
                next.make_move(m);
                assert!(after.v == net.refresh(&next).v, "{} {m}", pos.to_fen());
                assert_eq!(net.evaluate(&after, next.side_to_move()), net.evaluate_position(&next));
            }
        });
    }

    #[test]
    fn the_side_to_move_sees_a_mirrored_position_alike() {
        // Colours swapped and the board turned: the same position for the other side.
        let net = random_net(3);
        let a = Position::from_fen("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1").unwrap();
        let b = Position::from_fen("2bakab2/9/1cCc5/p1p2r2p/6p2/4C4/PnP1P1P1P/2N1B4/4KN3/R1BA1A3 b - - 0 1").unwrap();
        assert_eq!(net.evaluate_position(&a), net.evaluate_position(&b));
    }

    #[test]
    fn the_embedded_net_decodes() {
        let net = &*DEFAULT;
        assert_eq!(net.to_bytes(), EMBEDDED);
        let start = net.evaluate_position(&Position::startpos());
        assert!(start.abs() < 200, "{start}");
    }
}
