//! The network through the real binary: a tiny training run end to end (the loss falls, the
//! net loads, the engine's integer output is the trainer's), `EvalFile`/`UseNNUE` in every
//! dialect, bad net files refused with one line, and searches with the net deterministic.

mod common;

use common::{errors, Engine};
use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::OnceLock;

fn chuhe(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chuhe")).args(args).output().expect("run chuhe")
}

fn temp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("nnue");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn stdout_of(out: &Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The number after `key` in `text` (the first occurrence).
fn number_after(text: &str, key: &str) -> f64 {
    let at = text.find(key).unwrap_or_else(|| panic!("'{key}' in {text}")) + key.len();
    let word: String = text[at..].trim_start().chars().take_while(|c| "+-.0123456789".contains(*c)).collect();
    word.parse().unwrap_or_else(|_| panic!("a number after '{key}' in {text}"))
}

/// A tiny data file and the trainer's report and net made from it (once for all tests).
struct Trained {
    report: String,
    net: PathBuf,
}

/// The smoke data file (made once for all tests).
fn data() -> &'static PathBuf {
    static D: OnceLock<PathBuf> = OnceLock::new();
    D.get_or_init(|| {
        let data = temp("smoke.bin");
        let gen =
            chuhe(&["datagen", "--out", data.to_str().unwrap(), "--games", "24", "--nodes", "300", "--seed", "5"]);
        stdout_of(&gen);
        data
    })
}

/// Trains `name` twice with `extra` flags and the same seed; both give the same bytes.
fn train_twice(name: &str, extra: &[&str]) -> Trained {
    let net = temp(&format!("{name}.nnue"));
    let train = |out: &PathBuf| {
        let mut args = vec![
            "train",
            "--data",
            data().to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--epochs",
            "6",
            "--batch",
            "256",
            "--lr",
            "0.003",
            "--threads",
            "2",
            "--seed",
            "3",
            "--description",
            "smoke test",
        ];
        args.extend_from_slice(extra);
        stdout_of(&chuhe(&args))
    };
    let report = train(&net);
    // The same seed gives the same net, whatever the threads' timing.
    let again = temp(&format!("{name}-again.nnue"));
    train(&again);
    assert_eq!(std::fs::read(&net).unwrap(), std::fs::read(&again).unwrap(), "same seed, same net");
    Trained { report, net }
}

/// An architecture-1 net.
fn trained() -> &'static Trained {
    static T: OnceLock<Trained> = OnceLock::new();
    T.get_or_init(|| train_twice("smoke", &[]))
}

/// An architecture-2 net: 512 hidden, 6 king buckets, 4 output buckets.
fn trained_2() -> &'static Trained {
    static T: OnceLock<Trained> = OnceLock::new();
    T.get_or_init(|| train_twice("smoke-2", &["--hidden", "512", "--king-buckets", "6", "--output-buckets", "4"]))
}

/// The loss fell, the quantised net is the float net within rounding, and the engine loads
/// the net and evaluates the start position as the trainer's integer net does.
fn check_training_run(t: &Trained) {
    let before = number_after(&t.report, "loss before: training");
    let after = number_after(&t.report, "loss after:  training");
    assert!(after < before * 0.9, "the loss falls: {before} -> {after}\n{}", t.report);
    let positions = number_after(&t.report, "positions");
    assert!(positions > 1000.0, "{}", t.report);
    // The engine's integer output is the trainer's integer output, and the float output is
    // within the rounding of the weights.
    let float = number_after(&t.report, "start position: float");
    let integer = number_after(&t.report, "cp, integer") as i32;
    assert!((float - integer as f64).abs() < 40.0, "{}", t.report);
    let max = number_after(&t.report, "positions: max");
    assert!(max < 60.0, "quantisation error {max}\n{}", t.report);

    let (mut e, _) = Engine::handshake("uci");
    assert!(errors(&e.ask(&format!("setoption name EvalFile value {}", t.net.display()))).is_empty());
    let lines = e.ask("eval");
    // UCI: Pikafish's lines first, then Chuhe's terms as `info string eval ...`.
    let network =
        lines.iter().find(|l| l.starts_with("info string eval network ")).unwrap_or_else(|| panic!("{lines:?}"));
    assert!(network.contains("smoke test"), "{network}");
    assert_eq!(number_after(network, "network") as i32, integer, "{network}");
}

#[test]
fn a_tiny_training_run_lowers_the_loss_and_writes_a_net_the_engine_runs() {
    check_training_run(trained());
}

