//! `chuhe match` driven through the real binary, against scripted fake engines
//! (tests/fixtures/fake_engine.py) and against Chuhe itself.

use chuhe::matches::clock::comment_ms;
use std::io::Read;
use std::path::{Path, PathBuf};
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

/// The warnings of a match's output, less the CPU-starvation ones, which depend on the
/// machine's load.
fn warnings(out: &str) -> usize {
    out.lines().filter(|l| l.contains("Warning") && !l.contains("of a core while its clock ran")).count()
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
    assert!(out.contains("\nFaults: A 2 (disconnects 0, stalls 0, illegal moves 2, time losses 0); B 0\n"), "{out}");
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
    let pgn = temp("crash.pgn", "");
    std::fs::remove_file(&pgn).unwrap();
    let more = format!("-games 2 -pgnout {}", pgn.display());
    let out = fake_match(&format!("{} --mode crash --at 2", script(LINE)), &script(LINE), "startpos\n", &more);
    assert!(out.contains("Finished game 1 (A vs B): 0-1 {Red disconnects}"), "{out}");
    assert!(out.contains("Finished game 2 (B vs A): 1-0 {Black disconnects}"), "{out}");
    assert!(out.contains("Score of A vs B: 0 - 2 - 0"), "{out}");
    // The closing summary counts the faults per engine, and `stats` reads the same from the PGN.
    let faults = "Faults: A 2 (disconnects 2, stalls 0, illegal moves 0, time losses 0); B 0";
    assert!(out.contains(&format!("\n{faults}\n")), "{out}");
    assert!(stats(&[pgn], "").ends_with(&format!("\n{faults}\n")));
}

#[test]
fn an_engine_that_dies_in_the_handshake_fails_the_match_before_the_first_game() {
    for proto in ["ucci", "uci", "xboard"] {
        let mut args = fake_with("A", proto, "--mode handshake", "");
        args.extend(fake_engine("B", &script(LINE)));
        args.extend(words("-each st=1 -games 2"));
        let o = Command::new(CHUHE).arg("match").args(&args).output().unwrap();
        let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
        assert_eq!(o.status.code(), Some(2), "{proto}: {out}{err}");
        assert!(!out.contains("Started game"), "{proto}: {out}");
        assert_eq!(err.lines().count(), 1, "{proto}: {err}");
        assert!(err.starts_with("chuhe match: engine 'A' handshake"), "{proto}: {err}");
    }
}

#[test]
fn a_silent_engine_stalls_and_a_slow_one_loses_on_time() {
    let base = "-each st=0.2 timemargin=50 -games 2";
    let out = fake_match("--mode hang", &script(LINE), "startpos\n", base);
    assert!(out.contains("Finished game 1 (A vs B): 0-1 {Red's connection stalls}"), "{out}");
    assert!(out.contains("Finished game 2 (B vs A): 1-0 {Black's connection stalls}"), "{out}");
    assert!(out.contains("\nFaults: A 2 (disconnects 0, stalls 2, illegal moves 0, time losses 0); B 0\n"), "{out}");
    let out = fake_match(&format!("{} --mode slow --delay 500", script(LINE)), &script(LINE), "startpos\n", base);
    assert!(out.contains("Finished game 1 (A vs B): 0-1 {Red loses on time}"), "{out}");
    assert!(out.contains("Finished game 2 (B vs A): 1-0 {Black loses on time}"), "{out}");
    assert!(out.contains("\nFaults: A 2 (disconnects 0, stalls 0, illegal moves 0, time losses 2); B 0\n"), "{out}");
    // The same delay inside the margin is fine (a margin no load delay can use up).
    let out = fake_match(
        &format!("{} --mode slow --delay 250 --at 8", script(SHUFFLE)),
        &script(SHUFFLE),
        "startpos moves h2e2 h7e7\n",
        "-each st=0.2 timemargin=10000 -games 1",
    );
    assert!(!out.contains("on time"), "{out}");
}

/// An engine that sleeps on its clock uses no CPU: the runner cannot tell it from a starved
/// one, and says so (the share is CPU time over thinking time, so load only lowers it).
#[test]
#[cfg(target_os = "linux")]
fn an_engine_that_gets_no_cpu_while_its_clock_runs_is_reported() {
    let out = fake_match(
        &format!("{} --mode slow --delay 400", script(SHUFFLE)),
        &script(SHUFFLE),
        "startpos\n",
        "-each st=5 timemargin=10000 -games 1",
    );
    let cpu = out.lines().find(|l| l.starts_with("CPU while thinking: A ")).unwrap_or_else(|| panic!("{out}"));
    assert!(cpu.contains("% of "), "{cpu}");
    assert!(out.contains("Warning: A got "), "{out}");
    assert!(out.contains("these games measure the machine, not the engine"), "{out}");
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
        "-games 2 -rounds 100 -sprt elo0=0 elo1=200 alpha=0.05 beta=0.05 model=trinomial",
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
    // Every pair is 1-1: four pairs of one point, and the pentanomial SPRT (the default) sees
    // no variance and so no evidence, where the games alone would have decided.
    assert!(out.contains("Ptnml(0-2): [0, 0, 4, 0, 0]"), "{out}");
    let out = fake_match(
        &red_blunders,
        &red_blunders,
        "startpos\n",
        "-games 2 -rounds 10 -sprt elo0=0 elo1=200 alpha=0.05 beta=0.05",
    );
    assert_eq!(out.lines().filter(|l| l.starts_with("Finished game")).count(), 20, "{out}");
    assert!(out.contains("SPRT: llr 0.000 (0.0%), lbound -2.944, ubound 2.944, over 10 pairs"), "{out}");
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
    assert_clean_games(&out, 2);
    assert!(out.contains("Score of ucci vs uci: "), "{out}");
}

/// Asserts that `out` has `n` finished games, none lost by an illegal or missing move, a
/// crash, a stall or on time.
fn assert_clean_games(out: &str, n: usize) {
    let finished: Vec<&str> = out.lines().filter(|l| l.starts_with("Finished game")).collect();
    assert_eq!(finished.len(), n, "{out}");
    for line in finished {
        for bad in ["illegal", "disconnects", "stalls", "on time", "makes no move"] {
            assert!(!line.contains(bad), "{line}");
        }
    }
}

