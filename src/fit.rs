//! What the two trainers share, `chuhe tune` (the hand-written evaluation's weights) and
//! `chuhe train` (the network): the data split, the sigmoid and the loss's target, the fit
//! of the sigmoid scale `K`, Adam, the epoch record and the split of work across threads.
//! The network trains in `f32` and the tuner in `f64`; the code is the same for both (`Real`).

use crate::datagen::Record;
use std::ops::{Add, Div, Mul, Neg, Sub};

/// The float types the trainers compute in (`f32`, `f64`).
pub trait Real:
    Copy
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + Send
    + Sync
{
    /// `x`, rounded to this type.
    fn of(x: f64) -> Self;
    /// `e^self`.
    fn exp(self) -> Self;
    /// The square root.
    fn sqrt(self) -> Self;
    /// `self^n`.
    fn powi(self, n: i32) -> Self;
}

macro_rules! real {
    ($t:ty) => {
        impl Real for $t {
            #[inline(always)]
            fn of(x: f64) -> Self {
                x as $t
            }
            #[inline(always)]
            fn exp(self) -> Self {
                <$t>::exp(self)
            }
            #[inline(always)]
            fn sqrt(self) -> Self {
                <$t>::sqrt(self)
            }
            #[inline(always)]
            fn powi(self, n: i32) -> Self {
                <$t>::powi(self, n)
            }
        }
    };
}
real!(f32);
real!(f64);

/// A training and a validation collection (one game in ten, `datagen::read_quiet`) and how
/// many records were skipped (in check, a capture, a decisive score).
#[derive(Default)]
pub struct Split<T> {
    /// Nine games in ten.
    pub train: T,
    /// The rest.
    pub validation: T,
    /// Records skipped: in check, capture, decisive score.
    pub skipped: u64,
}

/// Reads the quiet records of the datagen files `paths` (at most `limit`), adding each to
/// the training or the validation collection with `add`.
pub fn load<T: Default>(
    paths: &[String],
    limit: usize,
    mut add: impl FnMut(&mut T, &Record),
) -> Result<Split<T>, String> {
    let mut split = Split::default();
    split.skipped = crate::datagen::read_quiet(paths, limit, |r, validation| {
        add(if validation { &mut split.validation } else { &mut split.train }, r);
    })?;
    Ok(split)
}

/// The logistic curve: an advantage `x` (a score over `K`) as an expected result.
#[inline]
pub fn sigmoid<T: Real>(x: T) -> T {
    T::of(1.0) / (T::of(1.0) + (-x).exp())
}

/// What a position is trained towards: `λ·result + (1−λ)·sigmoid(score/K)`, the game's
/// result blended with the search's score.
#[inline]
pub fn target<T: Real>(lambda: T, result: T, score: T, k: T) -> T {
    lambda * result + (T::of(1.0) - lambda) * sigmoid(score / k)
}

