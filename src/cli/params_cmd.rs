//! `chuhe params`: the search's tunable parameters and technique switches, one per line, for
//! tuners and for `chuhe match ... option.NAME=V` (every protocol accepts them as hidden
//! options).

use crate::search::{Features, SearchParams};

/// One line for `chuhe --help`.
pub(super) const ABOUT: &str = "list the search's tunable parameters and switches (hidden engine options)";

/// `chuhe params --help`.
pub(super) const HELP: &str = "\
usage:
  chuhe params

Prints 'NAME, int, DEFAULT, MIN, MAX' per search parameter (the list format SPSA tuners such
as OpenBench read) and 'NAME, bool, DEFAULT' per selective-technique switch. Every protocol
accepts them as hidden options: UCI 'setoption name rfp_margin value 100', UCCI 'setoption
rfp_margin 100', CECP 'option rfp_margin=100'; chuhe match passes them as option.NAME=V.

examples:
  chuhe params
  chuhe params | grep bool
";

/// Prints `NAME, int, DEFAULT, MIN, MAX` per parameter (the list format SPSA tuners such as
/// OpenBench read) and `NAME, bool, DEFAULT` per switch.
pub fn run(args: &[String]) -> Result<(), String> {
    if let Some(extra) = args.first() {
        return Err(format!("takes no arguments, got '{extra}'"));
    }
    for s in SearchParams::SPECS {
        outln!("{}, int, {}, {}, {}", s.name, s.default, s.min, s.max);
    }
    let mut defaults = Features::default();
    for name in Features::NAMES {
        let on = *defaults.switch(name).expect("every listed switch exists");
        outln!("{name}, bool, {on}");
    }
    Ok(())
}
