//! The network in floating point, any `Arch`: its training rows (the engine's input columns
//! and the factoriser's shared rows), the forward pass, the gradient and the quantisation
//! into the engine's integer net.

use crate::board::zobrist::Rng;
use crate::board::{Color, Piece, Position};
use crate::eval::nnue::arch::{self, mirrored_point, palace_point, L2};
use crate::eval::nnue::threats::{flipped, Threats, MAX_THREATS};
use crate::eval::nnue::{self, Arch, Network, Stack, FEATURES, MAX_OUTPUT_WEIGHT, QA, QB};
use crate::fit::sigmoid;

/// Input weights and biases are kept within ±CLIP: quantised, a bias and 32 columns of
/// CLIP·QA stay inside an i16.
const CLIP: f32 = 1.98;
/// Threat input weights are kept within ±THREAT_CLIP: quantised, `MAX_THREATS` of them more
/// still fit (`nnue::file`'s range check).
const THREAT_CLIP: f32 = 1.3;
/// Output weights are kept within ±OUTPUT_CLIP: quantised, at most `MAX_OUTPUT_WEIGHT`.
const OUTPUT_CLIP: f32 = MAX_OUTPUT_WEIGHT as f32 / QB as f32;
/// Most pieces on a board.
const MAX_PIECES: usize = 32;
/// Most input columns one half of a sample turns on: its pieces and its threats.
pub(super) const MAX_FEATURES: usize = MAX_PIECES + MAX_THREATS;
/// Blocks of 90 points in a king bucket's inputs: (own or enemy) × kind.
const BLOCKS: usize = FEATURES / 90;
/// The factoriser's rows by point: an input's (side, kind) whatever the point, its (side,
/// kind, rank) and its (side, kind, file).
const POINT_FACTORS: usize = BLOCKS + BLOCKS * 10 + BLOCKS * 9;

/// A training position: its pieces' architecture-1 inputs from the side to move's view and
/// the other's, its threat inputs from the side to move's view, each side's general's palace
/// point and the material (`arch::material`).
#[derive(Clone)]
pub struct Sample {
    pub(super) us: [u16; MAX_PIECES],
    pub(super) them: [u16; MAX_PIECES],
    pub(super) count: u8,
    threats: [u16; MAX_THREATS],
    threat_count: u8,
    /// Palace points of the side to move's general and the other's, each from its own view.
    king: [u8; 2],
    material: u8,
    /// Game result for the side to move: 1, 0.5, 0.
    pub(super) result: f32,
    /// Search score, centipawns, side to move's view.
    pub(super) score: f32,
}

impl Sample {
    /// The sample of `pos` with its result and score (side to move's view).
    pub fn new(pos: &Position, result: f32, score: f32) -> Sample {
        let stm = pos.side_to_move();
        let king = [stm, stm.opp()].map(|c| palace_point(c, pos.king_square(c)) as u8);
        let material = arch::material(pos) as u8;
        let t = Threats::of(pos);
        let mut threats = [0; MAX_THREATS];
        for (o, f) in threats.iter_mut().zip(t.seen_by(stm)) {
            *o = f as u16;
        }
        let (us, them, threat_count) = ([0; MAX_PIECES], [0; MAX_PIECES], t.count);
        let mut s = Sample { us, them, count: 0, threats, threat_count, king, material, result, score };
        for color in [Color::Red, Color::Black] {
            for (kind, sq) in pos.pieces(color) {
                let piece = Piece::new(color, kind);
                let i = s.count as usize;
                s.us[i] = nnue::feature(stm, piece, sq) as u16;
                s.them[i] = nnue::feature(stm.opp(), piece, sq) as u16;
                s.count += 1;
            }
        }
        s
    }

    /// The input columns of one half (0 the side to move's) in a net of shape `arch`, on the
    /// mirrored board when `mirror`.
    #[inline]
    pub(super) fn indices(&self, arch: &Arch, half: usize, mirror: bool, out: &mut [u32; MAX_FEATURES]) -> usize {
        let n = self.count as usize;
        let point = self.king[half] as usize;
        let key = arch.key_of_point(if mirror { mirrored_point(point) } else { point });
        let features = if half == 0 { &self.us[..n] } else { &self.them[..n] };
        for (o, &f) in out.iter_mut().zip(features) {
            let f = if mirror { nnue::mirrored(f as usize) } else { f as usize };
            *o = arch.index_of_feature(key, f) as u32;
        }
        if !arch.threats {
            return n;
        }
        let threats = &self.threats[..self.threat_count as usize];
        for (o, &t) in out[n..].iter_mut().zip(threats) {
            let t = if half == 0 { t as usize } else { flipped(t as usize) };
            let t = if mirror { nnue::mirrored(t) } else { t };
            *o = arch.threat_index(key, t) as u32;
        }
        n + threats.len()
    }

