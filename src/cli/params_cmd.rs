//! `chuhe params`: the search's tunable parameters and technique switches, one per line, for
//! tuners and for `chuhe match ... option.NAME=V` (every protocol accepts them as hidden
//! options).

use crate::search::{Features, SearchParams};

/// Prints `NAME, int, DEFAULT, MIN, MAX` per parameter (the list format SPSA tuners such as
/// OpenBench read) and `NAME, bool, DEFAULT` per switch.
pub fn run(args: &[String]) -> Result<(), String> {
    if let Some(extra) = args.first() {
        return Err(format!("takes no arguments, got '{extra}'"));
    }
    for s in SearchParams::SPECS {
        println!("{}, int, {}, {}, {}", s.name, s.default, s.min, s.max);
    }
    let mut defaults = Features::default();
    for name in Features::NAMES {
        let on = *defaults.switch(name).expect("every listed switch exists");
        println!("{name}, bool, {on}");
    }
    Ok(())
}