/// `chuhe stats` on `files` with `more` flags; its stdout.
fn stats(files: &[PathBuf], more: &str) -> String {
    let o = Command::new(CHUHE).arg("stats").args(files).args(words(more)).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// A match's closing summary: its last `Score of`, `Elo`, `Ptnml`, `SPRT` and `Faults` lines.
fn summary(out: &str) -> String {
    let kinds = ["Score of", "Elo difference", "Ptnml", "SPRT", "Faults"];
    let lines: Vec<&str> = kinds.iter().filter_map(|k| out.lines().rfind(|l| l.starts_with(k))).collect();
    lines.join("\n") + "\n"
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
    // Three shards of two games: whole pairs each, so the merged pentanomial is the match's.
    let shard_pgns: Vec<PathBuf> = (1..=3).map(|k| temp(&format!("shard{k}.pgn"), "")).collect();
    let mut lines = Vec::new();
    for (k, pgn) in shard_pgns.iter().enumerate() {
        lines.extend(game_lines(&run(&format!("-shard {}/3", k + 1), pgn)));
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
    assert_eq!(merged, summary(&whole));
    assert!(merged.starts_with("Score of A vs B: 0 - 3 - 3  [0.250] 6\n"), "{merged}");
    assert!(merged.contains("\nPtnml(0-2): [0, 3, 0, 0, 0], "), "{merged}");
    assert!(merged.ends_with("\nFaults: A 3 (disconnects 0, stalls 0, illegal moves 3, time losses 0); B 0\n"));
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
    // [Round] pairs the games of one file: round 1 a pair (X 1½ points), round 2 too (X 1),
    // round 3 has one game and round 4 the same colours twice, so those three stand alone.
    let game = |round: u32, red: &str, black: &str, result: &str| {
        format!("[Round \"{round}\"]\n[Red \"{red}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n{result}\n\n")
    };
    let rounds = temp(
        "rounds.pgn",
        &[
            game(1, "X", "Y", "1-0"),
            game(2, "Y", "X", "1-0"),
            game(1, "Y", "X", "1/2-1/2"),
            game(2, "X", "Y", "1-0"),
            game(3, "X", "Y", "1-0"),
            game(4, "X", "Y", "0-1"),
            game(4, "X", "Y", "0-1"),
        ]
        .concat(),
    );
    let sprt = "-sprt elo0=0 elo1=10 alpha=0.05 beta=0.05";
    let out = stats(std::slice::from_ref(&rounds), sprt);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "games outside a colour-swapped pair (not in Ptnml): 3", "{out}");
    assert_eq!(lines[1], "Score of X vs Y: 3 - 3 - 1  [0.500] 7", "{out}");
    assert!(lines[3].starts_with("Ptnml(0-2): [0, 0, 1, 1, 0], Elo error from pairs: +/- "), "{out}");
    assert!(lines[4].ends_with(", over 2 pairs"), "{out}");
    let tri = stats(std::slice::from_ref(&rounds), &format!("{sprt} model=trinomial"));
    assert!(tri.lines().last().unwrap().ends_with("ubound 2.944"), "{tri}");
    // A second file's round 1 is another pair, not round 1 of the first.
    let again = stats(&[rounds.clone(), rounds], sprt);
    assert!(again.contains("Ptnml(0-2): [0, 0, 2, 2, 0]"), "{again}");
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

#[test]
fn stats_clock_counts_each_engines_time_from_the_move_comments() {
    // X has 2+0.5 and Y a fixed 1 s a move; the first game starts from an opening (no
    // comments) and X loses it on time, the second starts with Black to move.
    let pgn = temp(
        "clock.pgn",
        "[Red \"X\"]\n[Black \"Y\"]\n[Result \"0-1\"]\n[RedTimeControl \"2+0.5\"]\n\
         [BlackTimeControl \"1/move\"]\n[Termination \"time forfeit\"]\n\
         1. H2-E2 H9-G7 2. H0-G2 {+0.10/5 1s} G9-E7 {-0.2/5 0.5s} 3. I0-H0 {+0.1/6 1.2s}\n\
         E7-G9 {0.00/6 0.25s} 4. H0-H4 {+0.3/7 1.40s} {X loses on time} 0-1\n\n\
         [Red \"Y\"]\n[Black \"X\"]\n[Result \"1/2-1/2\"]\n[RedTimeControl \"1/move\"]\n\
         [BlackTimeControl \"2+0.5\"]\n[FEN \"4k4/9/9/9/9/9/9/9/4A4/3K1R3 b - - 0 1\"]\n\
         1. ... E9-E8 {-3.00/9 0.5s} 2. F0-F8 {+3.10/9 0.9s} E8-E9 {-3.00/9 0.5s} 1/2-1/2\n",
    );
    let out = stats(std::slice::from_ref(&pgn), "-clock");
    assert!(out.starts_with("Score of X vs Y: 0 - 1 - 1  [0.250] 2\n"), "{out}");
    let clock: Vec<&str> = out.lines().skip_while(|l| !l.starts_with("clock use")).collect();
    assert_eq!(
        clock,
        [
            "clock use (from the move comments' times):",
            "  X (2+0.5): 2 games, 5 timed moves; 2.3 s a game, 71% of its clock (33-103% by game); \
             longest move 1.40 s; least left -0.60 s; 1 time forfeits",
            "  Y (1/move): 2 games, 3 timed moves; 0.8 s a game, 55% of its clock (38-90% by game); \
             longest move 0.90 s; 0 time forfeits",
        ],
        "{out}"
    );
    let bare = temp("bare.pgn", "[Red \"X\"]\n[Black \"Y\"]\n[Result \"1-0\"]\n1. H2-E2 {+0.1/3 0.1s} 1-0\n");
    let o = Command::new(CHUHE).arg("stats").arg(&bare).arg("-clock").output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&o.stderr).trim_end(), "chuhe stats: -clock: no game has a [TimeControl] tag");
}

