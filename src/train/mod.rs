//! The network trainer behind `chuhe train` (`docs/training.md`, "Training a network").
//!
//! Floating point, the same architecture as `eval::nnue`: sparse inputs, SCReLU hidden layer,
//! one output `o` whose `sigmoid(o)` is the side to move's expected score. The target blends
//! the game result with the datagen search score, `λ·result + (1−λ)·sigmoid(score/K)`; the
//! loss is the mean squared error. Adam over mini-batches split across threads, cosine
//! learning-rate decay, one game in ten held back for validation, the best validation
//! epoch kept; then `quantise` writes the engine's integer net (centipawns = o × K).

use crate::board::zobrist::Rng;
use crate::board::{Color, Piece, Position};
use crate::eval::nnue::{self, Arch, Network, INPUTS, MAX_OUTPUT_WEIGHT, QA, QB};

/// Hidden neurons (architecture 1).
const HIDDEN: usize = 256;
use crate::fit::{self, sigmoid, Adam, Epoch, Split};

/// Input weights and biases are kept within ±CLIP: quantised, a bias and 32 columns of
/// CLIP·QA stay inside an i16.
const CLIP: f32 = 1.98;
/// Output weights are kept within ±OUTPUT_CLIP: quantised, at most `MAX_OUTPUT_WEIGHT`.
const OUTPUT_CLIP: f32 = MAX_OUTPUT_WEIGHT as f32 / QB as f32;
/// Most pieces on a board.
const MAX_FEATURES: usize = 32;
/// Blocks of 90 points in the inputs: (own or enemy) × kind.
const BLOCKS: usize = INPUTS / 90;
/// Training-only inputs that share what an input's neighbours learn (the *factoriser*): its
/// (side, kind) whatever the point, its (side, kind, rank) and its (side, kind, file). Each
/// real input also turns these on; writing the net folds them into the real columns, so the
/// engine's network is unchanged. A rarely seen point still gets its kind's value.
const VIRTUAL: usize = BLOCKS + BLOCKS * 10 + BLOCKS * 9;
/// Input rows the float net trains.
const ROWS: usize = INPUTS + VIRTUAL;

/// The training rows an input turns on: itself and its three shared rows.
#[inline(always)]
fn rows(feature: usize) -> [usize; 4] {
    let (block, point) = (feature / 90, feature % 90);
    [feature, INPUTS + block, INPUTS + BLOCKS + block * 10 + point / 9, INPUTS + BLOCKS * 11 + block * 9 + point % 9]
}

/// A training position: its active inputs from the side to move's view and the other's.
#[derive(Clone)]
pub struct Sample {
    us: [u16; MAX_FEATURES],
    them: [u16; MAX_FEATURES],
    count: u8,
    /// Game result for the side to move: 1, 0.5, 0.
    result: f32,
    /// Search score, centipawns, side to move's view.
    score: f32,
}

impl Sample {
    /// A datagen record's sample: its result and score from the side to move's view.
    fn of_record(r: &crate::datagen::Record) -> Sample {
        let red = r.red_score();
        let result = if r.position.side_to_move() == Color::Red { red } else { 1.0 - red };
        Sample::new(&r.position, result, r.score as f32)
    }

