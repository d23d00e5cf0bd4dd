//! A stacked net's layers after the accumulators, in floating point (`eval::nnue::stack` runs
//! them in integers): per output bucket a = clamp(h, 0, 1)² over both halves (2·H), then
//! `L2` and `L3` neurons with clipped ReLU, then one output. Forward, backward, clipping and
//! quantisation.

use super::net::FloatNet;
use crate::eval::nnue::arch::{L2, L3};
use crate::eval::nnue::stack::{MAX_STACK_OUTPUT_WEIGHT, MAX_STACK_WEIGHT, QL, Y};
use crate::eval::nnue::Stack;

/// Largest stack inputs (2 × the widest hidden layer).
const MAX_INPUTS: usize = 2 * 1024;
/// Hidden-layer weights stay within ±LAYER_CLIP (`MAX_STACK_WEIGHT` at `QL`).
const LAYER_CLIP: f32 = MAX_STACK_WEIGHT as f32 / QL as f32;
/// Output weights stay within ±OUT_CLIP (`MAX_STACK_OUTPUT_WEIGHT` at `QL`).
const OUT_CLIP: f32 = MAX_STACK_OUTPUT_WEIGHT as f32 / QL as f32;

/// What the forward pass keeps for the backward one.
pub(super) struct StackPass {
    z2: [f32; L2],
    z3: [f32; L3],
    /// The raw output.
    pub(super) o: f32,
}

/// Clipped ReLU.
#[inline(always)]
fn crelu(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

/// Whether a clipped ReLU passes gradient at `x`.
#[inline(always)]
fn open(x: f32) -> bool {
    x > 0.0 && x < 1.0
}

/// The stack's inputs from both halves' pre-activations: clamp(h, 0, 1)².
#[inline(always)]
fn inputs(h: &[Vec<f32>; 2], a: &mut [f32]) {
    for (a, x) in a.iter_mut().zip(h[0].iter().chain(&h[1])) {
        *a = crelu(*x) * crelu(*x);
    }
}

impl FloatNet {
    /// Bucket `bucket`'s stack on the hidden pre-activations `h`.
    #[inline(always)]
    pub(super) fn stack_forward(&self, bucket: usize, h: &[Vec<f32>; 2]) -> StackPass {
        let n = 2 * self.arch.hidden;
        let mut a = [0.0f32; MAX_INPUTS];
        inputs(h, &mut a[..n]);
        let w2 = &self.w2[bucket * L2 * n..][..L2 * n];
        let z2: [f32; L2] = std::array::from_fn(|j| {
            self.b2[bucket * L2 + j] + w2[j * n..][..n].iter().zip(&a[..n]).map(|(w, a)| w * a).sum::<f32>()
        });
        let w3 = &self.w3[bucket * L3 * L2..][..L3 * L2];
        let z3: [f32; L3] = std::array::from_fn(|k| {
            self.b3[bucket * L3 + k] + w3[k * L2..][..L2].iter().zip(&z2).map(|(w, z)| w * crelu(*z)).sum::<f32>()
        });
        let w4 = &self.w4[bucket * L3..][..L3];
        let o = self.b4[bucket] + w4.iter().zip(&z3).map(|(w, z)| w * crelu(*z)).sum::<f32>();
        StackPass { z2, z3, o }
    }

    /// Adds the stack's gradient for dL/do = `d` into `g` and turns `h` (the pre-activations)
    /// into dL/dh.
    #[inline(always)]
    pub(super) fn stack_backward(
        &self,
        bucket: usize,
        pass: &StackPass,
        d: f32,
        h: &mut [Vec<f32>; 2],
        g: &mut FloatNet,
    ) {
        let n = 2 * self.arch.hidden;
        g.b4[bucket] += d;
        let (w4, gw4) = (&self.w4[bucket * L3..][..L3], &mut g.w4[bucket * L3..][..L3]);
        let dz3: [f32; L3] = std::array::from_fn(|k| {
            gw4[k] += d * crelu(pass.z3[k]);
            if open(pass.z3[k]) {
                d * w4[k]
            } else {
                0.0
            }
        });
        let mut dz2 = [0.0f32; L2];
        for (k, &dz) in dz3.iter().enumerate() {
            let at = (bucket * L3 + k) * L2;
            g.b3[bucket * L3 + k] += dz;
            let (w3, gw3) = (&self.w3[at..at + L2], &mut g.w3[at..at + L2]);
            for (((gw, w), z), dz2) in gw3.iter_mut().zip(w3).zip(&pass.z2).zip(dz2.iter_mut()) {
                *gw += dz * crelu(*z);
                *dz2 += dz * w;
            }
        }
        let mut a = [0.0f32; MAX_INPUTS];
        inputs(h, &mut a[..n]);
        let mut da = [0.0f32; MAX_INPUTS];
        for (j, (&z, &dz)) in pass.z2.iter().zip(&dz2).enumerate() {
            if !open(z) || dz == 0.0 {
                continue;
            }
            g.b2[bucket * L2 + j] += dz;
            let at = (bucket * L2 + j) * n;
            let (gw, w) = (&mut g.w2[at..at + n], &self.w2[at..at + n]);
            for (((gw, w), a), da) in gw.iter_mut().zip(w).zip(&a[..n]).zip(&mut da[..n]) {
                *gw += dz * a;
                *da += dz * w;
            }
        }
        // d/dx of clamp(x)² is 2x inside (0, 1), else 0.
        let [us, them] = h;
        for (x, d) in us.iter_mut().chain(them.iter_mut()).zip(&da[..n]) {
            *x = if open(*x) { d * 2.0 * *x } else { 0.0 };
        }
    }

    /// Keeps a stack's weights inside what its integers hold.
    pub(super) fn clip_stack(&mut self) {
        for w in self.w2.iter_mut().chain(self.w3.iter_mut()) {
            *w = w.clamp(-LAYER_CLIP, LAYER_CLIP);
        }
        for w in self.w4.iter_mut() {
            *w = w.clamp(-OUT_CLIP, OUT_CLIP);
        }
    }

    /// The stack in integers (weights at `QL`, biases at `Y`).
    pub(super) fn quantised_stack(&self) -> Stack {
        let word = |v: &[f32], most: i32| {
            v.iter().map(|&w| (w * QL as f32).round().clamp(-most as f32, most as f32) as i16).collect()
        };
        let bias = |v: &[f32]| v.iter().map(|&b| (b * Y as f32).round() as i32).collect();
        Stack {
            w2: word(&self.w2, MAX_STACK_WEIGHT),
            b2: bias(&self.b2),
            w3: word(&self.w3, MAX_STACK_WEIGHT),
            b3: bias(&self.b3),
            w4: word(&self.w4, MAX_STACK_OUTPUT_WEIGHT),
            b4: bias(&self.b4),
        }
    }

    /// Sets the stack from an integer one.
    pub(super) fn set_stack(&mut self, stack: &Stack) {
        let (w, b) = (QL as f32, Y as f32);
        let pairs = [
            (&mut self.w2, &stack.w2, &mut self.b2, &stack.b2),
            (&mut self.w3, &stack.w3, &mut self.b3, &stack.b3),
            (&mut self.w4, &stack.w4, &mut self.b4, &stack.b4),
        ];
        for (fw, qw, fb, qb) in pairs {
            fw.iter_mut().zip(qw).for_each(|(f, &q)| *f = q as f32 / w);
            fb.iter_mut().zip(qb).for_each(|(f, &q)| *f = q as f32 / b);
        }
    }
}