/// Runs `chuhe match` with `args`, which must succeed; its stdout and stderr.
fn match_ok(args: &[String]) -> String {
    let (ok, out) = run_match(args, HANG);
    assert!(ok, "match failed:\n{out}");
    out
}

/// `-engine` words for a fake engine speaking `proto` with `extra` fake arguments and `more`
/// engine settings.
fn fake_with(name: &str, proto: &str, extra: &str, more: &str) -> Vec<String> {
    let mut v = fake_engine(name, extra);
    v.push(format!("proto={proto}"));
    v.extend(words(more));
    v
}

#[test]
fn unknown_options_are_warned_once_per_engine_and_the_match_goes_on() {
    let openings = temp("options-openings.txt", "startpos\n");
    let mut args = fake_with("A", "ucci", &format!("{} --options Hash", script(SHUFFLE)), "option.Hash=1 option.Foo=2");
    args.extend(fake_with(
        "B",
        "uci",
        &format!("{} --options Threads", script(SHUFFLE)),
        "option.Threads=1 option.Bar=3",
    ));
    args.extend(words(&format!(
        "-each st=2 timemargin=200 -openings file={} -games 4 -concurrency 2",
        openings.display()
    )));
    let out = match_ok(&args);
    let ucci = "Warning: A does not know option 'Foo' (it answered: info string error: no such option Foo)";
    let uci = "Warning: B does not know option 'Bar' (not in its option list; it answered: No such option: Bar)";
    // Two workers start each engine twice; the warning is said once.
    assert_eq!(out.matches(ucci).count(), 1, "{out}");
    assert_eq!(out.matches(uci).count(), 1, "{out}");
    assert_eq!(warnings(&out), 2, "{out}");
    assert_eq!(out.lines().filter(|l| l.starts_with("Finished game")).count(), 4, "{out}");
    // Chuhe over UCI lists its options: one it does not have is caught before it answers.
    // A hidden option it takes silently is only "not listed".
    let mut args =
        words(&format!("-engine cmd={CHUHE} name=C proto=uci option.Hash=8 option.Frobs=1 option.null_move=true"));
    args.extend(fake_engine("B", &script(SHUFFLE)));
    args.extend(words(&format!("-each depth=1 -openings file={}", openings.display())));
    let out = match_ok(&args);
    assert!(out.contains("Warning: C does not know option 'Frobs' (not in its option list; it answered: "), "{out}");
    assert!(out.contains("Warning: C does not list option 'null_move' (sent anyway; it did not object)"), "{out}");
    assert_eq!(warnings(&out), 2, "{out}");
}

#[test]
fn debug_logs_every_line_with_engine_and_direction() {
    let openings = temp("debug-openings.txt", "startpos\n");
    let mut args = fake_engine("A", &script(LINE));
    args.extend(fake_with("B", "uci", &script(LINE), ""));
    args.extend(words(&format!("-each st=2 timemargin=200 -openings file={} -games 1", openings.display())));
    let quiet = match_ok(&args);
    assert!(!quiet.contains(" A < ") && !quiet.contains(" B > "), "{quiet}");
    let mut to_stderr = args.clone();
    to_stderr.push("-debug".into());
    let out = match_ok(&to_stderr);
    for line in [" A < ucci", " A > ucciok", " A < setoption usemillisec true", " A < go time 2000 movestogo 1"] {
        assert!(out.contains(line), "{line}\n{out}");
    }
    for line in [" B < uci", " B > uciok", " B < ucinewgame", " B < go movetime 2000", " B > bestmove h9g7"] {
        assert!(out.contains(line), "{line}\n{out}");
    }
    assert!(out.contains(" A < position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"));
    let log = temp("debug.log", "");
    let mut to_file = args.clone();
    to_file.extend(words(&format!("-debug file={}", log.display())));
    let out = match_ok(&to_file);
    assert!(!out.contains(" A < "), "{out}");
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains(" A > bestmove h2e2\n") && text.contains(" B < quit\n"), "{text}");
}

#[test]
fn pgn_has_time_control_setup_and_cutechess_move_comments() {
    let pgn = temp("comments.pgn", "");
    std::fs::remove_file(&pgn).unwrap();
    // The same game twice: from the start with two opening moves, and from the FEN they reach.
    let openings = temp(
        "comment-openings.txt",
        "startpos moves h2e2 h9g7\nrnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2\n",
    );
    let mut args = fake_with("A", "ucci", &format!("{} --score 35", script(LINE)), "");
    args.extend(fake_with("B", "uci", &format!("{} --score M3", script(LINE)), ""));
    args.extend(words(&format!(
        "-each tc=40/60+0.5 timemargin=200 -openings file={} -repeat 1 -games 2 -pgnout {}",
        openings.display(),
        pgn.display()
    )));
    match_ok(&args);
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games: Vec<&str> = text.split("[Game ").filter(|g| !g.is_empty()).collect();
    assert_eq!(games.len(), 2, "{text}");
    assert!(games.iter().all(|g| g.contains("[TimeControl \"40/60+0.5\"]")), "{text}");
    assert!(!games[0].contains("[SetUp") && !games[0].contains("[FEN"), "{text}");
    assert!(games[1].contains("[SetUp \"1\"]\n[FEN \"rnbakab1r/9/1c4nc1/"), "{text}");
    // Opening moves carry no comment; engine moves carry score/depth and time, mates as +M3.
    let moves = |g: &str| g.split("\n\n").nth(1).unwrap_or("").split_whitespace().collect::<Vec<_>>().join(" ");
    let first = moves(games[0]);
    assert!(first.starts_with("1. H2-E2 H9-G7 2. H0-G2 {+0.35/7 "), "{first}");
    assert!(first.contains("s} I9-H9 {+M3/7 "), "{first}");
    let second = moves(games[1]);
    assert!(second.starts_with("2. H0-G2 {+M3/7 "), "{second}");
    // The comments keep the file readable by `chuhe stats`.
    let out = stats(&[pgn], "");
    assert!(out.starts_with("Score of A vs B: "), "{out}");
}