    /// The sample of `pos` with its result and score (side to move's view).
    pub fn new(pos: &Position, result: f32, score: f32) -> Sample {
        let stm = pos.side_to_move();
        let mut s = Sample { us: [0; MAX_FEATURES], them: [0; MAX_FEATURES], count: 0, result, score };
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
}

/// Training and validation samples.
pub type Data = Split<Vec<Sample>>;

/// Reads the quiet records of datagen files (at most `limit`).
pub fn load(paths: &[String], limit: usize) -> Result<Data, String> {
    fit::load(paths, limit, |samples: &mut Vec<Sample>, r| samples.push(Sample::of_record(r)))
}

/// The scale `K` (centipawns) that best maps the search scores to the results (on the mean
/// squared error).
pub fn fit_k(samples: &[Sample]) -> f32 {
    fit::fit_k(|k: f32| samples.iter().map(|s| (sigmoid(s.score / k) - s.result).powi(2) as f64).sum::<f64>())
}

/// The network in floating point.
#[derive(Clone)]
pub struct FloatNet {
    /// Input columns, `INPUTS × HIDDEN`, column-major by input.
    w1: Vec<f32>,
    b1: Vec<f32>,
    /// Output weights: side to move's half, then the other's.
    w2: Vec<f32>,
    b2: f32,
}

/// Gradients (same shape as the net) and the summed loss of a slice.
struct Grad {
    net: FloatNet,
    loss: f64,
}

impl FloatNet {
    /// Small random weights from `seed`.
    pub fn random(seed: u64) -> FloatNet {
        let mut rng = Rng::new(seed);
        let mut uniform = |a: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * a;
        // Shared rows start at zero: at first every input is only itself.
        let w1 = (0..ROWS * HIDDEN).map(|i| if i < INPUTS * HIDDEN { uniform(0.1) } else { 0.0 }).collect();
        let b1 = (0..HIDDEN).map(|_| 0.1 + uniform(0.1)).collect();
        let w2 = (0..2 * HIDDEN).map(|_| uniform(0.1)).collect();
        FloatNet { w1, b1, w2, b2: 0.0 }
    }

    /// A quantised net's weights back in floating point (to train on from it).
    pub fn from_network(net: &Network) -> FloatNet {
        let (qa, qb) = (QA as f32, QB as f32);
        FloatNet {
            w1: net.w1.iter().map(|&w| w as f32 / qa).chain(std::iter::repeat_n(0.0, VIRTUAL * HIDDEN)).collect(),
            b1: net.b1.iter().map(|&w| w as f32 / qa).collect(),
            w2: net.w2.iter().map(|&w| w as f32 / qb).collect(),
            b2: net.b2[0] as f32 / (qa * qb),
        }
    }

    fn zeros() -> FloatNet {
        FloatNet { w1: vec![0.0; ROWS * HIDDEN], b1: vec![0.0; HIDDEN], w2: vec![0.0; 2 * HIDDEN], b2: 0.0 }
    }

    /// The hidden pre-activations of one perspective.
    #[inline]
    fn hidden(&self, features: &[u16], mirror: bool, out: &mut [f32; HIDDEN]) {
        out.copy_from_slice(&self.b1);
        for &f in features {
            let f = if mirror { nnue::mirrored(f as usize) } else { f as usize };
            for r in rows(f) {
                for (o, w) in out.iter_mut().zip(&self.w1[r * HIDDEN..(r + 1) * HIDDEN]) {
                    *o += w;
                }
            }
        }
    }

    /// The input column the engine gets for `feature`: its row plus its shared rows.
    fn folded(&self, feature: usize) -> [f32; HIDDEN] {
        let mut col = [0f32; HIDDEN];
        for r in rows(feature) {
            for (c, w) in col.iter_mut().zip(&self.w1[r * HIDDEN..(r + 1) * HIDDEN]) {
                *c += w;
            }
        }
        col
    }

    /// The raw output `o` of a sample and both perspectives' hidden pre-activations.
    fn forward(&self, s: &Sample, mirror: bool) -> (f32, [f32; HIDDEN], [f32; HIDDEN]) {
        let n = s.count as usize;
        let (mut hu, mut ht) = ([0f32; HIDDEN], [0f32; HIDDEN]);
        self.hidden(&s.us[..n], mirror, &mut hu);
        self.hidden(&s.them[..n], mirror, &mut ht);
        let screlu = |x: f32| x.clamp(0.0, 1.0).powi(2);
        let (own, other) = self.w2.split_at(HIDDEN);
        let o = self.b2
            + hu.iter().zip(own).map(|(h, w)| screlu(*h) * w).sum::<f32>()
            + ht.iter().zip(other).map(|(h, w)| screlu(*h) * w).sum::<f32>();
        (o, hu, ht)
    }

    /// The raw output `o` of a sample.
    fn output(&self, s: &Sample, mirror: bool) -> f32 {
        self.forward(s, mirror).0
    }

    /// The evaluation of `pos` in centipawns (side to move's view) at scale `k`.
    pub fn evaluate(&self, pos: &Position, k: f32) -> f32 {
        self.output(&Sample::new(pos, 0.0, 0.0), false) * k
    }