    /// Its output bucket in a net of shape `arch`.
    #[inline]
    pub(super) fn bucket(&self, arch: &Arch) -> usize {
        arch.output_bucket_of(self.material as usize)
    }
}

/// The network in floating point.
#[derive(Clone)]
pub struct FloatNet {
    pub(super) arch: Arch,
    /// Rows of `hidden`: the engine's input columns (`arch.inputs()`), then the factoriser's.
    pub(super) w1: Vec<f32>,
    pub(super) b1: Vec<f32>,
    /// Output weights per output bucket: side to move's half, then the other's (with a stack:
    /// its first layer, `L2` rows of 2·H per bucket).
    pub(super) w2: Vec<f32>,
    pub(super) b2: Vec<f32>,
    /// A stack's second layer and output per bucket (`stack.rs`); empty without one.
    pub(super) w3: Vec<f32>,
    pub(super) b3: Vec<f32>,
    pub(super) w4: Vec<f32>,
    pub(super) b4: Vec<f32>,
}

/// The factoriser's rows an input column also turns on (training only; writing the net
/// folds them into the column): with king buckets, the same input in every bucket; and the
/// input's (side, kind), (side, kind, rank) and (side, kind, file) whatever its point.
#[inline(always)]
fn factors(arch: &Arch, index: usize) -> ([usize; 4], usize) {
    if index >= arch.piece_inputs() {
        // Threat inputs have no factoriser rows.
        return ([0; 4], 0);
    }
    let base = arch.inputs();
    let feature = index % FEATURES;
    let (block, point) = (feature / 90, feature % 90);
    let by_point = [block, BLOCKS + block * 10 + point / 9, BLOCKS * 11 + block * 9 + point % 9];
    let rows = [base + by_point[0], base + by_point[1], base + by_point[2], base + POINT_FACTORS + feature];
    (rows, if arch.king_buckets() == 1 { 3 } else { 4 })
}

/// Rows the float net trains for `arch`.
fn rows(arch: &Arch) -> usize {
    arch.inputs() + POINT_FACTORS + if arch.king_buckets() > 1 { FEATURES } else { 0 }
}

impl FloatNet {
    /// All weights zero.
    pub(super) fn zeros(arch: Arch) -> FloatNet {
        let h = arch.hidden;
        let [w2, b2, w3, b3, w4, b4] = if arch.stack {
            Stack::sizes(h, arch.output_buckets)
        } else {
            [2 * h * arch.output_buckets, arch.output_buckets, 0, 0, 0, 0]
        };
        let (w1, b1) = (vec![0.0; rows(&arch) * h], vec![0.0; h]);
        let (w2, b2, w3, b3, w4, b4) =
            (vec![0.0; w2], vec![0.0; b2], vec![0.0; w3], vec![0.0; b3], vec![0.0; w4], vec![0.0; b4]);
        FloatNet { arch, w1, b1, w2, b2, w3, b3, w4, b4 }
    }

    /// Small random weights from `seed`; the factoriser's rows start at zero.
    pub fn random(arch: Arch, seed: u64) -> FloatNet {
        let mut rng = Rng::new(seed);
        let mut uniform = |a: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * a;
        let mut net = FloatNet::zeros(arch);
        let real = arch.inputs() * arch.hidden;
        net.w1[..real].iter_mut().for_each(|w| *w = uniform(0.1));
        net.b1.iter_mut().for_each(|b| *b = 0.1 + uniform(0.1));
        if arch.stack {
            // Each layer's sums start inside the clipped ReLU's (0, 1) for most positions.
            let fan_in = (2 * arch.hidden) as f32;
            net.w2.iter_mut().for_each(|w| *w = uniform(4.0 / fan_in.sqrt()));
            net.b2.iter_mut().for_each(|b| *b = 0.5 + uniform(0.1));
            net.w3.iter_mut().for_each(|w| *w = uniform(1.0 / (L2 as f32).sqrt()));
            net.b3.iter_mut().for_each(|b| *b = 0.5 + uniform(0.1));
            net.w4.iter_mut().for_each(|w| *w = uniform(0.5));
        } else {
            net.w2.iter_mut().for_each(|w| *w = uniform(0.1));
        }
        net
    }

