//! `chuhe train --data FILE... --out NET [...]`: trains a network on datagen files and writes
//! a net file the engine loads (`EvalFile`). See docs/nnue.md.

use super::args::{all_cores, data_files, loaded, sigmoid_scale};
use super::Args;
use crate::board::Position;
use crate::eval::nnue::{Arch, Network};
use crate::train::checkpoint::{self, Checkpoint};
use crate::train::{self, Config, FloatNet};
use std::time::Instant;

/// One line for `chuhe --help`.
pub(super) const ABOUT: &str = "train the evaluation network (NNUE) on datagen files";

/// `chuhe train --help`.
pub(super) const HELP: &str = "\
usage:
  chuhe train --data FILE... --out NET [--epochs N] [--batch B] [--lr R] [--final-lr F]
              [--lambda L] [--k K] [--threads T] [--seed S] [--limit N] [--from NET]
              [--description TEXT] [--no-mirror]
              [--hidden H] [--king-buckets B] [--output-buckets O] [--stack] [--threats]

options (--name VALUE or --name=VALUE):
  --data FILE...      datagen files: their quiet positions, one game in ten kept for
                      validation (required)
  --out NET           the net file to write (required)
  --epochs N          passes over the training data (default 30)
  --batch B           positions per Adam step (default 16384)
  --lr R              Adam's step size at the start (default 0.001)
  --final-lr F        the last epoch's step size as a fraction of --lr, cosine decay (default 0.05)
  --lambda L          weight of the game result against the search score, 0 to 1 (default 0.5)
  --k K               the sigmoid's scale in centipawns (default: fitted, scores to results)
  --threads T         worker threads (default: every core)
  --seed S            seed of the initial weights, shuffles and mirroring (default 1)
  --limit N           use at most N positions (default: all)
  --from NET          start from this net's weights (default: random weights); a net of
                      one king bucket and one output also starts a wider or bucketed net,
                      any net one of its shape with --threats
  --hidden H          hidden neurons per perspective: 256, 512, 768 or 1024
                      (default: the --from net's, else 256)
  --king-buckets B    input sets by the general's palace point: 1 (none), 3 (by rank,
                      files d and f mirrored), 6 (every point, d and f mirrored) or 9
                      (every point) (default: the --from net's, else 1)
  --output-buckets O  outputs by the count of rooks, horses and cannons, 1 to 8
                      (default: the --from net's, else 1)
  --stack             each output bucket a stack of layers, 2xH -> 16 -> 32 -> 1 with
                      clipped ReLU, instead of one linear output (default: the --from
                      net's); started from a net without one, the stack starts random
  --threats           add threat inputs: each capture on the board as (attacker's side
                      and kind, victim's kind, victim's point), computed afresh at each
                      evaluation (default: the --from net's); started from a net without
                      them (of the same shape otherwise), they start at zero
  --description TEXT  text stored in the net file's header, up to 28 characters
  --no-mirror         do not train on left-right mirrored positions

The net kept is the epoch with the lowest validation loss. See docs/nnue.md (the network and
its file) and docs/training.md (training a net from zero).

examples:
  chuhe datagen --out data.bin --games 20 --nodes 1000 --seed 7
  chuhe train --data data.bin --out my.nnue --epochs 5
";

/// Flags that take a value.
const VALUED: &[&str] = &[
    "out",
    "epochs",
    "batch",
    "lr",
    "final-lr",
    "lambda",
    "k",
    "threads",
    "seed",
    "limit",
    "from",
    "description",
    "hidden",
    "king-buckets",
    "output-buckets",
];

/// Runs `chuhe train`.
pub fn run(args: &[String]) -> Result<(), String> {
    let (files, rest) = data_files(args)?;
    let a = Args::parse(&rest, VALUED, &["no-mirror", "stack", "threats"])?;
    let out = a.value("out").ok_or("--out NET is required")?.to_string();
    let start = match a.value("from") {
        None => None,
        Some(path) => Some(Network::load(path).map_err(|e| format!("--from: {e}"))?),
    };
    let mut cfg = Config {
        epochs: a.number("epochs", 1, 100_000, Some(30))? as usize,
        batch: a.number("batch", 1, 1 << 24, Some(16384))? as usize,
        lr: a.decimal("lr", 0.001, 0.0..=1.0)? as f32,
        final_lr: a.decimal("final-lr", 0.05, 0.0..=1.0)? as f32,
        lambda: a.decimal("lambda", 0.5, 0.0..=1.0)? as f32,
        k: 0.0,
        threads: a.number("threads", 1, 256, Some(all_cores()))? as usize,
        seed: a.number("seed", 0, u64::MAX, Some(1))?,
        mirror: !a.flag("no-mirror"),
    };
    let base = start.as_ref().map_or(Arch::ONE, |n| n.arch());
    let arch = Arch::new(
        a.number("hidden", 1, 65535, Some(base.hidden as u64))? as usize,
        a.number("king-buckets", 1, 255, Some(base.king_buckets() as u64))? as usize,
        a.number("output-buckets", 1, 255, Some(base.output_buckets as u64))? as usize,
    )
    .map_err(|e| format!("architecture: {e}"))?
    .with_stack(a.flag("stack") || base.stack)
    .with_threats(a.flag("threats") || base.threats);
    let limit = a.number("limit", 1, u32::MAX as u64, Some(u32::MAX as u64))? as usize;
    let description = a.value("description").unwrap_or("chuhe train").to_string();
    if description.len() > 28 || !description.bytes().all(|b| b.is_ascii_graphic() || b == b' ') {
        return Err(format!("--description '{description}' must be at most 28 printable ASCII characters"));
    }

    let clock = Instant::now();
    let data = train::load(&files, limit)?;
    loaded(data.train.len(), data.validation.len(), data.skipped, clock)?;
    let given_k = sigmoid_scale(&a)?;
    cfg.k = match given_k {
        Some(k) => k as f32,
        None => start.as_ref().map_or_else(|| train::fit_k(&data.train), |n| n.scale() as f32),
    };
    outln!(
        "sigmoid scale K {:.1} ({}); lambda {}, {} epochs of batches of {}, lr {} -> {}, {} threads, seed {}, mirror {}",
        cfg.k,
        if given_k.is_some() {
            "given"
        } else if start.is_some() {
            "the --from net's"
        } else {
            "fitted to the results"
        },
        cfg.lambda,
        cfg.epochs,
        cfg.batch,
        cfg.lr,
        cfg.lr * cfg.final_lr,
        cfg.threads,
        cfg.seed,
        cfg.mirror
    );
    let net = match &start {
        None => FloatNet::random(arch, cfg.seed),
        Some(n) if n.arch() == arch => FloatNet::from_network(n),
        Some(n) => FloatNet::widened(n, arch, cfg.seed).map_err(|e| format!("--from: {e}"))?,
    };
    outln!("network {} ({})", arch.describe(), if start.is_some() { "from --from" } else { "random start" });
    let before = (net.loss(&data.train, &cfg), net.loss(&data.validation, &cfg));
    outln!("loss before: training {:.6} validation {:.6}", before.0, before.1);
    // A run stopped before its end left `NET.ckpt`: go on after its last whole epoch.
    let ckpt = checkpoint::path_of(&out);
    let fingerprint = run_fingerprint(&cfg, arch, &files, limit, &data, start.as_ref());
    let resume = load_checkpoint(&ckpt, arch, fingerprint)?;
    if let Some(c) = &resume {
        outln!("resuming from '{ckpt}' after epoch {} of {}", c.epochs, cfg.epochs);
    }
    let mut save_error = None;
    let trained = train::train(
        &data,
        &cfg,
        net,
        resume,
        |e| {
            outln!(
                "epoch {:>4}  training {:.6}  validation {:.6}  lr {:.6}  {:.0} positions/s  {:.0}s",
                e.number,
                e.train,
                e.validation,
                e.lr,
                e.samples_per_s,
                clock.elapsed().as_secs_f64()
            );
        },
        |c| {
            if save_error.is_none() {
                save_error = checkpoint::save(&ckpt, &c.encode(fingerprint)).err();
            }
        },
    );
    if let Some(e) = save_error {
        return Err(format!("cannot write '{ckpt}': {e}"));
    }
    let after = (trained.loss(&data.train, &cfg), trained.loss(&data.validation, &cfg));
    outln!("loss after:  training {:.6} validation {:.6} (the best validation epoch)", after.0, after.1);
    let quantised = trained.quantise(cfg.k, &description);
    let check = if data.validation.is_empty() { &data.train } else { &data.validation };
    let (max, mean) = train::quantisation_error(&trained, &quantised, check, cfg.k);
    outln!("quantised: |integer - float| over {} positions: max {max:.1} cp, mean {mean:.2} cp", check.len());
    let startpos = Position::startpos();
    outln!(
        "start position: float {:.1} cp, integer {} cp",
        trained.evaluate(&startpos, cfg.k),
        quantised.evaluate_position(&startpos)
    );
    std::fs::write(&out, quantised.to_bytes()).map_err(|e| format!("cannot write '{out}': {e}"))?;
    outln!("wrote {out}: checksum {:016x} ({:.0}s)", quantised.checksum(), clock.elapsed().as_secs_f64());
    std::fs::remove_file(&ckpt).map_err(|e| format!("cannot remove '{ckpt}': {e}"))
}

/// The checkpoint a stopped run left at `ckpt`, if any; an error when it is damaged or
/// belongs to another run.
fn load_checkpoint(ckpt: &str, arch: Arch, fingerprint: u64) -> Result<Option<Checkpoint>, String> {
    let bytes = match std::fs::read(ckpt) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read '{ckpt}': {e}")),
        Ok(bytes) => bytes,
    };
    match Checkpoint::decode(&bytes, arch, fingerprint).map_err(|e| format!("'{ckpt}': {e}"))? {
        Some(c) => Ok(Some(c)),
        None => Err(format!(
            "'{ckpt}' holds an unfinished run with other flags, data or threads: run it with the same \
             ones to finish it, or delete it to start afresh"
        )),
    }
}

/// A digest of what decides the trained weights: the flags (threads and seed among them),
/// the shape, the data files and what was loaded from them, and the starting net.
fn run_fingerprint(
    cfg: &Config,
    arch: Arch,
    files: &[String],
    limit: usize,
    data: &train::Data,
    from: Option<&Network>,
) -> u64 {
    let sizes: Vec<u64> = files.iter().map(|f| std::fs::metadata(f).map_or(0, |m| m.len())).collect();
    let text = format!(
        "{cfg:?} {} {files:?} {sizes:?} {limit} {} {} {:?}",
        arch.describe(),
        data.train.len(),
        data.validation.len(),
        from.map(|n| n.checksum())
    );
    crate::board::zobrist::digest(0x7472_6169_6e00_0001, &text)
}