#[test]
fn xboard_engines_play_ucci_engines() {
    let pgn = temp("xboard.pgn", "");
    std::fs::remove_file(&pgn).unwrap();
    let mut args = words(&format!("-engine cmd={CHUHE} name=X proto=xboard option.MultiPV=1 option.Bogus=1"));
    args.extend(words(&format!(
        "-engine cmd={CHUHE} name=U proto=ucci -each depth=2 -games 2 -pgnout {}",
        pgn.display()
    )));
    args.extend(words(
        "-openings order=random -srand 9 -draw movenumber=30 movecount=4 score=30 -resign movecount=3 score=500",
    ));
    let out = match_ok(&args);
    assert!(
        out.contains("Warning: X does not know option 'Bogus' (not in its option list; it answered: Error ("),
        "{out}"
    );
    assert_eq!(warnings(&out), 1, "{out}");
    assert_clean_games(&out, 2);
    // Both engines' thinking is in the comments (depth 2).
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.matches("/2 ").count() > 10, "{text}");
}

/// One game of a CECP fake (`a`, Red) against a UCCI fake (`b`) from `opening`, with `more`.
fn xboard_game(a: &str, b: &str, opening: &str, more: &str) -> String {
    let file = temp(&format!("xb-{:x}.txt", fxhash(a) ^ fxhash(b) ^ fxhash(opening) ^ fxhash(more)), opening);
    let mut args = fake_with("A", "xboard", a, "");
    args.extend(fake_engine("B", b));
    args.extend(words(&format!("-each st=2 timemargin=200 -games 1 -openings file={} {more}", file.display())));
    match_ok(&args)
}

#[test]
fn xboard_moves_setboard_clocks_claims_resignation_and_draws() {
    // From a FEN: the engine gets `setboard`, else its scripted move would be the wrong one.
    let out = xboard_game("--script b0b9", "--script b0b9", "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1\n", "");
    let line = out.lines().find(|l| l.starts_with("Finished game 1")).unwrap_or_else(|| panic!("{out}"));
    assert!(line.starts_with("Finished game 1 (A vs B): 1-0 {") && line.contains("checkmate"), "{out}");
    // Moves both ways, `level`, `time`/`otim` in centiseconds, `usermove`, `force` after a move.
    let out = xboard_game(&script(SHUFFLE), &script(SHUFFLE), "startpos\n", "-each tc=40/60+0.5 -debug");
    assert!(out.contains("Finished game 1 (A vs B): 1/2-1/2 {"), "{out}");
    for line in [" A < level 40 1 0.5", " A < time 6000", " A < otim 6000", " A > move h0g2", " A < force"] {
        assert!(out.contains(line), "{line}\n{out}");
    }
    assert!(out.contains(" A < usermove h9g7"), "{out}");
    // A claim instead of a move is only advisory: the rules say the game goes on.
    let out = xboard_game(&format!("{} --mode nomove --at 2", script(LINE)), &script(LINE), "startpos\n", "");
    assert!(
        out.contains(
            "Finished game 1 (A vs B): 0-1 {Red makes no move (claims 1/2-1/2 (Draw by the fake's own rules))}"
        ),
        "{out}"
    );
    // The engine's board is not the game's once it refuses a move the rules allow.
    let out = xboard_game(&format!("{} --mode refuse --at 1", script(LINE)), &script(LINE), "startpos\n", "");
    assert!(out.contains("Finished game 1 (A vs B): 0-1 {Red refuses a legal move (Illegal move: h9g7)}"), "{out}");
    let out = xboard_game(&format!("{} --mode resign --at 2", script(LINE)), &script(LINE), "startpos\n", "");
    assert!(out.contains("Finished game 1 (A vs B): 0-1 {Red resigns}"), "{out}");
    // Draw offers cross protocols both ways: CECP `offer draw` <-> UCCI `go draw` / `bestmove .. draw`.
    let offer = format!("{} --mode offerdraw --at 2", script(LINE));
    let accept = format!("{} --mode acceptdraw", script(LINE));
    let out = xboard_game(&offer, &accept, "startpos\n", "");
    assert!(out.contains("Finished game 1 (A vs B): 1/2-1/2 {Draw by agreement}"), "{out}");
    let out = xboard_game(&accept, &format!("{} --mode offerdraw --at 3", script(LINE)), "startpos\n", "");
    assert!(out.contains("Finished game 1 (A vs B): 1/2-1/2 {Draw by agreement}"), "{out}");
    // An option not in the `feature option=` list gets a warning (and CECP's error).
    let file = temp("xb-options.txt", "startpos\n");
    let mut args = fake_with("A", "xboard", &format!("{} --options Hash", script(LINE)), "option.Hash=1 option.Foo=2");
    args.extend(fake_engine("B", &script(LINE)));
    args.extend(words(&format!("-each st=2 timemargin=200 -games 1 -openings file={}", file.display())));
    let out = match_ok(&args);
    let warning =
        "Warning: A does not know option 'Foo' (not in its option list; it answered: Error (unknown option): Foo)";
    assert!(out.contains(warning), "{out}");
    assert_eq!(warnings(&out), 1, "{out}");
}

