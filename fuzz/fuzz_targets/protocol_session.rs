//! Protocol session: the input as a whole session's stdin, run in process to end of input.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[allow(dead_code)]
#[path = "../../tests/reference/mod.rs"]
mod reference;

#[allow(dead_code)]
#[path = "../../tests/checks/mod.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::protocol::check_session_bytes(data));