/// The sigmoid scale `K` in centipawns (50 to 2000) with the lowest `loss`, by
/// golden-section search to within a centipawn.
pub fn fit_k<T: Real>(loss: impl Fn(T) -> f64) -> T {
    let (mut lo, mut hi) = (T::of(50.0), T::of(2000.0));
    let g = (T::of(5.0).sqrt() - T::of(1.0)) / T::of(2.0);
    while hi - lo > T::of(1.0) {
        let (a, b) = (hi - g * (hi - lo), lo + g * (hi - lo));
        if loss(a) < loss(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / T::of(2.0)
}

/// Adam's state between steps: the step count (the moment estimates live beside the
/// weights, one pair per weight).
#[derive(Clone, Copy, Debug, Default)]
pub struct Adam {
    t: i32,
}

/// One Adam step at a step size, with its bias corrections: `update` each weight.
#[derive(Clone, Copy, Debug)]
pub struct AdamStep<T> {
    lr: T,
    c1: T,
    c2: T,
}

/// Adam's decay rates of the first and second moments, and its guard against dividing by 0.
const B1: f64 = 0.9;
const B2: f64 = 0.999;
const EPS: f64 = 1e-8;

impl Adam {
    /// Adam after `steps` steps (a resumed run).
    pub fn after(steps: i32) -> Adam {
        Adam { t: steps }
    }

    /// Steps taken so far.
    pub fn steps(&self) -> i32 {
        self.t
    }

    /// The next step, at step size `lr`.
    pub fn step<T: Real>(&mut self, lr: T) -> AdamStep<T> {
        self.t += 1;
        AdamStep { lr, c1: T::of(1.0) - T::of(B1).powi(self.t), c2: T::of(1.0) - T::of(B2).powi(self.t) }
    }
}

impl<T: Real> AdamStep<T> {
    /// Moves weight `w` against its gradient `g`, with its moments `m` and `v`.
    #[inline(always)]
    pub fn update(&self, w: &mut T, g: T, m: &mut T, v: &mut T) {
        let (b1, b2) = (T::of(B1), T::of(B2));
        *m = b1 * *m + (T::of(1.0) - b1) * g;
        *v = b2 * *v + (T::of(1.0) - b2) * g * g;
        *w = *w - self.lr * (*m / self.c1) / ((*v / self.c2).sqrt() + T::of(EPS));
    }
}

/// One epoch's report.
#[derive(Clone, Copy, Debug)]
pub struct Epoch {
    /// 1-based.
    pub number: usize,
    /// Training loss (the tuner's before its step; the network's the mean over its batches).
    pub train: f64,
    /// Validation loss (the tuner's before its step; the network's after the epoch).
    pub validation: f64,
    /// The step size it used.
    pub lr: f64,
    /// Training samples per second.
    pub samples_per_s: f64,
}

/// Runs `f` on `threads` consecutive slices of `items` at once; their results in order.
pub fn in_parts<S: Sync, T: Send>(items: &[S], threads: usize, f: impl Fn(&[S]) -> T + Sync) -> Vec<T> {
    let chunk = items.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let f = &f;
        let handles: Vec<_> = items.chunks(chunk).map(|part| scope.spawn(move || f(part))).collect();
        handles.into_iter().map(|h| h.join().expect("a worker does not panic")).collect()
    })
}

/// Runs `f` on consecutive slices of `items` at once, one per element of `state` (each
/// worker's own accumulator).
pub fn in_parts_with<S: Sync, W: Send>(items: &[S], state: &mut [W], f: impl Fn(&[S], &mut W) + Sync) {
    let chunk = items.len().div_ceil(state.len().max(1)).max(1);
    std::thread::scope(|scope| {
        let f = &f;
        for (part, w) in items.chunks(chunk).zip(state.iter_mut()) {
            scope.spawn(move || f(part, w));
        }
    });
}

