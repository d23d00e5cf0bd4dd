//! The default net retrains from the committed data byte for byte (issue 70): the one
//! documented command, `scripts/retrain-default.sh`, run with this build's binary. About two
//! minutes of two threads; the result depends on the seed and thread count, not on timing.

use std::path::PathBuf;
use std::process::Command;

#[test]
fn the_default_net_retrains_from_data_byte_for_byte() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("retrained-default.nnue");
    let run = Command::new("bash")
        .arg(root.join("scripts/retrain-default.sh"))
        .arg(&out)
        .env("CHUHE", env!("CARGO_BIN_EXE_chuhe"))
        .output()
        .expect("run scripts/retrain-default.sh");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&run.stderr));
    let retrained = std::fs::read(&out).unwrap();
    let shipped = std::fs::read(root.join("nets/default.nnue")).unwrap();
    assert!(retrained == shipped, "the retrained net differs from nets/default.nnue:\n{stdout}");
    assert!(stdout.contains("byte for byte"), "{stdout}");
}
