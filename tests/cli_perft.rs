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