#[test]
fn ranks_from_one_are_detected_or_set_and_translated() {
    let proxy = format!("{}/tests/fixtures/ranks1_engine.py", env!("CARGO_MANIFEST_DIR"));
    let log = temp("ranks.log", "");
    let openings = temp("ranks-openings.txt", "startpos\n");
    // F1 lists UCI_Variant and is asked; F2 does not and is told with ranks=1.
    let mut args = words(&format!("-engine cmd={proxy} arg=--chuhe arg={CHUHE} name=F1 proto=uci"));
    args.extend(words(&format!(
        "-engine cmd={proxy} arg=--chuhe arg={CHUHE} arg=--no-variant name=F2 proto=uci ranks=1"
    )));
    args.extend(words(&format!(
        "-each depth=2 -games 2 -openings file={} -debug file={}",
        openings.display(),
        log.display()
    )));
    args.extend(words("-draw movenumber=30 movecount=4 score=30 -resign movecount=3 score=500"));
    let out = match_ok(&args);
    assert_clean_games(&out, 2);
    assert!(out.contains("Note: F1 numbers ranks 1-10 (it calls e0e1 'e1e2'); its moves are translated"), "{out}");
    assert!(!out.contains("Note: F2"), "{out}");
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains(" F1 < position fen 3k5/9/9/9/9/9/9/9/9/r3K4 w - - 0 1\n"), "{text}");
    assert!(text.contains(" F1 > bestmove e1e2"), "{text}");
    assert!(!text.contains(" F2 < position fen 3k5/"), "{text}");
    // Moves go out with ranks 1-10.
    let sent: Vec<&str> = text
        .lines()
        .filter(|l| l.contains(" F2 < position fen "))
        .filter_map(|l| l.split(" moves ").nth(1))
        .flat_map(str::split_whitespace)
        .collect();
    assert!(sent.len() > 10, "{text}");
    for m in sent {
        let ranks: Vec<u32> = m.split(|c: char| c.is_ascii_lowercase()).filter_map(|r| r.parse().ok()).collect();
        assert!(ranks.len() == 2 && ranks.iter().all(|r| (1..=10).contains(r)), "{m}");
    }
    // Told the wrong numbering, the engine's first move from the start is no legal move.
    let mut args = words(&format!("-engine cmd={proxy} arg=--chuhe arg={CHUHE} name=F1 proto=uci ranks=0"));
    args.extend(words(&format!(
        "-engine cmd={CHUHE} name=C proto=ucci -each depth=1 -openings file={}",
        openings.display()
    )));
    let out = match_ok(&args);
    assert!(out.contains("Finished game 1 (F1 vs C): 0-1 {Red makes an illegal move: "), "{out}");
}

#[test]
fn round_robin_plays_every_pair_and_ends_with_a_cross_table() {
    let openings = temp("rr-openings.txt", "startpos\n");
    let pgn = temp("rr.pgn", "");
    std::fs::remove_file(&pgn).unwrap();
    // A draws by repetition or wins; B always plays an illegal move; C only with Red.
    let mut args = fake_engine("A", &script(SHUFFLE));
    args.extend(fake_engine("B", &format!("{} --mode illegal", script(SHUFFLE))));
    args.extend(fake_engine("C", &format!("{} --mode illegal --redonly", script(SHUFFLE))));
    let flags = format!(
        "-each st=2 timemargin=200 -openings file={} -games 2 -concurrency 2 -pgnout {}",
        openings.display(),
        pgn.display()
    );
    args.extend(words(&flags));
    let (ok, out) = run_match(&args, HANG);
    assert!(!ok && out.contains("3 engines need -tournament round-robin"), "{out}");
    args.extend(words("-tournament round-robin -sprt elo0=0 elo1=10"));
    let out = match_ok(&args);
    assert!(out.contains("Warning: -sprt applies to two-engine matches only"), "{out}");
    let mut started: Vec<&str> = out.lines().filter(|l| l.starts_with("Started game")).collect();
    started.sort();
    assert_eq!(
        started,
        [
            "Started game 1 of 6 (A vs B)",
            "Started game 2 of 6 (B vs A)",
            "Started game 3 of 6 (A vs C)",
            "Started game 4 of 6 (C vs A)",
            "Started game 5 of 6 (B vs C)",
            "Started game 6 of 6 (C vs B)",
        ]
    );
    assert!(out.contains("Score of A vs B: 2 - 0 - 0  [1.000] 2"), "{out}");
    assert!(out.contains("Score of A vs C: 1 - 0 - 1  [0.750] 2"), "{out}");
    assert!(out.contains("Score of B vs C: 1 - 1 - 0  [0.500] 2"), "{out}");
    let table: Vec<&str> = out.lines().skip_while(|l| !l.starts_with("Rank  Name")).take(4).collect();
    assert_eq!(table.len(), 4, "{out}");
    assert_eq!(table[0], "Rank  Name  Games  Points   Score      Elo     +/-  1      2      3");
    assert!(
        table[1].starts_with("   1  A         4     3.5   87.5%    338.0 ")
            && table[1].ends_with("  -      1.5/2  2.0/2")
    );
    assert!(
        table[2].starts_with("   2  C         4     1.5   37.5%    -88.7 ")
            && table[2].ends_with("  0.5/2  -      1.0/2")
    );
    assert!(
        table[3].starts_with("   3  B         4     1.0   25.0%   -190.8 ") && table[3].ends_with("  0.0/2  1.0/2  -")
    );
    assert!(!out.contains("SPRT:") && !out.contains("Elo difference"), "{out}");
    assert!(out.contains("\nFinished match\n"), "{out}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Round \"1\"]").count(), 6, "{text}");
}

/// A match of fakes `a` and `b` (engine words from `fake_with`) from the start, logged with
/// `-debug file=`: the output and the log.
fn logged_match(tag: &str, a: Vec<String>, b: Vec<String>, more: &str) -> (String, String) {
    let openings = temp("ponder-openings.txt", "startpos\n");
    let log = temp(&format!("{tag}.log"), "");
    let mut args = a;
    args.extend(b);
    args.extend(words(&format!("-openings file={} -debug file={} {more}", openings.display(), log.display())));
    let out = match_ok(&args);
    (out, std::fs::read_to_string(&log).unwrap())
}

/// The games of a match's output drawn by repetition.
fn repetition_draws(out: &str) -> usize {
    out.lines()
        .filter(|l| l.starts_with("Finished game") && l.contains(": 1/2-1/2 {") && l.contains("repetition"))
        .count()
}

/// The lines of `log` sent to (`< ...`) and read from (`> ...`) engine `name`.
fn traffic<'a>(log: &'a str, name: &str) -> Vec<&'a str> {
    let tag = format!(" {name} ");
    log.lines().filter_map(|l| l.split_once(&tag).map(|(_, rest)| rest)).collect()
}

/// The lines `from` on, up to the next line that starts one of `ends`.
fn until<'a>(lines: &[&'a str], from: usize, ends: &[&str]) -> Vec<&'a str> {
    let end = (from + 1..lines.len()).find(|&i| ends.iter().any(|e| lines[i].starts_with(e))).unwrap_or(lines.len());
    lines[from..=end.min(lines.len() - 1)].to_vec()
}

