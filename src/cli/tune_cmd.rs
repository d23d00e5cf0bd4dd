//! `chuhe tune --data FILE... [--out FILE] [...]`: fits the evaluation's weights to datagen
//! files and writes them as `src/eval/weights.rs` source. See docs/datagen.md.

use super::args::{all_cores, data_files, loaded, sigmoid_scale};
use super::Args;
use crate::tune::{self, Data, Loss, Schedule};
use std::time::Instant;

/// One line for `chuhe --help`.
pub(super) const ABOUT: &str = "fit the evaluation's weights to datagen files (Texel tuning)";

/// `chuhe tune --help`.
pub(super) const HELP: &str = "\
usage:
  chuhe tune --data FILE... [--out FILE] [--epochs N] [--rate R] [--lambda L] [--k K]
             [--threads T] [--limit N] [--from FILE] [--report-every N] [--no-rescale]

options (--name VALUE or --name=VALUE):
  --data FILE...      datagen files: their quiet positions, one in ten kept for validation
                      (required)
  --out FILE          write the tuned weights as a src/eval/weights.rs file (default: none)
  --epochs N          passes of Adam over the data (default 300)
  --rate R            Adam's step size (default 2)
  --lambda L          weight of the game result against the search score, 0 to 1 (default 0.5)
  --k K               the sigmoid's scale (default: fitted to the results)
  --threads T         threads computing the loss (default: every core)
  --limit N           use at most N positions (default: all)
  --from FILE         start from the weights in FILE, a weights.rs (default: the built-in ones)
  --report-every N    print the losses every N epochs (default 25)
  --no-rescale        keep the fit's own scale (default: rescaled to the starting weights' scale)

See docs/datagen.md.

examples:
  chuhe datagen --out data.bin --games 10 --seed 7
  chuhe tune --data data.bin --epochs 50 --out weights.rs
";

/// Flags that take a value.
const VALUED: &[&str] = &["out", "epochs", "rate", "lambda", "k", "threads", "limit", "from", "report-every"];

/// Runs `chuhe tune`.
pub fn run(args: &[String]) -> Result<(), String> {
    let (files, rest) = data_files(args)?;
    let a = Args::parse(&rest, VALUED, &["no-rescale"])?;
    let epochs = a.number("epochs", 0, 1_000_000, Some(300))? as usize;
    let threads = a.number("threads", 1, 256, Some(all_cores()))? as usize;
    let limit = a.number("limit", 1, u32::MAX as u64, Some(u32::MAX as u64))? as usize;
    let every = a.number("report-every", 1, 1_000_000, Some(25))? as usize;
    let rate = a.decimal("rate", 2.0, 0.0..=1000.0)?;
    let lambda = a.decimal("lambda", 0.5, 0.0..=1.0)?;
    let start = match a.value("from") {
        None => tune::current(),
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
            tune::to_vector(&tune::parse_weights(&text).map_err(|e| format!("{path}: {e}"))?)
        }
    };

    let clock = Instant::now();
    let data = Data::load(&files, limit)?;
    loaded(data.train.len(), data.validation.len(), data.skipped, clock)?;
    let given_k = sigmoid_scale(&a)?;
    let k = given_k.unwrap_or_else(|| tune::fit_k(&data.train, &start, threads));
    let loss = Loss { k, lambda, threads };
    let before = (loss.of(&data.train, &start), loss.of(&data.validation, &start));
    outln!("sigmoid scale K {k:.1} (fitted to the results: {})", given_k.is_none());
    outln!("loss before: training {:.6} validation {:.6}", before.0, before.1);
    let tuned = tune::descend(&data, &loss, Schedule { epochs, rate }, &start, |e| {
        if e.number % every == 0 {
            outln!(
                "epoch {:>5}  training {:.6}  validation {:.6}  {:.0}s",
                e.number,
                e.train,
                e.validation,
                clock.elapsed().as_secs_f64()
            );
        }
    });
    let fitted = (loss.of(&data.train, &tuned), loss.of(&data.validation, &tuned));
    outln!("loss fitted: training {:.6} validation {:.6}", fitted.0, fitted.1);
    let mut centred = tuned;
    tune::centre_tables(&data, &mut centred);
    if !a.flag("no-rescale") {
        let f = tune::scale_to(&data.train, &centred, &start);
        for x in centred.iter_mut() {
            *x *= f;
        }
        outln!("rescaled by {f:.4} to the starting evaluation's scale (same loss at K {:.1})", k / f);
    }
    let weights = tune::rounded(&centred);
    let written = tune::to_vector(&weights);
    let after = (loss.of(&data.train, &written), loss.of(&data.validation, &written));
    outln!("loss after:  training {:.6} validation {:.6}", after.0, after.1);
    if let Some(out) = a.value("out") {
        let provenance = format!(
            "positions {} training + {} validation, K {k:.1}, lambda {lambda}, {epochs} epochs at rate {rate};\n\
             loss training {:.6} -> {:.6}, validation {:.6} -> {:.6} (fitted; {:.6} and {:.6} as written).",
            data.train.len(),
            data.validation.len(),
            before.0,
            fitted.0,
            before.1,
            fitted.1,
            after.0,
            after.1
        );
        std::fs::write(out, tune::weights_file(&weights, &provenance))
            .map_err(|e| format!("cannot write '{out}': {e}"))?;
        outln!("wrote {out} ({:.0}s)", clock.elapsed().as_secs_f64());
    }
    Ok(())
}
