//! `chuhe params`: the search's tunable parameters as OpenBench's SPSA input, and with
//! `--switches` its technique switches, one per line, for tuners and for
//! `chuhe match ... option.NAME=V` (every protocol accepts them as hidden options).

use super::Args;
use crate::search::{Features, SearchParams, SPSA_LEARNING_RATE};

/// One line for `chuhe --help`.
pub(super) const ABOUT: &str = "list the search's tunable parameters (OpenBench SPSA input) and switches";

/// `chuhe params --help`.
pub(super) const HELP: &str = "\
usage:
  chuhe params [--switches]

Prints OpenBench's SPSA input, one line per search parameter:
'NAME, int, DEFAULT, MIN, MAX, STEP, RATE' (STEP is OpenBench's C_end, how far a tune's last
iterations perturb it; RATE its R_end, 0.002 for all). With --switches, prints instead
'NAME, bool, DEFAULT' per selective-technique switch. Every protocol accepts both as hidden
options: UCI 'setoption name rfp_margin value 100', UCCI 'setoption rfp_margin 100', CECP
'option rfp_margin=100'; chuhe match passes them as option.NAME=V.

examples:
  chuhe params
  chuhe params --switches
  chuhe params | grep -E '^(rfp|fp)_'
";

/// Prints the parameters as OpenBench's SPSA input, or with `--switches` the switches.
pub fn run(args: &[String]) -> Result<(), String> {
    let a = Args::parse(args, &[], &["switches"])?;
    if a.flag("switches") {
        for s in Features::SPECS {
            outln!("{}, bool, {}", s.name, s.default);
        }
        return Ok(());
    }
    for s in SearchParams::SPECS {
        outln!("{}, int, {}, {}, {}, {}, {SPSA_LEARNING_RATE}", s.name, s.default, s.min, s.max, s.step);
    }
    Ok(())
}