#[test]
fn a_ponder_hit_gets_ponderhit_and_a_miss_stop_then_a_fresh_go() {
    let ponderer = |proto, extra: &str| {
        fake_with("A", proto, &format!("{} --ponder --options Ponder {extra}", script(SHUFFLE)), "ponder")
    };
    let more = "-each st=2 timemargin=5000 -games 2";
    // Hits: A guesses the script's next move, which B plays. The strict fake exits on any
    // command out of turn, so the games ending by the rules shows the order was right.
    for proto in ["ucci", "uci"] {
        let (out, log) = logged_match(proto, ponderer(proto, ""), fake_engine("B", &script(SHUFFLE)), more);
        assert!(out.contains("Note: A ponders: both engines of a game then think at once"), "{out}");
        assert_eq!(repetition_draws(&out), 2, "{out}");
        let a = traffic(&log, "A");
        let ponders: Vec<usize> = (0..a.len()).filter(|&i| a[i].starts_with("< go ponder ")).collect();
        assert!(ponders.len() >= 4, "{log}");
        // M and P on the position: A (Red) moved h0g2 and expects h9g7.
        assert!(a[ponders[0] - 1].ends_with(" moves h0g2 h9g7"), "{log}");
        let go = if proto == "uci" { "< go ponder movetime 2000" } else { "< go ponder time 2000 movestogo 1" };
        assert_eq!(a[ponders[0]], go, "{log}");
        for &i in &ponders {
            let next = until(&a, i, &["< ponderhit", "< stop", "< go", "< position"]);
            // A hit, or the game ended on B's move and the ponder search was stopped.
            let last = *next.last().unwrap();
            assert!(last == "< ponderhit" || last == "< stop", "{next:?}\n{log}");
        }
        assert!(a.iter().filter(|l| **l == "< ponderhit").count() >= 3, "{log}");
        assert!(!traffic(&log, "B").iter().any(|l| l.starts_with("< go ponder") || *l == "< ponderhit"), "{log}");
        let option = "< setoption name Ponder value true";
        assert_eq!(a.contains(&option), proto == "uci", "{log}");
    }
    // Misses: A always guesses b9c7 (legal only when it has Red): stop, its bestmove read and
    // dropped, then the game's position and a fresh go.
    let (out, log) = logged_match("miss", ponderer("ucci", "--guess b9c7"), fake_engine("B", &script(SHUFFLE)), more);
    assert_eq!(repetition_draws(&out), 2, "{out}");
    let a = traffic(&log, "A");
    assert!(!a.contains(&"< ponderhit"), "{log}");
    let first = a.iter().position(|l| l.starts_with("< go ponder ")).unwrap();
    assert!(a[first - 1].ends_with(" moves h0g2 b9c7"), "{log}");
    let next = until(&a, first, &["< go time"]);
    assert_eq!(next[1], "< stop", "{log}");
    assert!(next.iter().any(|l| l.starts_with("> bestmove ")), "{log}");
    assert!(next[next.len() - 2].ends_with(" moves h0g2 h9g7"), "{log}");
    // An engine that never answers the stop loses by stall.
    let (out, _) = logged_match(
        "stall",
        ponderer("ucci", "--guess b9c7 --mode stophang"),
        fake_engine("B", &script(SHUFFLE)),
        "-each st=0.5 timemargin=0 -games 1",
    );
    assert!(out.contains("Finished game 1 (A vs B): 0-1 {Red's connection stalls}"), "{out}");
}

#[test]
fn ponder_is_refused_without_a_clock_or_over_cecp() {
    for bad in ["depth=3 ponder", "nodes=100 ponder", "st=1 proto=xboard ponder", "st=1 ponder=2"] {
        let (ok, out) = run_match(&words(&format!("-engine cmd=a {bad} -engine cmd=b st=1")), HANG);
        assert!(!ok && out.starts_with("chuhe match: ") && out.lines().count() == 1, "{bad}: {out}");
    }
}

#[test]
fn chuhe_ponders_against_itself() {
    let log = temp("chuhe-ponder.log", "");
    let mut args = words(&format!("-engine cmd={CHUHE} name=P proto=ucci -engine cmd={CHUHE} name=Q proto=uci"));
    args.extend(words("-each tc=4+0.1 timemargin=20000 ponder -games 2 -openings order=random -srand 3"));
    args.extend(words("-draw movenumber=25 movecount=4 score=30 -resign movecount=3 score=600"));
    args.extend(words(&format!("-debug file={}", log.display())));
    let out = match_ok(&args);
    assert_clean_games(&out, 2);
    let log = std::fs::read_to_string(&log).unwrap();
    for name in ["P", "Q"] {
        let lines = traffic(&log, name);
        let ponders = lines.iter().filter(|l| l.starts_with("< go ponder ")).count();
        let hits = lines.iter().filter(|l| **l == "< ponderhit").count();
        let stops = lines.iter().filter(|l| **l == "< stop").count();
        // Every ponder search ends in a ponderhit or a stop (a late move's stop adds to these).
        // (Whether any guess hits depends on the clock, so it is not asserted here: the fake
        // engine's test pins the ponderhit path.)
        assert!(ponders >= 5 && hits + stops >= ponders, "{name}: {ponders} {hits} {stops}\n{log}");
    }
    assert!(traffic(&log, "Q").contains(&"< setoption name Ponder value true"), "{log}");
}

