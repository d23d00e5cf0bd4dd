//! A stacked net's layers after the accumulators (`docs/nnue.md`, "Stacks"): per output
//! bucket, the two halves' 2·H inputs → `L2` → `L3` → 1, clipped ReLU between, in integers.
//! Every layer's inputs are 0..=QA (the float range [0, 1]): the first layer's are the
//! accumulators' squared clipped ReLU, `clamp(v, 0, QA)² / QA` rounded. Weights are `i16` at
//! `QL`, so sums and biases are `i32` at `Y = QA × QL`; a clipped ReLU takes a sum back to
//! 0..=QA, rounded. The output is at `Y`.

use super::arch::{L2, L3};
use super::simd::Simd;
use super::QA;

/// Weight scale of the stack's layers.
pub const QL: i32 = 1024;
/// Scale of the layers' sums and of the output: the float 1.0 is Y.
pub const Y: i32 = QA * QL;
/// Largest weight magnitude of the two hidden layers (1.99 at `QL`): 2048 inputs of QA stay
/// inside an `i32`.
pub const MAX_STACK_WEIGHT: i32 = 2040;
/// Largest output weight magnitude (16.0 at `QL`).
pub const MAX_STACK_OUTPUT_WEIGHT: i32 = 16 * QL;
/// Most stack inputs (2 × the widest hidden layer).
const MAX_INPUTS: usize = 2 * 1024;

/// The stack weights of every output bucket, each bucket's block after the one before.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stack {
    /// First layer: `L2` rows of 2·H (the side to move's half, then the other's).
    pub(crate) w2: Vec<i16>,
    /// First layer's biases, `L2`.
    pub(crate) b2: Vec<i32>,
    /// Second layer: `L3` rows of `L2`.
    pub(crate) w3: Vec<i16>,
    /// Second layer's biases, `L3`.
    pub(crate) b3: Vec<i32>,
    /// Output weights, `L3`.
    pub(crate) w4: Vec<i16>,
    /// Output bias, 1.
    pub(crate) b4: Vec<i32>,
}

/// A clipped ReLU: a sum at `Y` back to 0..=QA, rounded.
#[inline(always)]
pub(super) fn clipped(sum: i32) -> i16 {
    ((sum.clamp(0, Y) + QL / 2) / QL) as i16
}

/// `out[j] = b[j] + Σ x · w[j]` for the rows `w[j]` of `x.len()` weights.
#[inline(always)]
fn layer(x: &[i16], w: &[i16], b: &[i32], out: &mut [i32]) {
    for ((o, row), b) in out.iter_mut().zip(w.chunks_exact(x.len())).zip(b) {
        *o = b + x.iter().zip(row).map(|(&x, &w)| x as i32 * w as i32).sum::<i32>();
    }
}

impl Stack {
    /// Lengths of the six tensors of a stack for `hidden` neurons and `buckets` output buckets.
    pub fn sizes(hidden: usize, buckets: usize) -> [usize; 6] {
        [2 * hidden * L2, L2, L3 * L2, L3, L3, 1].map(|n| n * buckets)
    }

    /// The raw output of bucket `bucket` at scale `Y`, given the side to move's half `us` and
    /// the other's `them`.
    #[inline]
    pub fn output(&self, simd: Simd, us: &[i16], them: &[i16], bucket: usize) -> i64 {
        let n = us.len() + them.len();
        let mut z2 = [0i32; L2];
        simd.stack_layer(us, them, &self.w2[bucket * L2 * n..][..L2 * n], &mut z2);
        let b2 = &self.b2[bucket * L2..][..L2];
        let y2: [i16; L2] = std::array::from_fn(|j| clipped(z2[j] + b2[j]));
        let mut z3 = [0i32; L3];
        layer(&y2, &self.w3[bucket * L3 * L2..][..L3 * L2], &self.b3[bucket * L3..][..L3], &mut z3);
        let y3: [i16; L3] = z3.map(clipped);
        let mut out = [0i32; 1];
        layer(&y3, &self.w4[bucket * L3..][..L3], &self.b4[bucket..][..1], &mut out);
        out[0] as i64
    }

    /// Why the weights could overflow the integer sums, if they could.
    pub fn out_of_range(&self) -> Option<String> {
        let widest = |v: &[i16]| v.iter().map(|w| (*w as i32).abs()).max().unwrap_or(0);
        let (hidden, output) = (widest(&self.w2).max(widest(&self.w3)), widest(&self.w4));
        if hidden > MAX_STACK_WEIGHT || output > MAX_STACK_OUTPUT_WEIGHT {
            return Some(format!(
                "stack weights up to {hidden} and {output} (at most {MAX_STACK_WEIGHT} and {MAX_STACK_OUTPUT_WEIGHT})"
            ));
        }
        // |Σ| ≤ 2048·QA·2040 + |b| in the first layer (less in the others).
        let most = MAX_INPUTS as i64 * QA as i64 * MAX_STACK_WEIGHT as i64;
        let fits = |b: &[i32]| b.iter().all(|&b| (b as i64).abs() + most < i32::MAX as i64);
        if !fits(&self.b2) || !fits(&self.b3) || !fits(&self.b4) {
            return Some("a stack bias too large for its sums".into());
        }
        None
    }
}
