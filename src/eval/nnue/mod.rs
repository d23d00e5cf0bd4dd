//! The learned evaluation: an efficiently updatable neural network (NNUE).
//!
//! Per perspective (Red's, Black's) the inputs are (own/enemy, kind, point) with the board
//! turned so that the perspective's side plays up the board, one set of 1260 per king bucket
//! (`arch`: the perspective's general's palace point picks the set, some points seeing the
//! mirrored board); a hidden layer shared by both perspectives (the *accumulator*); squared
//! clipped ReLU; the side to move's half and the other half concatenated into one linear
//! output, one per output bucket (`arch`: by material). Architecture 1 is 1260 → 2×256 → 1
//! (`docs/nnue.md`). A net may add threat inputs (`threats`: which piece attacks which),
//! computed afresh at each evaluation and added to copies of the accumulators. Integer
//! inference: `i16` accumulators at scale `QA`, output weights at scale `QB`, integer sums.
//!
//! The search keeps the accumulators lazily (`AccumulatorStack`): a move only records what
//! changed, and a node that evaluates brings its accumulator up from the last computed
//! ancestor, or from the refresh cache (`finny`) when its general changed bucket.

mod accumulator;
pub mod arch;
mod file;
mod finny;
mod simd;
pub mod stack;
pub mod threats;

use crate::board::{Color, Piece, Position};
pub use accumulator::AccumulatorStack;
pub use arch::{feature, mirrored, Arch, KingKey, FEATURES};
pub use file::{NetError, HEADER_SIZE, MAGIC, VERSION};
pub use simd::Simd;
pub use stack::Stack;
use threats::Threats;

/// Inputs per perspective of architecture 1 (one king bucket).
pub const INPUTS: usize = FEATURES;
/// Accumulator quantisation: the float activation range [0, 1] maps to 0..=QA.
pub const QA: i32 = 255;
/// Output weight quantisation.
pub const QB: i32 = 128;
/// Largest output weight magnitude: |w·v| ≤ 127·255 fits an `i16` for the SIMD product.
pub const MAX_OUTPUT_WEIGHT: i32 = 127;
/// Most pieces a position holds: bounds how many input columns an accumulator sums.
const MAX_PIECES: i32 = 32;

/// A quantised network, as the engine evaluates with it.
#[derive(Clone)]
pub struct Network {
    /// Its shape.
    pub(crate) arch: Arch,
    /// Input weights, `arch.inputs()` columns of `arch.hidden`.
    pub(crate) w1: Vec<i16>,
    /// Hidden biases.
    pub(crate) b1: Vec<i16>,
    /// Output weights per output bucket: the side to move's half, then the other's (empty
    /// in a stacked net).
    pub(crate) w2: Vec<i16>,
    /// Output biases, at scale `QA × QB`, one per output bucket (empty in a stacked net).
    pub(crate) b2: Vec<i32>,
    /// A stacked net's layers after the accumulators (`arch.stack`).
    pub(crate) stack: Option<Stack>,
    /// Centipawns per unit of the float output (the data's sigmoid scale `K`).
    pub(crate) scale: i32,
    /// The payload's checksum, as the file header holds it (identifies the net).
    pub(crate) checksum: u64,
    /// The header's free-text description.
    pub(crate) description: String,
    /// The inner loops' path, chosen once when the net is built.
    pub(crate) simd: Simd,
}

/// The hidden layer's values for both perspectives (`v[Color::index()]`), at scale `QA`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    /// Per perspective.
    pub v: [Vec<i16>; 2],
}

impl Network {
    /// A net of shape `arch` from its weights (sizes as `Network`'s fields say); the checksum
    /// is that of its file's payload.
    pub(crate) fn from_parts(arch: Arch, w1: Vec<i16>, b1: Vec<i16>, w2: Vec<i16>, b2: Vec<i32>) -> Network {
        debug_assert_eq!(w1.len(), arch.inputs() * arch.hidden);
        debug_assert_eq!(
            (b1.len(), w2.len(), b2.len()),
            (arch.hidden, 2 * arch.hidden * arch.output_buckets, arch.output_buckets)
        );
        Network::assemble(arch, w1, b1, w2, b2, None)
    }

