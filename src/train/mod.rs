//! The network trainer behind `chuhe train` (`docs/nnue.md`, "Training a network").
//!
//! Floating point, any `eval::nnue::Arch` (`net`): sparse inputs, SCReLU hidden layer, one
//! output per output bucket whose `sigmoid(o)` is the side to move's expected score. The
//! target blends the game result with the datagen search score,
//! `λ·result + (1−λ)·sigmoid(score/K)`; the loss is the mean squared error. Adam over
//! mini-batches split across a pool of worker threads started once per run, cosine
//! learning-rate decay, one game in ten held back for validation, the best validation epoch
//! kept; then `FloatNet::quantise` writes the engine's integer net (centipawns = o × K).

pub mod checkpoint;
mod net;
mod stack;

use crate::board::zobrist::Rng;
use crate::board::Color;
use crate::eval::nnue::Network;
use crate::fit::{self, sigmoid, Adam, Epoch, Split};
pub use checkpoint::Checkpoint;
pub use net::{FloatNet, Sample};
use std::sync::{mpsc, Mutex, RwLock};

impl Sample {
    /// A datagen record's sample: its result and score from the side to move's view.
    fn of_record(r: &crate::datagen::Record) -> Sample {
        let red = r.red_score();
        let result = if r.position.side_to_move() == Color::Red { red } else { 1.0 - red };
        Sample::new(&r.position, result, r.score as f32)
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

impl FloatNet {
    /// Mean loss over `samples` (no mirroring), over `threads`.
    pub fn loss(&self, samples: &[Sample], cfg: &Config) -> f64 {
        if samples.is_empty() {
            return 0.0;
        }
        let folded = self.folded();
        let parts = fit::in_parts(samples, cfg.threads, |part| {
            let mut h = [vec![0.0; self.arch.hidden], vec![0.0; self.arch.hidden]];
            let mut sum = 0.0f64;
            for s in part {
                sum += (sigmoid(self.forward(&folded, s, false, &mut h)) - cfg.target(s)).powi(2) as f64;
            }
            sum
        });
        parts.into_iter().sum::<f64>() / samples.len() as f64
    }
}

/// The largest and the mean |integer − float| evaluation over `samples`, centipawns.
pub fn quantisation_error(float: &FloatNet, int: &Network, samples: &[Sample], k: f32) -> (f32, f32) {
    let folded = float.folded();
    let diffs: Vec<f32> =
        samples.iter().map(|s| (float.output(&folded, s) * k - net::integer_eval(int, s) as f32).abs()).collect();
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
        let moments = self.m.tensors_mut().into_iter().zip(self.v.tensors_mut());
        for ((w, g), (m, v)) in net.tensors_mut().into_iter().zip(g.tensors()).zip(moments) {
            for i in 0..w.len() {
                step.update(&mut w[i], g[i], &mut m[i], &mut v[i]);
            }
        }
        net.clip();
    }
}

/// What the workers read during a batch: the net, its folded input columns, the epoch's
/// sample order and mirroring seed.
struct Shared {
    net: FloatNet,
    folded: Vec<f32>,
    order: Vec<u32>,
    epoch_seed: u64,
}

/// A worker's gradient buffer (the net's shape) and summed loss.
struct Grad {
    net: FloatNet,
    loss: f64,
    /// Scratch hidden layers.
    hidden: [Vec<f32>; 2],
}

/// Adds the gradient of the samples `order[range]` into `g`, with the float loops compiled
/// for AVX2 where the CPU has it (checked once per process; the same sums in the same order,
/// so the same results: Rust does not fuse multiplies and adds on its own).
fn work(shared: &Shared, data: &Data, cfg: &Config, range: (usize, usize), g: &mut Grad) {
    #[cfg(target_arch = "x86_64")]
    if crate::eval::nnue::Simd::detect() != crate::eval::nnue::Simd::Portable {
        // SAFETY: `Simd::detect` found AVX2 on this CPU, all `target_feature` requires.
        return unsafe { work_avx2(shared, data, cfg, range, g) };
    }
    work_portable(shared, data, cfg, range, g)
}

/// `work` compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn work_avx2(shared: &Shared, data: &Data, cfg: &Config, range: (usize, usize), g: &mut Grad) {
    work_portable(shared, data, cfg, range, g)
}

/// `work` for the target's baseline.
#[inline(always)]
fn work_portable(shared: &Shared, data: &Data, cfg: &Config, range: (usize, usize), g: &mut Grad) {
    let mut loss = 0.0f64;
    for &i in &shared.order[range.0..range.1] {
        let s = &data.train[i as usize];
        let mirror = cfg.mirror && crate::board::zobrist::splitmix(shared.epoch_seed ^ i as u64).1 & 1 == 1;
        loss += shared.net.backprop(&shared.folded, s, cfg.target(s), mirror, &mut g.net, &mut g.hidden) as f64;
    }
    g.loss += loss;
}