    /// A quantised net's weights back in floating point (to train on from it).
    pub fn from_network(net: &Network) -> FloatNet {
        let (qa, qb) = (QA as f32, QB as f32);
        let mut f = FloatNet::zeros(net.arch());
        f.w1.iter_mut().zip(&net.w1).for_each(|(f, &w)| *f = w as f32 / qa);
        f.b1.iter_mut().zip(&net.b1).for_each(|(f, &w)| *f = w as f32 / qa);
        f.w2.iter_mut().zip(&net.w2).for_each(|(f, &w)| *f = w as f32 / qb);
        f.b2.iter_mut().zip(&net.b2).for_each(|(f, &w)| *f = w as f32 / (qa * qb));
        if let Some(stack) = &net.stack {
            f.set_stack(stack);
        }
        f
    }

    /// A net of shape `arch` that starts as `net` (one king bucket, one output bucket, at most
    /// `arch.hidden` neurons): its columns go into every king bucket (the shared rows), its
    /// output into every output bucket; extra neurons get small random input weights and
    /// zero output weights, so the function is unchanged.
    pub fn widened(net: &Network, arch: Arch, seed: u64) -> Result<FloatNet, String> {
        let from = net.arch();
        if arch.threats && from == arch.without_threats() {
            return Ok(FloatNet::from_network(net).with_threat_rows());
        }
        if from.king_buckets() != 1 || from.output_buckets != 1 || from.hidden > arch.hidden || from.stack {
            return Err(format!("cannot start {} from a {} net", arch.describe(), from.describe()));
        }
        let (src, mut f) = (FloatNet::from_network(net), FloatNet::random(arch, seed));
        let (hs, h) = (from.hidden, arch.hidden);
        // Threat rows start at zero: the function stays the source's.
        f.w1[arch.piece_inputs() * h..arch.inputs() * h].fill(0.0);
        let shared = if arch.king_buckets() > 1 { arch.inputs() + POINT_FACTORS } else { 0 };
        for feature in 0..FEATURES {
            for bucket in 0..arch.king_buckets() {
                f.w1[(bucket * FEATURES + feature) * h..][..hs].fill(0.0);
            }
            let target = if shared > 0 { shared + feature } else { feature };
            f.w1[target * h..][..hs].copy_from_slice(&src.w1[feature * hs..][..hs]);
        }
        f.b1[..hs].copy_from_slice(&src.b1);
        if arch.stack {
            // The stack starts random: a linear output has no equivalent stack.
            return Ok(f);
        }
        for bucket in 0..arch.output_buckets {
            let w = &mut f.w2[bucket * 2 * h..][..2 * h];
            w.fill(0.0);
            w[..hs].copy_from_slice(&src.w2[..hs]);
            w[h..h + hs].copy_from_slice(&src.w2[hs..]);
            f.b2[bucket] = src.b2[0];
        }
        Ok(f)
    }

    /// The same net with threat inputs added, their rows zero (the function unchanged).
    fn with_threat_rows(self) -> FloatNet {
        let arch = self.arch.with_threats(true);
        let h = arch.hidden;
        let mut f = FloatNet::zeros(arch);
        let pieces = self.arch.inputs() * h;
        f.w1[..pieces].copy_from_slice(&self.w1[..pieces]);
        // The factoriser's rows follow the threat rows.
        f.w1[arch.inputs() * h..].copy_from_slice(&self.w1[pieces..]);
        let FloatNet { b1, w2, b2, w3, b3, w4, b4, .. } = self;
        FloatNet { b1, w2, b2, w3, b3, w4, b4, ..f }
    }

    /// The engine's input columns: each real row plus its factoriser rows.
    pub(super) fn fold_into(&self, folded: &mut Vec<f32>) {
        let h = self.arch.hidden;
        folded.clear();
        folded.extend_from_slice(&self.w1[..self.arch.inputs() * h]);
        for (index, col) in folded.chunks_exact_mut(h).enumerate() {
            let (rows, n) = factors(&self.arch, index);
            for &r in &rows[..n] {
                col.iter_mut().zip(&self.w1[r * h..(r + 1) * h]).for_each(|(c, w)| *c += w);
            }
        }
    }

    /// The folded columns (`fold_into`).
    pub(super) fn folded(&self) -> Vec<f32> {
        let mut f = Vec::new();
        self.fold_into(&mut f);
        f
    }