#[test]
fn latency_is_charged_to_the_clock() {
    let openings = temp("latency-openings.txt", "startpos\n");
    let base = format!("-openings file={} -games 1", openings.display());
    // A latency above the move time and margin forfeits at once, however fast the engine.
    let mut args = fake_with("A", "ucci", &script(LINE), "st=1 timemargin=100 latency=5000");
    args.extend(fake_with("B", "ucci", &script(LINE), "st=1 timemargin=100"));
    args.extend(words(&base));
    let out = match_ok(&args);
    assert!(out.contains("Finished game 1 (A vs B): 0-1 {Red loses on time}"), "{out}");
    // Within the margin it plays on, and its clock is charged the latency on each move.
    let (log, pgn) = (temp("latency.log", ""), temp("latency.pgn", ""));
    std::fs::remove_file(&pgn).unwrap();
    let scored = format!("{} --score 10", script(SHUFFLE));
    let mut args = fake_with("A", "ucci", &scored, "tc=30 timemargin=20000 latency=3000");
    args.extend(fake_with("B", "ucci", &scored, "tc=30 timemargin=20000"));
    args.extend(words(&format!("{base} -debug file={} -pgnout {}", log.display(), pgn.display())));
    let out = match_ok(&args);
    // The PGN's move times are what each clock was charged, so `stats -clock` agrees with it.
    let text = std::fs::read_to_string(&pgn).unwrap();
    let times: Vec<u64> = text.split('{').skip(1).filter_map(|c| comment_ms(c.split('}').next()?)).collect();
    assert_eq!(times.len(), 8, "{text}");
    for (ply, ms) in times.iter().enumerate() {
        assert_eq!(*ms >= 3000, ply % 2 == 0, "ply {ply}: {ms} ms\n{text}");
    }
    assert_eq!(repetition_draws(&out), 1, "{out}");
    let log = std::fs::read_to_string(&log).unwrap();
    let times = |name| -> Vec<u64> {
        traffic(&log, name)
            .iter()
            .filter_map(|l| l.strip_prefix("< go time "))
            .map(|rest| rest.split(' ').next().unwrap().parse().unwrap())
            .collect()
    };
    let a = times("A");
    assert_eq!((a.len(), a[0]), (4, 30_000), "{log}");
    for (n, t) in a.iter().enumerate() {
        assert!(*t <= 30_000 - 3000 * n as u64, "move {n}: {t}\n{log}");
    }
}

/// The flags of a node-limited match of Chuhe against itself (UCI against UCCI, so the two
/// differ) writing `pgn`, plus `more`: deterministic game by game, whichever game ends first.
fn chuhe_match(pgn: &Path, more: &str) -> Vec<String> {
    let mut args = words(&format!("-engine cmd={CHUHE} name=A proto=uci -engine cmd={CHUHE} name=B proto=ucci"));
    args.extend(words(&format!(
        "-each nodes=1000 timeout=30000 -games 2 -rounds 12 -openings order=random -srand 11 \
         -draw movenumber=30 movecount=4 score=20 -resign movecount=4 score=600 \
         -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 -ratinginterval 5 -pgnout {} {more}",
        pgn.display()
    )));
    args
}

/// A PGN file's text with what depends on the clock taken out: `[Date]`, the move times in the
/// comments (`{+0.35/7 0.05s}` -> `{+0.35/7}`) and so where the lines wrap.
fn timeless(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let kept: Vec<&str> = text.lines().filter(|l| !l.starts_with("[Date ")).collect();
    let tokens: Vec<&str> = kept
        .iter()
        .flat_map(|l| l.split_whitespace())
        .map(|t| match t.strip_suffix("s}") {
            Some(secs) if secs.parse::<f64>().is_ok() => "}",
            _ => t,
        })
        .collect();
    tokens.join(" ").replace(" }", "}")
}

/// The number of games a PGN file has begun.
fn games_begun(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| t.matches("[Game \"Chinese Chess\"]").count())
}