    /// Adds the gradient of one sample's loss into `g`; returns the loss.
    fn backprop(&self, s: &Sample, target: f32, mirror: bool, g: &mut FloatNet) -> f32 {
        let n = s.count as usize;
        let (o, mut hu, mut ht) = self.forward(s, mirror);
        let p = sigmoid(o);
        let d = 2.0 * (p - target) * p * (1.0 - p);
        g.b2 += d;
        for (half, h, features) in [(0, &mut hu, &s.us[..n]), (HIDDEN, &mut ht, &s.them[..n])] {
            let (w2, g2) = (&self.w2[half..half + HIDDEN], &mut g.w2[half..half + HIDDEN]);
            for (((x, w), gw), gb) in h.iter_mut().zip(w2).zip(g2).zip(g.b1.iter_mut()) {
                let a = x.clamp(0.0, 1.0);
                *gw += d * a * a;
                // d/dx of clamp(x)² is 2x inside (0, 1), else 0: `x` becomes dL/dx.
                *x = if *x > 0.0 && *x < 1.0 { d * w * 2.0 * *x } else { 0.0 };
                *gb += *x;
            }
            for &f in features {
                let f = if mirror { nnue::mirrored(f as usize) } else { f as usize };
                for r in rows(f) {
                    for (gw, dh) in g.w1[r * HIDDEN..(r + 1) * HIDDEN].iter_mut().zip(h.iter()) {
                        *gw += dh;
                    }
                }
            }
        }
        (p - target) * (p - target)
    }

    /// Mean loss over `samples` (no mirroring), over `threads`.
    pub fn loss(&self, samples: &[Sample], cfg: &Config) -> f64 {
        if samples.is_empty() {
            return 0.0;
        }
        let parts = fit::in_parts(samples, cfg.threads, |part| {
            part.iter().map(|s| (sigmoid(self.output(s, false)) - cfg.target(s)).powi(2) as f64).sum::<f64>()
        });
        parts.into_iter().sum::<f64>() / samples.len() as f64
    }

    /// The integer network the engine runs (weights rounded to their scales).
    pub fn quantise(&self, k: f32, description: &str) -> Network {
        let q = |x: f32, s: i32| (x * s as f32).round() as i16;
        let w1 = (0..INPUTS).flat_map(|f| self.folded(f).map(|w| q(w.clamp(-CLIP, CLIP), QA))).collect();
        let b1 = self.b1.iter().map(|&b| q(b, QA)).collect();
        let m = MAX_OUTPUT_WEIGHT as i16;
        let w2 = self.w2.iter().map(|&w| q(w, QB).clamp(-m, m)).collect();
        let b2 = vec![(self.b2 * (QA * QB) as f32).round() as i32];
        let mut net = Network::from_parts(Arch::ONE, w1, b1, w2, b2);
        (net.scale, net.description) = (k.round() as i32, description.into());
        // Decoding computes the checksum (and re-checks the ranges).
        Network::from_bytes(&net.to_bytes()).expect("a quantised net is within range")
    }

