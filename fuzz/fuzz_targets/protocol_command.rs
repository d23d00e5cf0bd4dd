//! Protocol command parser: every line of the input through both dialects' parsers.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[allow(dead_code)]
#[path = "../../tests/reference/mod.rs"]
mod reference;

#[allow(dead_code)]
#[path = "../../tests/checks/mod.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::protocol::check_command_bytes(data));