#[test]
#[cfg(unix)]
fn a_killed_match_resumed_ends_as_one_never_stopped() {
    let (whole_pgn, killed_pgn) = (temp("resume-whole.pgn", ""), temp("resume-killed.pgn", ""));
    for p in [&whole_pgn, &killed_pgn] {
        std::fs::remove_file(p).unwrap();
    }
    let whole = match_ok(&chuhe_match(&whole_pgn, "-concurrency 2"));
    assert_eq!(games_begun(&whole_pgn), 24, "{whole}");
    // SIGKILL once four games are in the file (maybe while the fifth is written): where it lands
    // changes nothing below, and a run that ends first is resumed with nothing left to play.
    let mut child = Command::new(CHUHE)
        .arg("match")
        .args(chuhe_match(&killed_pgn, "-concurrency 2"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if games_begun(&killed_pgn) >= 4 {
            child.kill().unwrap();
            child.wait().unwrap();
            break;
        }
        assert!(start.elapsed() < HANG, "the match to kill hangs");
        std::thread::sleep(Duration::from_millis(2));
    }
    let resumed = match_ok(&chuhe_match(&killed_pgn, "-concurrency 2 -resume"));
    assert!(resumed.contains("Resuming: ") && resumed.contains(" of 24 games already in "), "{resumed}");
    assert_eq!(timeless(&killed_pgn), timeless(&whole_pgn));
    assert_eq!(summary(&resumed), summary(&whole));
    assert!(summary(&whole).contains("\nFaults: A 0; B 0\n"), "{whole}");
}

/// `text` cut after its `k`-th game and half of the next one's text.
fn cut_after(text: &str, k: usize) -> String {
    let starts: Vec<usize> = text.match_indices("[Game \"Chinese Chess\"]").map(|(at, _)| at).collect();
    let end = starts.get(k + 1).copied().unwrap_or(text.len());
    let mut cut = starts[k] + (end - starts[k]) / 2;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    text[..cut].to_string()
}

#[test]
fn a_resumed_match_cuts_off_a_partial_game_and_plays_only_the_missing_ones() {
    for (name, more) in [("whole", ""), ("shard", "-shard 2/2")] {
        let (full, part) = (temp(&format!("cut-{name}.pgn"), ""), temp(&format!("cut-{name}-part.pgn"), ""));
        std::fs::remove_file(&full).unwrap();
        let out = match_ok(&chuhe_match(&full, more));
        let text = std::fs::read_to_string(&full).unwrap();
        std::fs::write(&part, cut_after(&text, 5)).unwrap();
        let resumed = match_ok(&chuhe_match(&part, &format!("{more} -resume")));
        let planned = if more.is_empty() { 24 } else { 12 };
        let said = format!(
            "Resuming: 5 of {planned} games already in {} (a partial game at its end cut off)\n",
            part.display()
        );
        assert!(resumed.starts_with(&said), "{resumed}");
        // Games 1-5 of the slice are not played again; the rest are, and the output goes on as
        // the whole run's did after them (less the CPU lines, which depend on the load).
        let first = if more.is_empty() { 6 } else { 18 };
        assert!(!resumed.contains(&format!("Started game {} of 24", first - 1)), "{resumed}");
        assert!(resumed.contains(&format!("Started game {first} of 24")), "{resumed}");
        let after = |o: &str| -> Vec<String> {
            let from = format!("Finished game {first} ");
            let kept = ["Finished game", "Score of", "Elo", "Ptnml", "SPRT", "Faults"];
            let lines = o.lines().skip_while(|l| !l.starts_with(&from));
            lines.filter(|l| kept.iter().any(|k| l.starts_with(k))).map(String::from).collect()
        };
        assert_eq!(after(&resumed), after(&out));
        assert_eq!(timeless(&part), timeless(&full));
        assert_eq!(summary(&resumed), summary(&out));
        // Resumed again when finished: nothing to play, the same summary.
        let again = match_ok(&chuhe_match(&part, &format!("{more} -resume")));
        assert!(!again.contains("Started game"), "{again}");
        assert_eq!(summary(&again), summary(&out));
    }
}

#[test]
fn resume_refuses_a_pgn_of_another_match_with_one_line() {
    let pgn = temp("refuse.pgn", "");
    std::fs::remove_file(&pgn).unwrap();
    match_ok(&chuhe_match(&pgn, "-rounds 2"));
    let text = std::fs::read_to_string(&pgn).unwrap();
    let file = pgn.display().to_string();
    let fails = |text: &str, more: &str, why: &str| {
        let path = temp("refuse-case.pgn", text);
        let before = std::fs::read(&path).unwrap();
        let args = chuhe_match(&path, &format!("-rounds 2 -resume {more}"));
        let o = Command::new(CHUHE).arg("match").args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{why}: {err}");
        assert_eq!(err.lines().count(), 1, "{why}: {err}");
        assert!(err.contains(why), "{why}: {err}");
        assert!(o.stdout.is_empty(), "{why}");
        // A refused file is left as it was.
        assert_eq!(std::fs::read(&path).unwrap(), before, "{why}");
    };
    let case = temp("refuse-case.pgn", "").display().to_string();
    let not_ours = format!("chuhe match: -resume: '{case}' is not this match's PGN: ");
    fails(&text.replace("[Red \"A\"]", "[Red \"X\"]"), "", &format!("{not_ours}its game 1 (line 1) is X vs B"));
    fails(&(text.clone() + &text), "", &format!("{not_ours}it holds more than the 4 games this match plays"));
    fails(&text.replacen("[Round \"2\"]", "[Round \"9\"]", 1), "", "its game 3 (line ");
    fails(&text, "-rounds 1", "it holds more than the 2 games this match plays");
    fails(&text, "-openings order=random -srand 12", "starts from another opening than this match's game 1");
    fails("a note\n", "", "its game 1 (line 1) is not whole");
    fails(&text.replacen("\n\n[Game", "\n[Game", 1), "", &format!("{not_ours}its game 1 (line 1) is not whole"));
    // Without -pgnout, or order=random without -srand: said before anything is read.
    let mut args = chuhe_match(&pgn, "-resume");
    let at = args.iter().position(|a| a == "-pgnout").unwrap();
    args.drain(at..at + 2);
    let (ok, out) = run_match(&args, HANG);
    assert!(!ok && out.starts_with("chuhe match: -resume needs the -pgnout FILE"), "{out}");
    let args: Vec<String> = chuhe_match(&pgn, "-resume").into_iter().filter(|a| a != "-srand" && a != "11").collect();
    let (ok, out) = run_match(&args, HANG);
    assert!(!ok && out.starts_with("chuhe match: -resume with order=random needs the -srand"), "{out}");
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), text, "{file}");
}

#[test]
fn soak_changes_hash_threads_and_games_between_games_by_the_seed() {
    let openings = temp("soak-openings.txt", "startpos\n");
    let changes = |seed: u32, tag: &str| -> (String, Vec<String>) {
        let log = temp(&format!("soak-{tag}.log"), "");
        let mut args = fake_with("A", "uci", &format!("{} --options Hash,Threads", script(SHUFFLE)), "");
        args.extend(fake_with("B", "ucci", &script(SHUFFLE), ""));
        args.extend(words(&format!(
            "-each st=2 timemargin=200 -games 16 -soak -srand {seed} -openings file={} -debug file={}",
            openings.display(),
            log.display()
        )));
        let out = match_ok(&args);
        let log = std::fs::read_to_string(&log).unwrap();
        let sent: Vec<String> = ["A", "B"]
            .iter()
            .flat_map(|n| traffic(&log, n).into_iter().map(move |l| format!("{n} {l}")))
            .filter(|l| {
                ["setoption name Hash", "setoption name Threads", "ucinewgame", "setoption hashsize"]
                    .iter()
                    .chain(&["setoption threads", "setoption newgame"])
                    .any(|w| l.contains(w))
            })
            .collect();
        (out, sent)
    };
    let (out, sent) = changes(7, "a");
    assert_eq!(out.lines().filter(|l| l.starts_with("Finished game")).count(), 16, "{out}");
    assert_eq!(warnings(&out), 0, "{out}");
    assert!(out.contains("\nFaults: A 0; B 0\n"), "{out}");
    let sizes = ["1", "16", "64", "128"];
    for (prefix, values) in [
        ("A < setoption name Hash value ", &sizes[..]),
        ("B < setoption hashsize ", &sizes[..]),
        ("A < setoption name Threads value ", &["1", "2"][..]),
        ("B < setoption threads ", &["1", "2"][..]),
    ] {
        let got: Vec<&str> = sent.iter().filter_map(|l| l.strip_prefix(prefix)).collect();
        assert!(!got.is_empty() && got.iter().all(|v| values.contains(v)), "{prefix}: {sent:?}");
    }
    // More new games than games: the extra ones are the soak's.
    for new_game in ["A < ucinewgame", "B < setoption newgame"] {
        assert!(sent.iter().filter(|l| *l == new_game).count() > 16, "{new_game}: {sent:?}");
    }
    // The same seed sends the same changes; another seed others.
    assert_eq!(changes(7, "b").1, sent);
    assert_ne!(changes(8, "c").1, sent);
}