    fn clip(&mut self) {
        for w in self.w1.iter_mut().chain(self.b1.iter_mut()) {
            *w = w.clamp(-CLIP, CLIP);
        }
        for w in self.w2.iter_mut() {
            *w = w.clamp(-OUTPUT_CLIP, OUTPUT_CLIP);
        }
    }
}

/// The integer net's evaluation of a sample, in centipawns (side to move's view).
fn integer_eval(net: &Network, s: &Sample) -> i32 {
    let n = s.count as usize;
    let mut acc = nnue::Accumulator { v: [net.b1.clone(), net.b1.clone()] };
    for (half, features) in [(0, &s.us[..n]), (1, &s.them[..n])] {
        for &f in features {
            for (a, w) in acc.v[half].iter_mut().zip(net.column(f as usize)) {
                *a += w;
            }
        }
    }
    net.output(&acc.v[0], &acc.v[1], 0)
}

/// The largest and the mean |integer − float| evaluation over `samples`, centipawns.
pub fn quantisation_error(float: &FloatNet, int: &Network, samples: &[Sample], k: f32) -> (f32, f32) {
    let diffs: Vec<f32> =
        samples.iter().map(|s| (float.output(s, false) * k - integer_eval(int, s) as f32).abs()).collect();
    let max = diffs.iter().cloned().fold(0.0, f32::max);
    (max, diffs.iter().sum::<f32>() / diffs.len().max(1) as f32)
}

/// How a training run goes.
#[derive(Clone, Debug)]
pub struct Config {
    /// Passes over the training data.
    pub epochs: usize,
    /// Samples per Adam step.
    pub batch: usize,
    /// Adam's step size at the start; it decays along a cosine to `lr × final_lr`.
    pub lr: f32,
    /// The last epoch's step size, as a fraction of `lr`.
    pub final_lr: f32,
    /// Weight of the game result in the target; the rest is the search score.
    pub lambda: f32,
    /// Sigmoid scale, centipawns.
    pub k: f32,
    /// Worker threads.
    pub threads: usize,
    /// Seed of the initial weights, the shuffles and the mirroring.
    pub seed: u64,
    /// Train on each position or its left-right mirror, at random.
    pub mirror: bool,
}

impl Config {
    #[inline]
    fn target(&self, s: &Sample) -> f32 {
        fit::target(self.lambda, s.result, s.score, self.k)
    }
}

/// Adam over the whole net: its step count and the moment estimates of every weight.
struct Moments {
    adam: Adam,
    m: FloatNet,
    v: FloatNet,
}

impl Moments {
    fn step(&mut self, net: &mut FloatNet, g: &FloatNet, lr: f32) {
        let step = self.adam.step(lr);
        let update = |w: &mut f32, g: f32, m: &mut f32, v: &mut f32| step.update(w, g, m, v);
        let groups = [
            (&mut net.w1, &g.w1, &mut self.m.w1, &mut self.v.w1),
            (&mut net.b1, &g.b1, &mut self.m.b1, &mut self.v.b1),
            (&mut net.w2, &g.w2, &mut self.m.w2, &mut self.v.w2),
        ];
        for (w, g, m, v) in groups {
            for i in 0..w.len() {
                update(&mut w[i], g[i], &mut m[i], &mut v[i]);
            }
        }
        update(&mut net.b2, g.b2, &mut self.m.b2, &mut self.v.b2);
        net.clip();
    }
}

/// Trains a net from `start` on `data`; calls `progress` after every epoch and returns the
/// net of the epoch with the lowest validation loss (the last one without validation data).
pub fn train(data: &Data, cfg: &Config, start: FloatNet, mut progress: impl FnMut(&Epoch)) -> FloatNet {
    let mut net = start;
    let mut adam = Moments { adam: Adam::default(), m: FloatNet::zeros(), v: FloatNet::zeros() };
    let mut rng = Rng::new(cfg.seed ^ 0x5eed_7a1e);
    let mut order: Vec<u32> = (0..data.train.len() as u32).collect();
    let mut best: Option<(f64, FloatNet)> = None;
    let threads = cfg.threads.max(1);
    let mut grads: Vec<Grad> = (0..threads).map(|_| Grad { net: FloatNet::zeros(), loss: 0.0 }).collect();
    for epoch in 0..cfg.epochs {
        let clock = std::time::Instant::now();
        let progress_share = epoch as f32 / cfg.epochs.max(2).saturating_sub(1) as f32;
        let lr = cfg.lr
            * (cfg.final_lr + (1.0 - cfg.final_lr) * 0.5 * (1.0 + (std::f32::consts::PI * progress_share).cos()));
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let epoch_seed = rng.next_u64();
        let mut train_loss = 0.0;
        for batch in order.chunks(cfg.batch.max(1)) {
            fit::in_parts_with(batch, &mut grads, |part, g| {
                let mut loss = 0.0f64;
                for &i in part {
                    let s = &data.train[i as usize];
                    let mirror = cfg.mirror && crate::board::zobrist::splitmix(epoch_seed ^ i as u64).1 & 1 == 1;
                    loss += net.backprop(s, cfg.target(s), mirror, &mut g.net) as f64;
                }
                g.loss = loss;
            });
            let (first, rest) = grads.split_at_mut(1);
            let total = &mut first[0];
            for g in rest.iter_mut() {
                total.loss += g.loss;
                g.loss = 0.0;
                for (t, x) in total.net.w1.iter_mut().zip(g.net.w1.iter_mut()) {
                    *t += *x;
                    *x = 0.0;
                }
                for (t, x) in total.net.b1.iter_mut().zip(g.net.b1.iter_mut()) {
                    *t += *x;
                    *x = 0.0;
                }
                for (t, x) in total.net.w2.iter_mut().zip(g.net.w2.iter_mut()) {
                    *t += *x;
                    *x = 0.0;
                }
                total.net.b2 += g.net.b2;
                g.net.b2 = 0.0;
            }
            let n = batch.len() as f32;
            for x in total.net.w1.iter_mut().chain(total.net.b1.iter_mut()).chain(total.net.w2.iter_mut()) {
                *x /= n;
            }
            total.net.b2 /= n;
            adam.step(&mut net, &total.net, lr);
            train_loss += total.loss;
            total.loss = 0.0;
            for x in total.net.w1.iter_mut().chain(total.net.b1.iter_mut()).chain(total.net.w2.iter_mut()) {
                *x = 0.0;
            }
            total.net.b2 = 0.0;
        }
        let seconds = clock.elapsed().as_secs_f64();
        let validation = if data.validation.is_empty() { f64::NAN } else { net.loss(&data.validation, cfg) };
        progress(&Epoch {
            number: epoch + 1,
            train: train_loss / data.train.len().max(1) as f64,
            validation,
            lr: f64::from(lr),
            samples_per_s: data.train.len() as f64 / seconds.max(1e-9),
        });
        if data.validation.is_empty() || best.as_ref().is_none_or(|b| validation < b.0) {
            best = Some((validation, net.clone()));
        }
    }
    best.map_or(net, |b| b.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gradient_matches_finite_differences() {
        let net = FloatNet::random(4);
        let pos = Position::from_fen("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1").unwrap();
        let s = Sample::new(&pos, 1.0, 120.0);
        let mut g = FloatNet::zeros();
        let target = 0.8;
        net.backprop(&s, target, false, &mut g);
        let loss = |n: &FloatNet| (sigmoid(n.output(&s, false)) - target).powi(2);
        let h = 1e-2f32;
        let f = s.us[3] as usize;
        for (name, index, analytic) in
            [("w1", f * HIDDEN + 5, g.w1[f * HIDDEN + 5]), ("b1", 7, g.b1[7]), ("w2", HIDDEN + 9, g.w2[HIDDEN + 9])]
        {
            let (mut up, mut down) = (net.clone(), net.clone());
            match name {
                "w1" => (up.w1[index] += h, down.w1[index] -= h),
                "b1" => (up.b1[index] += h, down.b1[index] -= h),
                _ => (up.w2[index] += h, down.w2[index] -= h),
            };
            let numeric = (loss(&up) - loss(&down)) / (2.0 * h);
            assert!((numeric - analytic).abs() < 2e-3 + 0.05 * analytic.abs(), "{name}: {numeric} vs {analytic}");
        }
    }

    #[test]
    fn the_quantised_net_is_the_float_net_within_rounding() {
        // Integer inference is exact on the rounded weights; what differs is the rounding
        // of every weight (1/QA, 1/QB), a few centipawns on average at this scale.
        let net = FloatNet::random(8);
        let k = 500.0;
        let q = net.quantise(k, "test");
        let (mut sum, mut max, mut n) = (0.0f32, 0.0f32, 0);
        crate::board::testing::random_games(3, 10, 100, |pos, _, _, _| {
            let err = (net.evaluate(pos, k) - q.evaluate_position(pos) as f32).abs();
            let exact = FloatNet::from_network(&q).evaluate(pos, k) - q.evaluate_position(pos) as f32;
            assert!(exact.abs() < 1.5, "{exact}: {}", pos.to_fen()); // truncating divisions
            sum += err;
            max = max.max(err);
            n += 1;
        });
        assert!(sum / (n as f32) < 8.0 && max < 40.0, "mean {} max {max}", sum / n as f32);
        let samples: Vec<Sample> = [Position::startpos()].iter().map(|p| Sample::new(p, 0.5, 0.0)).collect();
        assert!(quantisation_error(&net, &q, &samples, k).0 < 40.0);
    }
}