#[test]
fn architecture_2_trains_and_runs_too() {
    let t = trained_2();
    assert!(t.report.contains("network 1260x6 -> 2x512 -> 4"), "{}", t.report);
    check_training_run(t);
    // A warm start from the architecture-1 net into a bucketed one begins where that net is.
    let wide = temp("smoke-wide.nnue");
    let one = trained();
    let report = stdout_of(&chuhe(&[
        "train",
        "--data",
        data().to_str().unwrap(),
        "--out",
        wide.to_str().unwrap(),
        "--epochs",
        "1",
        "--from",
        one.net.to_str().unwrap(),
        "--king-buckets",
        "3",
        "--output-buckets",
        "2",
        "--threads",
        "2",
    ]));
    let start = number_after(&report, "loss before: training");
    let end_of_one = number_after(&one.report, "loss after:  training");
    assert!((start - end_of_one).abs() < 0.1 * end_of_one, "{start} vs {end_of_one}\n{report}");
    let refused = chuhe(&["train", "--data", "x.bin", "--out", "y.nnue", "--hidden", "300"]);
    assert_eq!(refused.status.code(), Some(2));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("hidden width 300") && err.lines().count() == 1, "{err}");
}

#[test]
fn architecture_3_a_stacked_net_trains_and_runs_too() {
    // From the architecture-1 net: its input layer kept, the stack learnt; a version-3 file.
    let one = trained();
    let t = train_twice("smoke-3", &["--from", one.net.to_str().unwrap(), "--stack", "--output-buckets", "2"]);
    assert!(t.report.contains("network 1260x1 -> 2x256 -> 2x(16 -> 32 -> 1)"), "{}", t.report);
    assert_eq!(std::fs::read(&t.net).unwrap()[8], 3, "format version 3");
    check_training_run(&t);
    // And from the stacked net, the stack is the default shape.
    let again = temp("smoke-3b.nnue");
    let report = stdout_of(&chuhe(&[
        "train",
        "--data",
        data().to_str().unwrap(),
        "--out",
        again.to_str().unwrap(),
        "--epochs",
        "1",
        "--from",
        t.net.to_str().unwrap(),
        "--threads",
        "2",
    ]));
    assert!(report.contains("2x(16 -> 32 -> 1) (from --from)"), "{report}");
}

#[test]
fn bad_net_files_are_refused_in_one_line_and_the_net_stays() {
    let t = trained();
    let good = std::fs::read(&t.net).unwrap();
    let truncated = temp("truncated.nnue");
    std::fs::write(&truncated, &good[..good.len() / 2]).unwrap();
    let mut foreign = good.clone();
    foreign[14] = 128; // 384 hidden neurons
    let other = temp("other-architecture.nnue");
    std::fs::write(&other, &foreign).unwrap();
    let garbage = temp("garbage.nnue");
    std::fs::write(&garbage, b"this is not a network file at all, only text, but long enough").unwrap();

    for (dialect, set) in
        [("uci", "setoption name EvalFile value"), ("ucci", "setoption evalfile"), ("xboard", "option EvalFile=")]
    {
        let (mut e, _) = if dialect == "xboard" { Engine::xboard_handshake() } else { Engine::handshake(dialect) };
        let ask = |e: &mut Engine, line: &str| if dialect == "xboard" { e.cecp_ask(line) } else { e.ask(line) };
        let sep = if dialect == "xboard" { "" } else { " " };
        assert!(errors(&ask(&mut e, &format!("{set}{sep}{}", t.net.display()))).is_empty(), "{dialect}");
        let shown = |e: &mut Engine| {
            let lines = ask(e, "eval");
            // The line naming the net (UCI puts Pikafish's evaluation lines before it).
            lines
                .iter()
                .find(|l| l.contains("network ") && l.contains(" net "))
                .cloned()
                .unwrap_or_else(|| panic!("{lines:?}"))
        };
        let before = shown(&mut e);
        for (path, why) in [
            (temp("missing.nnue"), "cannot read"),
            (truncated.clone(), "damaged"),
            (other.clone(), "architecture"),
            (garbage.clone(), "not a Chuhe net file"),
        ] {
            let lines = ask(&mut e, &format!("{set}{sep}{}", path.display()));
            let errs: Vec<&String> =
                lines.iter().filter(|l| l.starts_with("info string error:") || l.starts_with("Error (")).collect();
            assert_eq!(errs.len(), 1, "{dialect} {why}: {lines:?}");
            assert!(errs[0].contains(why) && errs[0].contains("keeps its current net"), "{dialect}: {}", errs[0]);
            assert_eq!(shown(&mut e), before, "{dialect}: the loaded net stays after '{why}'");
        }
        // The engine still plays.
        if dialect != "xboard" {
            e.send("position startpos");
            assert!(e.go("go depth 3").starts_with("bestmove"));
        }
    }
}

