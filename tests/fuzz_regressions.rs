//! Replays every kept fuzz input (seeds, and each input that once crashed a target) through
//! the same check the fuzz target runs, so CI guards them without a fuzzing toolchain.
//! Inputs live in tests/fuzz_inputs/<target>/; see docs/hardening.md.

#[allow(dead_code)] // shared with the fuzz targets; this file uses part of it
mod checks;
#[allow(dead_code)]
mod reference;

use std::path::Path;

/// Runs `check` on every file in tests/fuzz_inputs/`target`; returns how many there were.
fn replay(target: &str, check: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_inputs").join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    files.sort();
    for f in &files {
        let data = std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        // Name the input if the check panics, so a failure points at its file.
        let ok = std::panic::catch_unwind(|| check(&data));
        assert!(ok.is_ok(), "fuzz input {} fails its check", f.display());
    }
    files.len()
}

#[test]
fn fen_inputs() {
    assert!(replay("fen", checks::check_fen_bytes) >= 10);
}

#[test]
fn move_text_inputs() {
    assert!(replay("move_text", checks::check_move_text_bytes) >= 4);
}

#[test]
fn protocol_command_inputs() {
    assert!(replay("protocol_command", checks::protocol::check_command_bytes) >= 4);
}

#[test]
fn protocol_session_inputs() {
    assert!(replay("protocol_session", checks::protocol::check_session_bytes) >= 4);
}