    /// Adds the gradient of the folded columns `g` into the factoriser's rows of `g` (which
    /// has this net's shape: the real rows hold the folded columns' gradient already).
    pub(super) fn unfold_gradient(&self, g: &mut [f32]) {
        let h = self.arch.hidden;
        let (real, shared) = g.split_at_mut(self.arch.inputs() * h);
        let base = self.arch.inputs();
        for (index, col) in real.chunks_exact(h).enumerate() {
            let (rows, n) = factors(&self.arch, index);
            for &r in &rows[..n] {
                let row = &mut shared[(r - base) * h..(r - base + 1) * h];
                row.iter_mut().zip(col).for_each(|(s, c)| *s += c);
            }
        }
    }

    /// Both halves' hidden pre-activations of a sample, from the folded columns.
    #[inline(always)]
    fn accumulate(&self, folded: &[f32], s: &Sample, mirror: bool, h: &mut [Vec<f32>; 2]) {
        let n = self.arch.hidden;
        let mut idx = [0u32; MAX_FEATURES];
        for (half, hidden) in h.iter_mut().enumerate() {
            hidden.copy_from_slice(&self.b1);
            let count = s.indices(&self.arch, half, mirror, &mut idx);
            for &i in &idx[..count] {
                let col = &folded[i as usize * n..(i as usize + 1) * n];
                hidden.iter_mut().zip(col).for_each(|(x, w)| *x += w);
            }
        }
    }

    /// The raw output `o` of a sample and both halves' hidden pre-activations, from the folded
    /// columns.
    #[inline(always)]
    pub(super) fn forward(&self, folded: &[f32], s: &Sample, mirror: bool, h: &mut [Vec<f32>; 2]) -> f32 {
        self.accumulate(folded, s, mirror, h);
        let bucket = s.bucket(&self.arch);
        if self.arch.stack {
            return self.stack_forward(bucket, h).o;
        }
        self.forward_linear(bucket, h)
    }

    /// The linear output of bucket `bucket` from the hidden pre-activations.
    #[inline(always)]
    fn forward_linear(&self, bucket: usize, h: &[Vec<f32>; 2]) -> f32 {
        let n = self.arch.hidden;
        let w2 = &self.w2[bucket * 2 * n..(bucket + 1) * 2 * n];
        let mut o = self.b2[bucket];
        for (half, hidden) in h.iter().enumerate() {
            let w = &w2[half * n..(half + 1) * n];
            o += hidden.iter().zip(w).map(|(x, w)| x.clamp(0.0, 1.0).powi(2) * w).sum::<f32>();
        }
        o
    }

    /// The raw output `o` of a sample.
    pub(super) fn output(&self, folded: &[f32], s: &Sample) -> f32 {
        let mut h = [vec![0.0; self.arch.hidden], vec![0.0; self.arch.hidden]];
        self.forward(folded, s, false, &mut h)
    }

    /// The evaluation of `pos` in centipawns (side to move's view) at scale `k`.
    pub fn evaluate(&self, pos: &Position, k: f32) -> f32 {
        self.output(&self.folded(), &Sample::new(pos, 0.0, 0.0)) * k
    }

    /// Adds the gradient of one sample's loss into `g` (real rows: the folded columns'
    /// gradient); returns the loss. `h` is scratch space of two hidden layers.
    #[inline(always)]
    pub(super) fn backprop(
        &self,
        folded: &[f32],
        s: &Sample,
        target: f32,
        mirror: bool,
        g: &mut FloatNet,
        h: &mut [Vec<f32>; 2],
    ) -> f32 {
        let n = self.arch.hidden;
        self.accumulate(folded, s, mirror, h);
        let bucket = s.bucket(&self.arch);
        let pass = self.arch.stack.then(|| self.stack_forward(bucket, h));
        let o = match &pass {
            Some(pass) => pass.o,
            None => self.forward_linear(bucket, h),
        };
        let p = sigmoid(o);
        let d = 2.0 * (p - target) * p * (1.0 - p);
        if let Some(pass) = &pass {
            // `h` becomes dL/dh through the stack.
            self.stack_backward(bucket, pass, d, h, g);
        } else {
            g.b2[bucket] += d;
            for (half, hidden) in h.iter_mut().enumerate() {
                let at = bucket * 2 * n + half * n;
                let (w2, g2) = (&self.w2[at..at + n], &mut g.w2[at..at + n]);
                for ((x, w), gw) in hidden.iter_mut().zip(w2).zip(g2) {
                    let a = x.clamp(0.0, 1.0);
                    *gw += d * a * a;
                    // d/dx of clamp(x)² is 2x inside (0, 1), else 0: `x` becomes dL/dx.
                    *x = if *x > 0.0 && *x < 1.0 { d * w * 2.0 * *x } else { 0.0 };
                }
            }
        }
        let mut idx = [0u32; MAX_FEATURES];
        for (half, hidden) in h.iter().enumerate() {
            g.b1.iter_mut().zip(hidden).for_each(|(gb, dh)| *gb += dh);
            let count = s.indices(&self.arch, half, mirror, &mut idx);
            for &i in &idx[..count] {
                let col = &mut g.w1[i as usize * n..(i as usize + 1) * n];
                col.iter_mut().zip(hidden.iter()).for_each(|(gw, dh)| *gw += dh);
            }
        }
        (p - target) * (p - target)
    }