/// The calibration table `chuhe datagen --stats` prints: for quiet positions scored near 0,
/// 1, 2 ... 5 pawns (±50 cp, the side behind folded in with its result turned round), the
/// side to move's wins, draws, losses and mean result against `sigmoid(score/K)`, `K` fitted
/// to the same positions as the trainers fit it. `by_score` is `Stats::by_score`.
pub fn calibration_report(by_score: &[[u64; 3]]) -> String {
    use crate::datagen::stats::{bin_score, CALIBRATION_STEP};
    use std::fmt::Write;
    let mut out = String::new();
    if by_score.iter().all(|n| n.iter().all(|&c| c == 0)) {
        return out;
    }
    let centre = |i: usize| f64::from(bin_score(i)) + f64::from(CALIBRATION_STEP) / 2.0;
    let k = fit_k(|k: f64| {
        let mut loss = 0.0;
        for (i, n) in by_score.iter().enumerate() {
            let p = sigmoid(centre(i) / k);
            loss += n.iter().enumerate().map(|(o, &c)| c as f64 * (p - o as f64 / 2.0).powi(2)).sum::<f64>();
        }
        loss
    });
    let _ = writeln!(out, "calibration (quiet positions, side to move's view; K {k:.1} fitted to them):");
    let _ = writeln!(out, "  score (cp)  positions   wins  draws losses  mean result  sigmoid(score/K)");
    for pawns in 0..=5 {
        let c = f64::from(pawns * 100);
        let (mut wdl, mut predicted) = ([0u64; 3], 0.0);
        for (i, n) in by_score.iter().enumerate() {
            let m = centre(i);
            if (m.abs() - c).abs() >= 50.0 {
                continue;
            }
            let behind = m < 0.0;
            for (o, &count) in n.iter().enumerate() {
                wdl[if behind { 2 - o } else { o }] += count;
            }
            let total: u64 = n.iter().sum();
            predicted += total as f64 * sigmoid(m.abs() / k);
        }
        let total: u64 = wdl.iter().sum();
        if total == 0 {
            continue;
        }
        let pct = |x: u64| 100.0 * x as f64 / total as f64;
        let mean = (wdl[2] as f64 + wdl[1] as f64 / 2.0) / total as f64;
        let _ = writeln!(
            out,
            "  {:>4} ± 50  {total:>10}  {:>4.1}%  {:>4.1}%  {:>4.1}%  {mean:>11.3}  {:>16.3}",
            pawns * 100,
            pct(wdl[2]),
            pct(wdl[1]),
            pct(wdl[0]),
            predicted / total as f64
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_constants_round_to_the_literals_of_each_type() {
        // The f32 trainer's results depend on these being its own literals.
        assert_eq!((f32::of(B1), f32::of(B2), f32::of(EPS)), (0.9f32, 0.999f32, 1e-8f32));
    }

    #[test]
    fn calibration_rows_fold_the_side_behind_and_fit_k() {
        use crate::datagen::stats::{bin_score, CALIBRATION_RANGE, CALIBRATION_STEP};
        let mut bins = vec![[0u64; 3]; (2 * CALIBRATION_RANGE / CALIBRATION_STEP + 1) as usize];
        fn at(cp: i32) -> usize {
            ((cp + CALIBRATION_RANGE) / CALIBRATION_STEP) as usize
        }
        // At +100: 3 wins, 1 draw; at -100: 1 loss (a win for the side ahead), 1 draw.
        bins[at(100)] = [0, 1, 3];
        bins[at(-110)] = [1, 1, 0];
        assert_eq!(bin_score(at(100)), 100);
        let text = calibration_report(&bins);
        let row = text.lines().find(|l| l.trim_start().starts_with("100 ± 50")).unwrap();
        let words: Vec<&str> = row.split_whitespace().collect();
        // 6 positions: 4 wins, 2 draws for the side ahead.
        assert_eq!(&words[3..7], ["6", "66.7%", "33.3%", "0.0%"], "{text}");
        assert_eq!(words[7], "0.833", "{text}");
        assert!(!text.contains("200 ± 50"), "empty rows are left out: {text}");
        assert_eq!(calibration_report(&vec![[0; 3]; bins.len()]), "");
    }

    #[test]
    fn k_is_found_in_either_precision() {
        let k64: f64 = fit_k(|k: f64| (k - 321.0).powi(2));
        let k32: f32 = fit_k(|k: f32| (k as f64 - 321.0).powi(2));
        assert!((k64 - 321.0).abs() < 1.0 && (k32 - 321.0).abs() < 1.0, "{k64} {k32}");
        assert_eq!(sigmoid(0.0f64), 0.5);
        assert_eq!(target(1.0f32, 1.0, -500.0, 400.0), 1.0);
    }

    #[test]
    fn adam_moves_against_the_gradient_and_parts_cover_everything() {
        let mut adam = Adam::default();
        let (mut w, mut m, mut v) = (1.0f64, 0.0, 0.0);
        adam.step(0.1).update(&mut w, 2.0, &mut m, &mut v);
        assert!((w - 0.9).abs() < 1e-6, "{w}");
        let items: Vec<u32> = (1..=10).collect();
        assert_eq!(in_parts(&items, 3, |p| p.iter().sum::<u32>()).iter().sum::<u32>(), 55);
        let mut sums = vec![0u32; 4];
        in_parts_with(&items, &mut sums, |p, s| *s = p.iter().sum());
        assert_eq!(sums.iter().sum::<u32>(), 55);
    }
}
