//! `chuhe match` driven through the real binary, against scripted fake engines
//! (tests/fixtures/fake_engine.py) and against Chuhe itself.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CHUHE: &str = env!("CARGO_BIN_EXE_chuhe");

/// Start position, horses out and back twice: the start position occurs for the third time after ply 8.
const SHUFFLE: &str = "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9";
/// A legal line for tests that need many moves.
const LINE: &str = "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 h7i7 c3c4 g6g5";

fn fake() -> String {
    format!("{}/tests/fixtures/fake_engine.py", env!("CARGO_MANIFEST_DIR"))
}

fn temp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chuhe-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// `-engine` words for a fake engine with `extra` fake arguments (`--mode illegal` ...).
fn fake_engine(name: &str, extra: &str) -> Vec<String> {
    let mut v = vec!["-engine".into(), format!("cmd={}", fake()), format!("name={name}")];
    for a in extra.split_whitespace() {
        v.push(format!("arg={a}"));
    }
    v
}

fn script(moves: &str) -> String {
    // Passed through arg= words, so join with a character the fake splits back.
    format!("--script {}", moves.replace(' ', ","))
}

/// Fails a match that hangs; far above what any of these matches needs on a loaded machine.
const HANG: Duration = Duration::from_secs(600);

/// Runs `chuhe match` with `args`, failing the test after `limit`; returns (status ok, stdout).
fn run_match(args: &[String], limit: Duration) -> (bool, String) {
    let mut child =
        Command::new(CHUHE).arg("match").args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut out = String::new();
            child.stdout.take().unwrap().read_to_string(&mut out).unwrap();
            let mut err = String::new();
            child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
            return (status.success(), out + &err);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("chuhe match did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

/// A two-engine match of fakes from `opening`, plus `more` flags.
fn fake_match(a: &str, b: &str, opening: &str, more: &str) -> String {
    let file = temp(&format!("open-{:x}.txt", fxhash(opening) ^ fxhash(a) ^ fxhash(b) ^ fxhash(more)), opening);
    let mut args = fake_engine("A", a);
    args.extend(fake_engine("B", b));
    args.extend(words(&format!("-each st=2 timemargin=200 -openings file={} {more}", file.display())));
    let (ok, out) = run_match(&args, HANG);
    assert!(ok, "match failed:\n{out}");
    out
}

fn fxhash(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

#[test]
fn illegal_moves_lose_and_the_match_goes_on() {
    let pgn = temp("illegal.pgn", "");
    std::fs::remove_file(&pgn).unwrap();
    let out = fake_match("--mode illegal", &script(LINE), "startpos\n", &format!("-games 2 -pgnout {}", pgn.display()));
    assert!(out.contains("Started game 1 of 2 (A vs B)"), "{out}");
    assert!(out.contains("Finished game 1 (A vs B): 0-1 {Red makes an illegal move: a0b9}"), "{out}");
    assert!(out.contains("Finished game 2 (B vs A): 1-0 {Black makes an illegal move: a0b9}"), "{out}");
    assert!(out.contains("Score of A vs B: 0 - 2 - 0  [0.000] 2"), "{out}");
    assert!(out.contains("Finished match"), "{out}");
    let pgn = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(pgn.matches("[Game \"Chinese Chess\"]").count(), 2);
    assert!(pgn.contains("[Red \"B\"]\n[Black \"A\"]\n[Result \"1-0\"]"), "{pgn}");
    assert!(pgn.contains("[Termination \"illegal move\"]"));
    assert!(pgn.contains("1. H2-E2 {Black makes an illegal move: a0b9} 1-0"), "{pgn}");
    // `nobestmove` (UCCI) or `bestmove (none)` (UCI) while the game goes on also loses.
    let out = fake_match("--mode nomove", &script(LINE), "startpos\n", "-games 1");
    assert!(out.contains("Finished game 1 (A vs B): 0-1 {Red makes no move}"), "{out}");
    let out = fake_match("--mode nomove", &script(LINE), "startpos\n", "-games 1 -each proto=uci");
    assert!(out.contains("Finished game 1 (A vs B): 0-1 {Red makes no move}"), "{out}");
}

#[test]
fn a_crashed_engine_loses_and_is_restarted() {
    let out = fake_match(&format!("{} --mode crash --at 2", script(LINE)), &script(LINE), "startpos\n", "-games 2");
    assert!(out.contains("Finished game 1 (A vs B): 0-1 {Red disconnects}"), "{out}");
    assert!(out.contains("Finished game 2 (B vs A): 1-0 {Black disconnects}"), "{out}");
    assert!(out.contains("Score of A vs B: 0 - 2 - 0"), "{out}");
}

#[test]
fn a_silent_engine_stalls_and_a_slow_one_loses_on_time() {
    let base = "-each st=0.2 timemargin=50 -games 2";
    let out = fake_match("--mode hang", &script(LINE), "startpos\n", base);
    assert!(out.contains("Finished game 1 (A vs B): 0-1 {Red's connection stalls}"), "{out}");
    assert!(out.contains("Finished game 2 (B vs A): 1-0 {Black's connection stalls}"), "{out}");
    let out = fake_match(&format!("{} --mode slow --delay 500", script(LINE)), &script(LINE), "startpos\n", base);
    assert!(out.contains("Finished game 1 (A vs B): 0-1 {Red loses on time}"), "{out}");
    assert!(out.contains("Finished game 2 (B vs A): 1-0 {Black loses on time}"), "{out}");
    // The same delay inside the margin is fine (a margin no load delay can use up).
    let out = fake_match(
        &format!("{} --mode slow --delay 250 --at 8", script(SHUFFLE)),
        &script(SHUFFLE),
        "startpos moves h2e2 h7e7\n",
        "-each st=0.2 timemargin=10000 -games 1",
    );
    assert!(!out.contains("on time"), "{out}");
}

/// One game of scripted fakes from `fen`; returns the finished-game line.
fn scripted_game(fen: &str, moves: &str, more: &str) -> String {
    let out = fake_match(&script(moves), &script(moves), &format!("{fen}\n"), &format!("-games 1 {more}"));
    out.lines().find(|l| l.starts_with("Finished game 1")).unwrap_or_else(|| panic!("{out}")).to_string()
}

#[test]
fn games_end_by_the_rules() {
    let mate = scripted_game("4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1", "b0b9", "");
    assert!(mate.starts_with("Finished game 1 (A vs B): 1-0 {"), "{mate}");
    assert!(mate.to_lowercase().contains("checkmate"), "{mate}");
    let stalemate = scripted_game("4k4/9/R8/9/9/9/9/9/9/3K1R3 w - - 0 1", "a7a8", "");
    assert!(stalemate.starts_with("Finished game 1 (A vs B): 1-0 {"), "{stalemate}");
    assert!(stalemate.to_lowercase().contains("stalemate"), "{stalemate}");
    let material = scripted_game("4k4/4r4/9/9/4R4/9/9/9/9/3K5 w - - 0 1", "e5e8 e9e8", "");
    assert!(material.starts_with("Finished game 1 (A vs B): 1/2-1/2 {"), "{material}");
    assert!(material.contains("material"), "{material}");
    let sixty = scripted_game("4k4/9/9/9/9/9/9/9/9/3K1R3 w - - 118 1", "f0f1 e9e8 f1f2", "");
    assert!(sixty.starts_with("Finished game 1 (A vs B): 1/2-1/2 {"), "{sixty}");
    assert!(sixty.contains("60"), "{sixty}");
}

#[test]
fn a_threefold_repetition_is_judged_by_the_rules() {
    let pgn = temp("rep.pgn", "");
    std::fs::remove_file(&pgn).unwrap();
    let line = scripted_game("startpos", SHUFFLE, &format!("-pgnout {}", pgn.display()));
    assert!(line.starts_with("Finished game 1 (A vs B): 1/2-1/2 {"), "{line}");
    assert!(line.contains("repetition"), "{line}");
    let pgn = std::fs::read_to_string(&pgn).unwrap();
    assert!(pgn.contains("[PlyCount \"8\"]"), "{pgn}");
    // Red checks on every move of the cycle: Red loses.
    let checks = "a1a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8";
    let line = scripted_game("4k4/9/9/9/9/9/9/9/R8/5K3 w - - 0 1", checks, "");
    assert!(line.starts_with("Finished game 1 (A vs B): 0-1 {Red loses: perpetual check"), "{line}");
}

/// One shuffling game where the fakes report scores `a` and `b`, with adjudication `flags`.
fn scored_game(a: i32, b: i32, flags: &str) -> String {
    let (a, b) = (format!("{} --score {a}", script(SHUFFLE)), format!("{} --score {b}", script(SHUFFLE)));
    fake_match(&a, &b, "startpos\n", &format!("-games 1 {flags}"))
}

#[test]
fn score_adjudication_resigns_and_draws() {
    let out = scored_game(-900, 0, "-resign movecount=2 score=800");
    assert!(out.contains("Finished game 1 (A vs B): 0-1 {Black wins by adjudication}"), "{out}");
    let draw = "-draw movenumber=1 movecount=2 score=10";
    let out = scored_game(5, -3, draw);
    assert!(out.contains("Finished game 1 (A vs B): 1/2-1/2 {Draw by adjudication}"), "{out}");
    // Scores outside the window never adjudicate a draw: the game runs into the repetition.
    let out = scored_game(50, -3, draw);
    assert!(!out.contains("adjudication"), "{out}");
}

#[test]
fn ucci_resignation_and_agreed_draw() {
    let out = fake_match(&format!("{} --mode resign --at 2", script(LINE)), &script(LINE), "startpos\n", "-games 1");
    assert!(out.contains("Finished game 1 (A vs B): 0-1 {Red resigns}"), "{out}");
    let out = fake_match(
        &format!("{} --mode offerdraw --at 2", script(LINE)),
        &format!("{} --mode acceptdraw", script(LINE)),
        "startpos\n",
        "-games 1",
    );
    assert!(out.contains("Finished game 1 (A vs B): 1/2-1/2 {Draw by agreement}"), "{out}");
    // An offer nobody accepts changes nothing.
    let out = fake_match(&format!("{} --mode offerdraw", script(SHUFFLE)), &script(SHUFFLE), "startpos\n", "-games 1");
    assert!(!out.contains("agreement"), "{out}");
}

#[test]
fn sprt_stops_the_match_and_concurrency_plays_every_game() {
    // Both fakes blunder whenever they have Red, so the score stays 50% and H0 (elo 0) wins.
    let red_blunders = format!("{} --mode illegal --redonly", script(LINE));
    let out = fake_match(
        &red_blunders,
        &red_blunders,
        "startpos\n",
        "-games 2 -rounds 100 -sprt elo0=0 elo1=200 alpha=0.05 beta=0.05",
    );
    assert!(out.contains("- H0 was accepted"), "{out}");
    let finished = out.lines().filter(|l| l.starts_with("Finished game")).count();
    assert!(finished > 10 && finished < 200, "{finished} games\n{out}");
    assert!(out.contains("SPRT: llr -2.9") || out.contains("SPRT: llr -3."), "{out}");

    let out =
        fake_match(&red_blunders, &red_blunders, "startpos\n", "-games 2 -rounds 4 -concurrency 3 -ratinginterval 4");
    assert_eq!(out.lines().filter(|l| l.starts_with("Finished game")).count(), 8, "{out}");
    assert!(out.contains("Score of A vs B: 4 - 4 - 0  [0.500] 8"), "{out}");
    assert!(out.contains("Elo difference: 0.0 +/- "), "{out}");
}

#[test]
fn bad_command_lines_fail_with_one_line() {
    for bad in ["-engine cmd=x", "-engine cmd=/nonexistent/engine st=1 -engine cmd=/nonexistent/engine st=1"] {
        let (ok, out) = run_match(&words(bad), HANG);
        assert!(!ok);
        assert!(out.starts_with("chuhe match: "), "{out}");
    }
}

#[test]
fn chuhe_plays_itself_at_fixed_nodes() {
    let mut args = words(&format!("-engine cmd={CHUHE} name=ucci proto=ucci -engine cmd={CHUHE} name=uci proto=uci"));
    args.extend(words("-each nodes=3000 timeout=30000 -games 2 -openings order=random -srand 5"));
    args.extend(words("-draw movenumber=30 movecount=4 score=20 -resign movecount=4 score=600"));
    let (ok, out) = run_match(&args, HANG);
    assert!(ok, "{out}");
    let finished: Vec<&str> = out.lines().filter(|l| l.starts_with("Finished game")).collect();
    assert_eq!(finished.len(), 2, "{out}");
    for line in finished {
        for bad in ["illegal", "disconnects", "stalls", "on time", "makes no move"] {
            assert!(!line.contains(bad), "{line}");
        }
    }
    assert!(out.contains("Score of ucci vs uci: "), "{out}");
}

/// `chuhe stats` on `files` with `more` flags; its stdout.
fn stats(files: &[PathBuf], more: &str) -> String {
    let o = Command::new(CHUHE).arg("stats").args(files).args(words(more)).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// A PGN file's games, each without its `[Date]`, sorted.
fn pgn_games(path: &PathBuf) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut games: Vec<String> = text
        .split("[Game ")
        .filter(|g| !g.is_empty())
        .map(|g| g.lines().filter(|l| !l.starts_with("[Date ")).collect::<Vec<_>>().join("\n"))
        .collect();
    games.sort();
    games
}

#[test]
fn shards_together_play_the_whole_match_and_stats_merge_them() {
    // Openings on the fakes' script; A plays an illegal move at ply 4 with Red and draws by
    // repetition with Black, so each colour, opening and game number shows in the record.
    let openings =
        temp("shard-openings.txt", "startpos\nstartpos moves h0g2 h9g7\nstartpos moves h0g2 h9g7 g2h0 g7h9\n");
    let run = |shard: &str, pgn: &PathBuf| {
        let _ = std::fs::remove_file(pgn);
        let mut args = fake_engine("A", &format!("{} --mode illegal --at 4 --redonly", script(SHUFFLE)));
        args.extend(fake_engine("B", &script(SHUFFLE)));
        args.extend(words(&format!(
            "-each st=2 timemargin=200 -openings file={} -games 2 -rounds 3 -pgnout {} \
             -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 {shard}",
            openings.display(),
            pgn.display()
        )));
        let (ok, out) = run_match(&args, HANG);
        assert!(ok, "{out}");
        out
    };
    let game_lines = |out: &str| {
        let mut v: Vec<String> = out
            .lines()
            .filter(|l| l.starts_with("Started game") || l.starts_with("Finished game "))
            .map(String::from)
            .collect();
        v.sort();
        v
    };
    let whole_pgn = temp("whole.pgn", "");
    let whole = run("", &whole_pgn);
    let shard_pgns: Vec<PathBuf> = (1..=4).map(|k| temp(&format!("shard{k}.pgn"), "")).collect();
    let mut lines = Vec::new();
    for (k, pgn) in shard_pgns.iter().enumerate() {
        lines.extend(game_lines(&run(&format!("-shard {}/4", k + 1), pgn)));
    }
    lines.sort();
    assert_eq!(lines, game_lines(&whole));
    assert_eq!(lines.len(), 12, "{whole}");
    let mut games: Vec<String> = shard_pgns.iter().flat_map(pgn_games).collect();
    games.sort();
    assert_eq!(games, pgn_games(&whole_pgn));

    let sprt = "-sprt elo0=0 elo1=10 alpha=0.05 beta=0.05";
    let merged = stats(&shard_pgns, sprt);
    assert_eq!(merged, stats(&[whole_pgn], sprt));
    // The same lines the runner ended the whole match with.
    let tail: Vec<&str> =
        whole.lines().filter(|l| l.starts_with("Score of") || l.starts_with("Elo") || l.starts_with("SPRT")).collect();
    let tail = tail[tail.len() - 3..].join("\n") + "\n";
    assert_eq!(merged, tail);
    assert!(merged.starts_with("Score of A vs B: 0 - 3 - 3  [0.250] 6\n"), "{merged}");
}

#[test]
fn stats_reads_other_tools_pgn_and_refuses_bad_input() {
    let pgn = temp(
        "other.pgn",
        "[Game \"Chinese Chess\"]\n[Red \"X\"]\n[Black \"Y\"]\n[Result \"1-0\"]\n1. C3-C4 1-0\n\n\
         [Game \"Chinese Chess\"]\n[Red \"Y\"]\n[Black \"X\"]\n[Result \"1/2-1/2\"]\n1/2-1/2\n\
         [Red \"Y\"]\n[Black \"X\"]\n[Result \"*\"]\n*\n",
    );
    let out = stats(std::slice::from_ref(&pgn), "");
    assert!(
        out.starts_with("unfinished games skipped: 1\nScore of X vs Y: 1 - 0 - 1  [0.750] 2\nElo difference: "),
        "{out}"
    );
    assert!(stats(std::slice::from_ref(&pgn), "-first Y").contains("Score of Y vs X: 0 - 1 - 1  [0.250] 2"));
    let three = temp(
        "three.pgn",
        "[Red \"X\"]\n[Black \"Y\"]\n[Result \"1-0\"]\n\n[Red \"X\"]\n[Black \"Z\"]\n[Result \"1-0\"]\n",
    );
    for args in [
        vec!["stats".to_string()],
        vec!["stats".into(), "/nonexistent/x.pgn".into()],
        vec!["stats".into(), three.display().to_string()],
        vec!["stats".into(), pgn.display().to_string(), "-sprt".into(), "elo0=5".into(), "elo1=1".into()],
        vec!["stats".into(), pgn.display().to_string(), "-bogus".into()],
    ] {
        let o = Command::new(CHUHE).args(&args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&o.stderr).trim_end().lines().count(), 1, "{args:?}");
    }
}