/// Sums the workers' gradients into the first (in worker order, so a run is reproducible),
/// zeroes the others, and turns the sum into the mean over `n` samples of every training row.
fn reduce(grads: &mut [std::sync::MutexGuard<'_, Grad>], net: &FloatNet, n: usize) {
    let (first, rest) = grads.split_at_mut(1);
    let total: &mut Grad = &mut first[0];
    for g in rest.iter_mut() {
        let g: &mut Grad = g;
        total.loss += std::mem::take(&mut g.loss);
        for (t, x) in total.net.tensors_mut().into_iter().zip(g.net.tensors_mut()) {
            t.iter_mut().zip(x.iter_mut()).for_each(|(t, x)| *t += std::mem::take(x));
        }
    }
    net.unfold_gradient(&mut total.net.w1);
    let scale = 1.0 / n as f32;
    total.net.tensors_mut().into_iter().for_each(|t| t.iter_mut().for_each(|x| *x *= scale));
}

/// The shuffle of the sample order and the mirroring seed that start an epoch.
fn next_epoch(rng: &mut Rng, order: &mut [u32]) -> u64 {
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    rng.next_u64()
}

/// Trains a net from `start` on `data`; calls `progress` after every epoch and returns the
/// net of the epoch with the lowest validation loss (the last one without validation data).
/// `cfg.threads` workers (this thread one of them) live for the whole run; each batch is
/// split among them, each adding its part's gradient into its own buffer. With `resume` the
/// run goes on after that checkpoint's epochs (`start` is then unused); `saved` gets the
/// state after every epoch.
pub fn train(
    data: &Data,
    cfg: &Config,
    start: FloatNet,
    resume: Option<Checkpoint>,
    mut progress: impl FnMut(&Epoch),
    mut saved: impl FnMut(&Checkpoint),
) -> FloatNet {
    let arch = start.arch;
    let threads = cfg.threads.max(1);
    let mut rng = Rng::new(cfg.seed ^ 0x5eed_7a1e);
    let mut order: Vec<u32> = (0..data.train.len() as u32).collect();
    let (start, mut adam, mut best, first_epoch) = match resume {
        None => {
            let adam = Moments { adam: Adam::default(), m: FloatNet::zeros(arch), v: FloatNet::zeros(arch) };
            (start, adam, None, 0)
        }
        Some(c) => {
            // The epochs done drew their shuffles from the generator: draw them again.
            for _ in 0..c.epochs {
                next_epoch(&mut rng, &mut order);
            }
            (c.net, Moments { adam: Adam::after(c.adam_steps), m: c.m, v: c.v }, c.best, c.epochs)
        }
    };
    let folded = start.folded();
    let shared = RwLock::new(Shared { net: start, folded, order, epoch_seed: 0 });
    let new_grad =
        || Grad { net: FloatNet::zeros(arch), loss: 0.0, hidden: [vec![0.0; arch.hidden], vec![0.0; arch.hidden]] };
    let grads: Vec<Mutex<Grad>> = (0..threads).map(|_| Mutex::new(new_grad())).collect();
    std::thread::scope(|scope| {
        let (done_tx, done_rx) = mpsc::channel::<()>();
        let mut jobs = Vec::new();
        for grad in &grads[1..] {
            let (tx, rx) = mpsc::channel::<(usize, usize)>();
            jobs.push(tx);
            let (done, shared) = (done_tx.clone(), &shared);
            scope.spawn(move || {
                // Ends when the run drops its job senders.
                while let Ok(range) = rx.recv() {
                    work(
                        &shared.read().expect("no worker panics"),
                        data,
                        cfg,
                        range,
                        &mut grad.lock().expect("no worker panics"),
                    );
                    if done.send(()).is_err() {
                        break;
                    }
                }
            });
        }
        for epoch in first_epoch..cfg.epochs {
            let clock = std::time::Instant::now();
            let progress_share = epoch as f32 / cfg.epochs.max(2).saturating_sub(1) as f32;
            let lr = cfg.lr
                * (cfg.final_lr + (1.0 - cfg.final_lr) * 0.5 * (1.0 + (std::f32::consts::PI * progress_share).cos()));
            {
                let mut s = shared.write().expect("no worker panics");
                s.epoch_seed = next_epoch(&mut rng, &mut s.order);
            }
            let mut train_loss = 0.0;
            let batch = cfg.batch.max(1);
            for start in (0..data.train.len()).step_by(batch) {
                let end = (start + batch).min(data.train.len());
                let part = (end - start).div_ceil(threads);
                let range = |w: usize| ((start + w * part).min(end), (start + (w + 1) * part).min(end));
                for (w, tx) in jobs.iter().enumerate() {
                    tx.send(range(w + 1)).expect("workers live for the run");
                }
                work(
                    &shared.read().expect("no worker panics"),
                    data,
                    cfg,
                    range(0),
                    &mut grads[0].lock().expect("no worker panics"),
                );
                for _ in 1..threads {
                    done_rx.recv().expect("workers live for the run");
                }
                let mut locked: Vec<_> = grads.iter().map(|g| g.lock().expect("no worker panics")).collect();
                let mut s = shared.write().expect("no worker panics");
                reduce(&mut locked, &s.net, end - start);
                let total: &mut Grad = &mut locked[0];
                adam.step(&mut s.net, &total.net, lr);
                let Shared { net, folded, .. } = &mut *s;
                net.fold_into(folded);
                train_loss += std::mem::take(&mut total.loss);
                total.net.tensors_mut().into_iter().for_each(|t| t.fill(0.0));
            }
            let seconds = clock.elapsed().as_secs_f64();
            let s = shared.read().expect("no worker panics");
            let validation = if data.validation.is_empty() { f64::NAN } else { s.net.loss(&data.validation, cfg) };
            progress(&Epoch {
                number: epoch + 1,
                train: train_loss / data.train.len().max(1) as f64,
                validation,
                lr: f64::from(lr),
                samples_per_s: data.train.len() as f64 / seconds.max(1e-9),
            });
            if data.validation.is_empty() || best.as_ref().is_none_or(|b| validation < b.0) {
                best = Some((validation, s.net.clone()));
            }
            saved(&Checkpoint {
                epochs: epoch + 1,
                net: s.net.clone(),
                m: adam.m.clone(),
                v: adam.v.clone(),
                adam_steps: adam.adam.steps(),
                best: best.clone(),
            });
        }
        drop(jobs);
    });
    let last = shared.into_inner().expect("no worker panics").net;
    best.map_or(last, |b| b.1)
}

#[cfg(test)]
mod tests;
