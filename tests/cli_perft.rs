//! `chuhe perft` as a user runs it: output format, divide, and errors.

use std::process::{Command, Output};

fn chuhe(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chuhe")).args(args).output().expect("run chuhe")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn summary_line_is_last_and_exact() {
    let o = chuhe(&["perft", "--depth", "3"]);
    assert!(o.status.success());
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1);
    let f: Vec<&str> = lines[0].split(' ').collect();
    assert_eq!((f[0], f[1], f[2], f[4]), ("nodes", "79666", "time", "nps"));
    assert!(f[3].parse::<u64>().is_ok() && f[5].parse::<u64>().is_ok());
}

#[test]
fn divide_lists_sorted_root_moves() {
    let fen = "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1";
    let o = chuhe(&["perft", "--fen", fen, "--depth", "2", "--divide"]);
    assert!(o.status.success());
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    let (summary, moves) = lines.split_last().unwrap();
    assert_eq!(moves.len(), 25);
    let names: Vec<&str> = moves.iter().map(|l| l.split(": ").next().unwrap()).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    let total: u64 = moves.iter().map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(total, 424);
    assert!(summary.starts_with("nodes 424 time "));
}

#[test]
fn bad_input_is_one_line_on_stderr_with_status_2() {
    for args in [
        vec!["perft", "--depth", "0"],
        vec!["perft", "--depth", "x"],
        vec!["perft"],
        vec!["perft", "--depth", "2", "--fen", "rnbakabnr/9/9 w"],
        vec!["perft", "--depth", "2", "--fen", "4k4/9/9/9/9/9/9/9/9/4K4 w"],
        vec!["perft", "--depth", "2", "--bogus"],
        vec!["perft", "--depth"],
    ] {
        let o = chuhe(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
}

fn temp(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("chuhe-perft-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn threads_and_hash_give_the_same_divide() {
    let fen = "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1";
    let plain = stdout(&chuhe(&["perft", "--fen", fen, "--depth", "4", "--divide"]));
    for extra in [&["--threads", "2"][..], &["--hash", "4"], &["--threads", "3", "--hash", "1"]] {
        let mut args = vec!["perft", "--fen", fen, "--depth", "4", "--divide"];
        args.extend_from_slice(extra);
        let o = chuhe(&args);
        assert!(o.status.success(), "{extra:?}");
        let text = stdout(&o);
        let strip = |t: &str| t.lines().filter(|l| !l.starts_with("nodes")).map(String::from).collect::<Vec<_>>();
        assert_eq!(strip(&text), strip(&plain), "{extra:?}");
        assert!(text.lines().last().unwrap().starts_with("nodes 649866 time "), "{text}");
    }
}

#[test]
fn progress_goes_to_stderr_one_line_per_root_move() {
    let o = chuhe(&["perft", "--depth", "3", "--threads", "2", "--progress"]);
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 44, "{err}");
    assert!(err.lines().last().unwrap().starts_with("perft: 44/44 "), "{err}");
    assert!(err.contains(" elapsed ") && err.contains(" Mnps"), "{err}");
    assert!(stdout(&o).starts_with("nodes 79666 time "));
}

#[test]
fn epd_suite_passes_and_a_wrong_count_fails_by_name() {
    let suite = format!("{}/perft/suite.epd", env!("CARGO_MANIFEST_DIR"));
    let o = chuhe(&["perft", "--epd", &suite, "--depth-limit", "3", "--threads", "2", "--hash", "2"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = stdout(&o);
    assert_eq!(text.lines().filter(|l| l.ends_with(" ok")).count(), 33, "{text}");
    assert!(text.lines().last().unwrap().starts_with("nodes "));

    let wrong = temp("wrong.epd", "# one bad count\n4k4/9/9/9/9/9/9/9/9/3K1R3 w ;D1 14 ;D2 18\n");
    let o = chuhe(&["perft", "--epd", wrong.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    let got = perft_of("4k4/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1", 2);
    assert!(
        err.contains(&format!("position 1 (line 2: 4k4/9/9/9/9/9/9/9/9/3K1R3 w) depth 2: want 18 got {got}")),
        "{err}"
    );
    assert!(stdout(&o).contains("position 1 depth 1 nodes 14 ok"), "{}", stdout(&o));
}

fn perft_of(fen: &str, depth: u32) -> u64 {
    let o = chuhe(&["perft", "--fen", fen, "--depth", &depth.to_string()]);
    stdout(&o).split(' ').nth(1).unwrap().parse().unwrap()
}

#[test]
fn bad_epd_and_flag_mixes_are_status_2() {
    let bad = temp("bad.epd", "4k4/9/9/9/9/9/9/9/9/3K1R3 w ;D1 x\n");
    for args in [
        vec!["perft", "--epd", bad.to_str().unwrap()],
        vec!["perft", "--epd", "/nonexistent/suite.epd"],
        vec!["perft", "--epd", bad.to_str().unwrap(), "--depth", "3"],
        vec!["perft", "--depth", "3", "--depth-limit", "3"],
        vec!["perft", "--depth", "3", "--threads", "0"],
        vec!["perft", "--depth", "3", "--hash", "x"],
        vec!["perft", "--depth", "3", "--hash", "99999999"],
    ] {
        let o = chuhe(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
}
