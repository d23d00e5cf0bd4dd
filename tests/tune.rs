//! `chuhe tune`: the real binary on a tiny datagen run (seconds): the loss falls, the
//! written weights file is complete and reads back, and bad input gets a one-line error.

use std::path::PathBuf;
use std::process::{Command, Output};

fn chuhe(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chuhe")).args(args).output().expect("run chuhe")
}

fn temp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tune");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The number after `label` in `text` (e.g. "training 0.0123").
fn number_after(text: &str, line_start: &str, label: &str) -> f64 {
    let line =
        text.lines().find(|l| l.starts_with(line_start)).unwrap_or_else(|| panic!("no '{line_start}' in {text}"));
    let rest = &line[line.find(label).unwrap_or_else(|| panic!("no '{label}' in {line}")) + label.len()..];
    rest.split_whitespace().next().unwrap().parse().unwrap()
}

/// `text` (a weights file) with every weight `S(mg, eg)` moved by ±40, alternately.
fn perturb(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    let mut sign = 40;
    while let Some(i) = rest.find("S(") {
        out.push_str(&rest[..i]);
        let close = rest[i..].find(')').unwrap() + i;
        let inner = &rest[i + 2..close];
        match inner.split_once(", ").map(|(a, b)| (a.trim().parse::<i32>(), b.trim().parse::<i32>())) {
            Some((Ok(mg), Ok(eg))) => {
                out.push_str(&format!("S({}, {})", mg + sign, eg - sign));
                sign = -sign;
            }
            _ => out.push_str(&rest[i..=close]),
        }
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

#[test]
fn a_tiny_datagen_and_tune_lowers_the_loss_and_writes_weights_that_read_back() {
    let data = temp("tiny.bin");
    // The hand-written evaluation plays, so the data do not change when the shipped net does.
    let run = chuhe(&[
        "datagen",
        "--out",
        data.to_str().unwrap(),
        "--games",
        "12",
        "--nodes",
        "300",
        "--seed",
        "3",
        "--eval",
        "hand",
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));

    let weights = temp("weights.rs");
    let d = data.to_str().unwrap();
    let w = weights.to_str().unwrap();
    // Start from the built-in weights knocked off their fit, so the descent has a loss to
    // lower (the built-in weights themselves are already fitted).
    let start = temp("start.rs");
    let run = chuhe(&["tune", "--data", d, "--epochs", "0", "--out", start.to_str().unwrap()]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let perturbed = temp("perturbed.rs");
    std::fs::write(&perturbed, perturb(&std::fs::read_to_string(&start).unwrap())).unwrap();
    let p = perturbed.to_str().unwrap();
    let run = chuhe(&["tune", "--data", d, "--epochs", "40", "--threads", "2", "--from", p, "--out", w]);
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{out}{}", String::from_utf8_lossy(&run.stderr));
    // The descent lowers the training loss; the weights written are the epoch best on
    // validation (on a few hundred positions often the start), never worse than the start
    // but for the rounding to whole centipawns.
    let before = number_after(&out, "loss before", "training");
    let last_epoch = out.lines().rfind(|l| l.starts_with("epoch")).unwrap_or_else(|| panic!("{out}"));
    let descended = number_after(last_epoch, "epoch", "training");
    assert!(descended < 0.8 * before, "{out}");
    let (val_before, val_after) =
        (number_after(&out, "loss before", "validation"), number_after(&out, "loss after", "validation"));
    assert!(val_after <= val_before * 1.01, "{out}");
    let k = number_after(&out, "sigmoid scale", "K");
    assert!((50.0..2000.0).contains(&k), "{out}");

    let text = std::fs::read_to_string(&weights).unwrap();
    for table in ["MATERIAL", "HORSE_SQUARES", "CANNON_MOBILITY", "KING_ATTACK_PER_MISSING_GUARD", "TEMPO"] {
        assert!(text.contains(&format!("pub(super) const {table}: [S; ")), "{table} in {text}");
    }
    assert!(text.contains("loss training"), "provenance: {text}");
    // Starting from the written file without a step reproduces its losses.
    let run = chuhe(&["tune", "--data", d, "--epochs", "0", "--from", w, "--k", &format!("{k}")]);
    let again = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{again}{}", String::from_utf8_lossy(&run.stderr));
    let reread = number_after(&again, "loss before", "training");
    let after = number_after(&out, "loss after", "training");
    assert!((reread - after).abs() < 1e-5, "{out}\n{again}");
}

#[test]
fn bad_input_gets_one_line_and_status_2() {
    let missing = temp("missing.bin");
    let junk = temp("junk.bin");
    std::fs::write(&junk, b"not a data file at all, forty bytes long").unwrap();
    let m = missing.to_str().unwrap();
    let j = junk.to_str().unwrap();
    for (args, says) in [
        (vec!["tune"], "--data"),
        (vec!["tune", "--data"], "at least one FILE"),
        (vec!["tune", "--data", m], "cannot open"),
        (vec!["tune", "--data", j], "junk.bin"),
        (vec!["tune", "--data", j, "--lambda", "2"], "--lambda"),
        (vec!["tune", "--data", j, "--epochs", "many"], "--epochs"),
        (vec!["tune", "--data", j, "--from", m], "cannot read"),
        (vec!["tune", "--data", j, "--bogus", "1"], "unknown option"),
    ] {
        let run = chuhe(&args);
        let err = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("chuhe tune: ") && err.contains(says), "{args:?}: {err}");
    }
}
