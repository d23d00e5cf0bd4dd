//! FEN parsing: arbitrary bytes as a FEN; accepted positions are checked against the reference rules.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[allow(dead_code)]
#[path = "../../tests/reference/mod.rs"]
mod reference;

#[allow(dead_code)]
#[path = "../../tests/checks/mod.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::check_fen_bytes(data));