#[test]
fn use_nnue_switches_the_evaluation_a_search_uses() {
    let t = trained();
    let (mut e, handshake) = Engine::handshake("uci");
    assert!(handshake.iter().any(|l| l.starts_with("option name UseNNUE type check")), "{handshake:?}");
    assert!(handshake.iter().any(|l| l.starts_with("option name EvalFile type string")), "{handshake:?}");
    let nodes = |e: &mut Engine| {
        e.send("position startpos moves h2e2 h9g7");
        e.send("ucinewgame");
        e.send("go depth 5");
        let (_, lines) = e.search_end();
        let last = lines.iter().rev().find(|l| l.contains(" nodes ")).unwrap().clone();
        number_after(&last, " nodes ") as u64
    };
    e.ask("setoption name UseNNUE value false");
    assert!(e.ask("eval").iter().any(|l| l.contains("hand-written (UseNNUE off)")));
    let hand = nodes(&mut e);
    e.ask(&format!("setoption name EvalFile value {}", t.net.display()));
    e.ask("setoption name UseNNUE value true");
    assert!(e.ask("eval").iter().any(|l| l.contains("network (UseNNUE on)")));
    let net = nodes(&mut e);
    assert_eq!(net, nodes(&mut e), "a search with the net is deterministic");
    assert_ne!(hand, net, "the net, not the hand-written evaluation, guided the search");
    e.ask("setoption name UseNNUE value false");
    assert_eq!(hand, nodes(&mut e));
}

#[test]
fn bench_with_a_net_gives_the_same_signature_every_run() {
    let t = trained();
    let run = |extra: &[&str]| {
        let mut args = vec!["bench", "--depth", "4"];
        args.extend_from_slice(extra);
        let out = stdout_of(&chuhe(&args));
        let summary = out.lines().find(|l| l.starts_with("nodes ")).unwrap();
        summary.split_whitespace().nth(1).unwrap().to_string()
    };
    let file = ["--evalfile", t.net.to_str().unwrap()];
    assert_eq!(run(&file), run(&file));
    assert_ne!(run(&file), run(&["--eval", "hand"]));
    let bad = chuhe(&["bench", "--eval", "neural"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("must be hand or nnue"));
}

/// The epochs a train checkpoint file says are done (bytes 16..24), if it is there.
fn checkpoint_epochs(path: &std::path::Path) -> Option<u64> {
    let b = std::fs::read(path).ok()?;
    Some(u64::from_le_bytes(b.get(16..24)?.try_into().ok()?))
}

#[test]
fn a_killed_training_run_started_again_writes_the_same_net() {
    let args = |out: &PathBuf| -> Vec<String> {
        let flags = "--epochs 12 --batch 128 --lr 0.003 --threads 2 --seed 4 --hidden 256 --king-buckets 3";
        let mut v = vec!["train".to_string(), "--data".into(), data().display().to_string()];
        v.extend(["--out".to_string(), out.display().to_string()]);
        v.extend(flags.split_whitespace().map(String::from));
        v
    };
    let whole = temp("whole.nnue");
    let whole_args = args(&whole);
    stdout_of(&Command::new(env!("CARGO_BIN_EXE_chuhe")).args(&whole_args).output().unwrap());
    assert!(!temp("whole.nnue.ckpt").exists(), "a finished run leaves no checkpoint");
    let (cut, ckpt) = (temp("killed.nnue"), temp("killed.nnue.ckpt"));
    let _ = std::fs::remove_file(&ckpt);
    let cut_args = args(&cut);
    // Killed (SIGKILL) three times, each after one more epoch is saved, wherever in the next
    // epoch that falls; then let finish.
    let mut after = 0;
    for _ in 0..3 {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chuhe"))
            .args(&cut_args)
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        loop {
            if let Some(e) = checkpoint_epochs(&ckpt).filter(|&e| e > after) {
                child.kill().unwrap();
                child.wait().unwrap();
                after = e;
                break;
            }
            if child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
    let last = stdout_of(&Command::new(env!("CARGO_BIN_EXE_chuhe")).args(&cut_args).output().unwrap());
    if after > 0 && after < 12 {
        assert!(last.contains(&format!("resuming from '{}' after epoch", ckpt.display())), "{last}");
    }
    assert_eq!(std::fs::read(&cut).unwrap(), std::fs::read(&whole).unwrap(), "the same net");
    assert!(!ckpt.exists());
    // A checkpoint of other flags is refused, naming it; a cut one names its byte.
    let other = temp("other.nnue");
    std::fs::write(temp("other.nnue.ckpt"), {
        let mut b = b"CHUHECKP".to_vec();
        b.extend([0u8; 29]);
        b
    })
    .unwrap();
    let out = chuhe(&args(&other).iter().map(String::as_str).collect::<Vec<_>>());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("other.nnue.ckpt' holds an unfinished run with other flags"), "{err}");
    assert!(!other.exists());
}
