//! Move text: arbitrary bytes as ICCS move words, played on a fixed position when legal.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[allow(dead_code)]
#[path = "../../tests/reference/mod.rs"]
mod reference;

#[allow(dead_code)]
#[path = "../../tests/checks/mod.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::check_move_text_bytes(data));