    /// The net of these weights, its checksum that of its file's payload.
    fn assemble(arch: Arch, w1: Vec<i16>, b1: Vec<i16>, w2: Vec<i16>, b2: Vec<i32>, stack: Option<Stack>) -> Network {
        let (scale, checksum, description, simd) = (1, 0, String::new(), Simd::detect());
        let mut net = Network { arch, w1, b1, w2, b2, stack, scale, checksum, description, simd };
        net.checksum = file::fnv1a(&file::payload(&net));
        net
    }

    /// A stacked net (`arch.stack`) from its input layer and its stack.
    pub(crate) fn from_stack(arch: Arch, w1: Vec<i16>, b1: Vec<i16>, stack: Stack) -> Network {
        debug_assert!(arch.stack && w1.len() == arch.inputs() * arch.hidden && b1.len() == arch.hidden);
        Network::assemble(arch, w1, b1, Vec::new(), Vec::new(), Some(stack))
    }

    /// Decodes a net file (header checked first, then sizes, checksum and weight ranges).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        file::decode(bytes)
    }

    /// The net file's bytes (what `from_bytes` reads back): version 1 for architecture 1,
    /// else version 2.
    pub fn to_bytes(&self) -> Vec<u8> {
        file::encode(self)
    }

    /// Reads a net file.
    pub fn load(path: &str) -> Result<Network, NetError> {
        let bytes = std::fs::read(path).map_err(|e| NetError::Io(format!("cannot read '{path}': {e}")))?;
        Network::from_bytes(&bytes).map_err(|e| e.in_file(path))
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

    /// The net's shape.
    pub fn arch(&self) -> Arch {
        self.arch
    }

    /// The same net with its inner loops on `simd` (`Simd::Portable` always works; a test
    /// compares the paths). A path the CPU lacks is not offered: `Simd::detect` is the best.
    pub fn with_portable_loops(mut self) -> Network {
        self.simd = Simd::Portable;
        self
    }

    /// Input column `index`.
    #[inline(always)]
    pub(crate) fn column(&self, index: usize) -> &[i16] {
        let h = self.arch.hidden;
        &self.w1[index * h..(index + 1) * h]
    }

    /// Writes `persp`'s accumulator of `pos`, computed from scratch, into `out`.
    pub fn refresh_into(&self, pos: &Position, persp: Color, out: &mut [i16]) {
        out.copy_from_slice(&self.b1);
        let key = self.arch.king_key(pos, persp);
        for color in [Color::Red, Color::Black] {
            for (kind, sq) in pos.pieces(color) {
                let index = self.arch.index(key, persp, Piece::new(color, kind), sq);
                self.simd.add(out, self.column(index));
            }
        }
    }

    /// The accumulator of `pos` computed from scratch.
    pub fn refresh(&self, pos: &Position) -> Accumulator {
        let mut acc = Accumulator { v: [self.b1.clone(), self.b1.clone()] };
        for persp in [Color::Red, Color::Black] {
            self.refresh_into(pos, persp, &mut acc.v[persp.index()]);
        }
        acc
    }

    /// The evaluation in centipawns from the side to move's view, given its half `us`, the
    /// other half `them` and the output bucket.
    #[inline]
    pub fn output(&self, us: &[i16], them: &[i16], bucket: usize) -> i32 {
        if let Some(stack) = &self.stack {
            let out = stack.output(self.simd, us, them, bucket);
            return (out * self.scale as i64 / stack::Y as i64) as i32;
        }
        match self.arch.hidden {
            256 => self.output_n::<256>(us, them, bucket),
            512 => self.output_n::<512>(us, them, bucket),
            768 => self.output_n::<768>(us, them, bucket),
            _ => self.output_n::<1024>(us, them, bucket),
        }
    }

    /// `output` at the width `H` (`Arch` allows only `HIDDEN_SIZES`): the slices become arrays.
    #[inline(always)]
    fn output_n<const H: usize>(&self, us: &[i16], them: &[i16], bucket: usize) -> i32 {
        fn array<const H: usize>(s: &[i16]) -> &[i16; H] {
            s.try_into().expect("H wide")
        }
        let w = &self.w2[bucket * 2 * H..][..2 * H];
        let (us, them, own, other) = (array::<H>(us), array::<H>(them), array::<H>(&w[..H]), array::<H>(&w[H..]));
        let sum = self.simd.screlu_dot_n(us, own) + self.simd.screlu_dot_n(them, other);
        let out = sum / QA as i64 + self.b2[bucket] as i64;
        (out * self.scale as i64 / (QA * QB) as i64) as i32
    }

    /// The evaluation in centipawns from `pos`'s side to move's view, given its accumulator.
    pub fn evaluate(&self, acc: &Accumulator, pos: &Position) -> i32 {
        let stm = pos.side_to_move();
        let mut scratch = vec![0; 2 * self.arch.hidden];
        self.output_for(pos, &acc.v[stm.index()], &acc.v[stm.opp().index()], &mut scratch)
    }

    /// The evaluation of `pos` from its side to move's view, given the piece accumulators of
    /// the side to move (`us`) and of the other (`them`); with threat inputs, `scratch` (2 ×
    /// hidden) takes them with `pos`'s threats added.
    #[inline]
    pub fn output_for(&self, pos: &Position, us: &[i16], them: &[i16], scratch: &mut [i16]) -> i32 {
        let bucket = self.arch.output_bucket(pos);
        if !self.arch.threats {
            return self.output(us, them, bucket);
        }
        let (threats, stm) = (Threats::of(pos), pos.side_to_move());
        let (with_us, with_them) = scratch.split_at_mut(self.arch.hidden);
        for (persp, from, to) in [(stm, us, &mut *with_us), (stm.opp(), them, &mut *with_them)] {
            to.copy_from_slice(from);
            let key = self.arch.king_key(pos, persp);
            for t in threats.seen_by(persp) {
                self.simd.add(to, self.column(self.arch.threat_index(key, t)));
            }
        }
        self.output(with_us, with_them, bucket)
    }

    /// The evaluation of `pos` from the side to move's view, from scratch.
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        self.evaluate(&self.refresh(pos), pos)
    }

    /// The inference path this machine takes: "avx2" or "portable".
    pub fn simd_path() -> &'static str {
        Simd::detect().name()
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
    use crate::board::{Color, PieceKind, Square};

    /// A net of shape `arch` with small random weights (deterministic), for tests.
    pub(crate) fn random_arch_net(arch: Arch, seed: u64) -> Network {
        let mut rng = crate::board::zobrist::Rng::new(seed);
        let mut small = |range: i32| (rng.next_u64() % (2 * range as u64 + 1)) as i32 - range;
        let h = arch.hidden;
        let w1 = (0..arch.inputs() * h).map(|_| small(80) as i16).collect();
        let b1 = (0..h).map(|_| (small(120) + 120) as i16).collect();
        let mut net = if arch.stack {
            let [w2, b2, w3, b3, w4, b4] = Stack::sizes(h, arch.output_buckets);
            let stack = Stack {
                w2: (0..w2).map(|_| small(300) as i16).collect(),
                b2: (0..b2).map(|_| small(100_000) + 100_000).collect(),
                w3: (0..w3).map(|_| small(1500) as i16).collect(),
                b3: (0..b3).map(|_| small(100_000) + 100_000).collect(),
                w4: (0..w4).map(|_| small(3000) as i16).collect(),
                b4: (0..b4).map(|_| small(100_000)).collect(),
            };
            Network::from_stack(arch, w1, b1, stack)
        } else {
            let w2 = (0..2 * h * arch.output_buckets).map(|_| small(MAX_OUTPUT_WEIGHT) as i16).collect();
            let b2 = (0..arch.output_buckets).map(|_| small(5000)).collect();
            Network::from_parts(arch, w1, b1, w2, b2)
        };
        net.scale = 400;
        net.description = "random".into();
        Network::from_bytes(&net.to_bytes()).unwrap()
    }

    /// An architecture-1 net with small random weights.
    pub(crate) fn random_net(seed: u64) -> Network {
        random_arch_net(Arch::ONE, seed)
    }

    /// Architectures the tests cover: 1, bucketed ones of every king map and widths, stacked
    /// ones (last).
    pub(crate) fn test_archs() -> Vec<Arch> {
        vec![
            Arch::ONE,
            Arch::new(512, 6, 8).unwrap(),
            Arch::new(768, 3, 4).unwrap(),
            Arch::new(1024, 9, 2).unwrap(), // 11.6 M input weights
            Arch::new(256, 1, 3).unwrap(),
            Arch::ONE.with_stack(true),
            Arch::new(512, 6, 8).unwrap().with_stack(true),
            Arch::new(256, 3, 1).unwrap().with_threats(true),
            Arch::new(512, 6, 4).unwrap().with_threats(true).with_stack(true),
        ]
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
    fn the_side_to_move_sees_a_mirrored_position_alike() {
        // Colours swapped and the board turned: the same position for the other side.
        for arch in test_archs() {
            let net = random_arch_net(arch, 3);
            let a =
                Position::from_fen("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1").unwrap();
            let b =
                Position::from_fen("2bakab2/9/1cCc5/p1p2r2p/6p2/4C4/PnP1P1P1P/2N1B4/4KN3/R1BA1A3 b - - 0 1").unwrap();
            assert_eq!(net.evaluate_position(&a), net.evaluate_position(&b), "{arch:?}");
        }
    }

    #[test]
    fn a_general_on_a_folded_file_sees_the_mirrored_board() {
        // With a mirror-folding king map, the left-right mirrored position evaluates alike
        // when both generals stand on folded files (d or f).
        let net = random_arch_net(Arch::new(512, 6, 8).unwrap(), 4);
        let a = Position::from_fen("3k5/4a4/2n1b4/p1p1p1p1p/9/6P2/P1P1C1R1P/1C1N5/4A4/3K5 w - - 0 1").unwrap();
        let b = Position::from_fen("5k3/4a4/4b1n2/p1p1p1p1p/9/2P6/P1R1C1P1P/5N1C1/4A4/5K3 w - - 0 1").unwrap();
        assert_eq!(net.evaluate_position(&a), net.evaluate_position(&b));
    }

    #[test]
    fn the_portable_loops_give_the_same_numbers_for_every_architecture() {
        for arch in test_archs() {
            let net = random_arch_net(arch, 17);
            let portable = net.clone().with_portable_loops();
            crate::board::testing::random_games(2, 10, 80, |pos, _, _, _| {
                assert_eq!(net.refresh(pos), portable.refresh(pos));
                assert_eq!(net.evaluate_position(pos), portable.evaluate_position(pos), "{arch:?}");
            });
        }
    }

    #[test]
    fn the_embedded_net_decodes() {
        let net = &*DEFAULT;
        // Net 9: architecture 1 with king map 1 (three buckets by rank, file f mirrored).
        assert_eq!(net.arch(), Arch { king_map: 1, ..Arch::ONE });
        assert_eq!(net.to_bytes(), EMBEDDED);
        let start = net.evaluate_position(&Position::startpos());
        assert!(start.abs() < 200, "{start}");
    }
}
