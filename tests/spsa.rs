//! `scripts/spsa.py` driving the real binary: a run resumes from its log exactly as it would
//! have gone on, and a log of other settings is refused.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const CHUHE: &str = env!("CARGO_BIN_EXE_chuhe");

fn spsa(log: &Path, iterations: u32) -> Output {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/spsa.py");
    Command::new("python3")
        .arg(script)
        .args(["--engine", CHUHE, "--params", "rfp_margin,see_pawn,lmr_div_pct", "--pairs", "3"])
        .args(["--nodes", "1000", "--concurrency", "1", "--c-scale", "5", "--r-end", "0.05", "--seed", "5"])
        .args(["--iterations", &iterations.to_string(), "--log"])
        .arg(log)
        .output()
        .expect("python3 runs")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chuhe-spsa-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_run_resumes_from_its_log_as_it_would_have_gone_on() {
    let dir = temp_dir("resume");
    let whole = dir.join("whole.csv");
    let out = spsa(&whole, 4);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = fs::read_to_string(&whole).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2 + 4, "{text}");
    assert!(lines[0].starts_with("# spsa params=rfp_margin,see_pawn,lmr_div_pct iterations=4"));
    // The values moved (the games were not all even): the test can see a resume go wrong.
    let first: Vec<&str> = lines[2].split(',').collect();
    let last: Vec<&str> = lines[5].split(',').collect();
    assert_ne!(first[4..], last[4..], "{text}");

    // A run cut after two iterations, started again, ends where the whole run ended.
    let cut = dir.join("cut.csv");
    fs::write(&cut, lines[..4].join("\n") + "\n").unwrap();
    let out = spsa(&cut, 4);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("spsa: resuming"), "{stdout}");
    assert_eq!(stdout.lines().filter(|l| l.starts_with("iteration ")).count(), 2, "{stdout}");
    assert_eq!(fs::read_to_string(&cut).unwrap(), text);

    // Other settings are refused with one line, and the log is left alone.
    let out = spsa(&cut, 5);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("holds another run"), "{err}");
    assert_eq!(fs::read_to_string(&cut).unwrap(), text);
    let _ = fs::remove_dir_all(&dir);
}