    /// Keeps the weights inside the ranges the integer net can hold.
    pub(super) fn clip(&mut self) {
        let (threats, h) = (self.threat_rows(), self.arch.hidden);
        for (row, ws) in self.w1.chunks_exact_mut(h).enumerate() {
            let clip = if threats.contains(&row) { THREAT_CLIP } else { CLIP };
            ws.iter_mut().for_each(|w| *w = w.clamp(-clip, clip));
        }
        for w in self.b1.iter_mut() {
            *w = w.clamp(-CLIP, CLIP);
        }
        if self.arch.stack {
            self.clip_stack();
            return;
        }
        for w in self.w2.iter_mut() {
            *w = w.clamp(-OUTPUT_CLIP, OUTPUT_CLIP);
        }
    }

    /// The integer network the engine runs (weights rounded to their scales).
    pub fn quantise(&self, k: f32, description: &str) -> Network {
        let q = |x: f32, s: i32| (x * s as f32).round() as i16;
        let (threats, h) = (self.threat_rows(), self.arch.hidden);
        let clip = |i: usize| if threats.contains(&(i / h)) { THREAT_CLIP } else { CLIP };
        let w1 = self.folded().iter().enumerate().map(|(i, &w)| q(w.clamp(-clip(i), clip(i)), QA)).collect();
        let b1 = self.b1.iter().map(|&b| q(b, QA)).collect();
        if self.arch.stack {
            let mut net = Network::from_stack(self.arch, w1, b1, self.quantised_stack());
            (net.scale, net.description) = (k.round() as i32, description.into());
            return Network::from_bytes(&net.to_bytes()).expect("a quantised net is within range");
        }
        let m = MAX_OUTPUT_WEIGHT as i16;
        let w2 = self.w2.iter().map(|&w| q(w, QB).clamp(-m, m)).collect();
        let b2 = self.b2.iter().map(|&b| (b * (QA * QB) as f32).round() as i32).collect();
        let mut net = Network::from_parts(self.arch, w1, b1, w2, b2);
        (net.scale, net.description) = (k.round() as i32, description.into());
        // Decoding re-checks the ranges.
        Network::from_bytes(&net.to_bytes()).expect("a quantised net is within range")
    }

    /// Its weight vectors: w1, b1, w2, b2, then a stack's w3, b3, w4, b4 (empty without one).
    pub(super) fn tensors(&self) -> [&Vec<f32>; 8] {
        [&self.w1, &self.b1, &self.w2, &self.b2, &self.w3, &self.b3, &self.w4, &self.b4]
    }

    /// The weight tensors, to change in place.
    pub(super) fn tensors_mut(&mut self) -> [&mut Vec<f32>; 8] {
        let FloatNet { w1, b1, w2, b2, w3, b3, w4, b4, .. } = self;
        [w1, b1, w2, b2, w3, b3, w4, b4]
    }

    /// The net's shape.
    pub fn arch(&self) -> Arch {
        self.arch
    }

    /// The rows of the threat inputs (empty without them).
    fn threat_rows(&self) -> std::ops::Range<usize> {
        self.arch.piece_inputs()..self.arch.inputs()
    }
}

/// The integer net's evaluation of a sample, in centipawns (side to move's view).
pub(super) fn integer_eval(net: &Network, s: &Sample) -> i32 {
    let arch = net.arch();
    let mut acc = nnue::Accumulator { v: [net.b1.clone(), net.b1.clone()] };
    let mut idx = [0u32; MAX_FEATURES];
    for (half, v) in acc.v.iter_mut().enumerate() {
        let count = s.indices(&arch, half, false, &mut idx);
        for &i in &idx[..count] {
            v.iter_mut().zip(net.column(i as usize)).for_each(|(a, w)| *a += w);
        }
    }
    net.output(&acc.v[0], &acc.v[1], s.bucket(&arch))
}
