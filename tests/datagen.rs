//! `chuhe datagen`: the real binary, tiny runs (a few games at a few hundred nodes a move).
//! Runs are compared byte for byte; nothing depends on time or scheduling.

use chuhe::board::Color::Red;
use chuhe::datagen::chain::END_SIZE;
use chuhe::datagen::format::{FLAG_CAPTURE, FLAG_DECISIVE, FLAG_GAME_START, FLAG_IN_CHECK, FLAG_NOT_QUIET};
use chuhe::datagen::{Adjudication, End, Reader, Record};
use chuhe::rules::{Game, GameResult};
use std::path::PathBuf;
use std::process::{Command, Output};

fn chuhe(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chuhe")).args(args).output().expect("run chuhe")
}

/// A fresh path under the target directory's temp folder.
fn temp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("datagen");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Runs datagen into `name` with 3 games at 400 nodes a move (unless `extra` gives a depth)
/// plus `extra`; returns the file's bytes.
fn generate(name: &str, extra: &[&str]) -> Vec<u8> {
    let out = temp(name);
    let mut args = vec!["datagen", "--out", out.to_str().unwrap(), "--games", "3"];
    if !extra.contains(&"--depth") {
        args.extend_from_slice(&["--nodes", "400"]);
    }
    args.extend_from_slice(extra);
    let run = chuhe(&args);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("datagen: games 3/3"), "final progress line: {stderr}");
    std::fs::read(out).unwrap()
}

fn records(bytes: &[u8]) -> Vec<Record> {
    Reader::new(bytes).map(|r| r.expect("every record decodes to a legal position and move")).collect()
}

/// The records split into games by the game-start flag.
fn games(records: &[Record]) -> Vec<&[Record]> {
    let starts: Vec<usize> = (0..records.len()).filter(|&i| records[i].flags & FLAG_GAME_START != 0).collect();
    assert_eq!(starts.first(), Some(&0), "the first record starts a game");
    starts.iter().enumerate().map(|(k, &s)| &records[s..starts.get(k + 1).copied().unwrap_or(records.len())]).collect()
}

#[test]
fn same_seed_same_bytes_for_one_and_two_threads() {
    let one = generate("t1a.bin", &["--seed", "11"]);
    assert_eq!(one, generate("t1b.bin", &["--seed", "11"]), "--threads 1 twice");
    let two = generate("t2a.bin", &["--seed", "11", "--threads", "2"]);
    assert_eq!(two, generate("t2b.bin", &["--seed", "11", "--threads", "2"]), "--threads 2 twice");
    // Each game depends only on the seed and its index, and games are written in order.
    assert_eq!(one, two, "the thread count does not change the data");
    assert_ne!(one, generate("s12.bin", &["--seed", "12"]), "another seed, other games");
    // The chained format (version 2): its header, and the end mark last.
    assert_eq!((&one[0..8], u16::from_le_bytes([one[8], one[9]])), (&b"CHUHEDAT"[..], 2));
    assert_eq!(one[one.len() - END_SIZE], b'E');
    assert!(one.len() < records(&one).len() * 4, "{} bytes for {} positions", one.len(), records(&one).len());
}

#[test]
fn kept_positions_chain_into_games_whose_results_hold() {
    let bytes = generate("all.bin", &["--seed", "3", "--keep", "all", "--openings", "builtin"]);
    let records = records(&bytes);
    let games = games(&records);
    assert_eq!(games.len(), 3);
    let adj = Adjudication::default();
    for game in games {
        let last = game.last().unwrap();
        for (r, next) in game.iter().zip(game.iter().skip(1)) {
            assert_eq!((r.result, r.end, r.game_plies), (last.result, last.end, last.game_plies));
            assert_eq!(r.ply + 1, next.ply, "--keep all keeps every searched ply");
            let mut pos = r.position.clone();
            pos.make_move(r.best);
            assert_eq!(pos.key(), next.position.key(), "a record's best move leads to the next record");
            assert_eq!(pos.halfmove_clock(), next.position.halfmove_clock());
        }
        assert_eq!(last.ply + 1, last.game_plies);
        assert!(game[0].ply >= 10, "two opening plies and eight random plies come first");
        // Replaying the searched moves reaches the stored ending.
        let mut replay = Game::new(game[0].position.clone());
        for r in game {
            assert_eq!(replay.verdict(), None, "the game went on at ply {}", r.ply);
            replay.play(r.best).unwrap();
        }
        let red_views: Vec<i32> = game
            .iter()
            .map(|r| if r.position.side_to_move() == Red { r.score as i32 } else { -(r.score as i32) })
            .collect();
        let tail = |n: u32| &red_views[red_views.len().saturating_sub(n as usize)..];
        match last.end {
            End::AdjudicatedWin => {
                let sign = if last.result == GameResult::RedWins { 1 } else { -1 };
                assert!(tail(adj.win_plies).iter().all(|&s| s * sign >= adj.win_score), "{:?}", tail(4));
            }
            End::AdjudicatedDraw => assert!(tail(adj.draw_plies).iter().all(|s| s.abs() <= adj.draw_score)),
            End::MaxLength => assert_eq!(last.game_plies as u32, adj.max_plies),
            rule => {
                let v = replay.verdict().expect("the rules ended the game");
                assert_eq!((v.result, End::of_rule(v.rule)), (last.result, rule));
            }
        }
    }
    let flags: Vec<u8> = records.iter().map(|r| r.flags).collect();
    assert!(flags.iter().any(|f| f & FLAG_NOT_QUIET != 0), "--keep all keeps captures and checks");
    for r in &records {
        let noisy = r.position.in_check() || r.position.is_capture(r.best) || r.flags & FLAG_DECISIVE != 0;
        assert_eq!(r.flags & FLAG_NOT_QUIET != 0, noisy);
        assert_eq!(r.flags & FLAG_IN_CHECK != 0, r.position.in_check());
        assert_eq!(r.flags & FLAG_CAPTURE != 0, r.position.is_capture(r.best));
    }
}

#[test]
fn quiet_positions_only_by_default() {
    let records = records(&generate("quiet.bin", &["--seed", "4"]));
    assert!(!records.is_empty());
    assert_eq!(games(&records).len(), 3);
    for r in &records {
        assert_eq!(r.flags & FLAG_NOT_QUIET, 0);
        assert!(!r.position.in_check() && !r.position.is_capture(r.best));
        assert!(r.score.abs() < 10_000);
    }
}

#[test]
fn stats_count_what_the_files_hold() {
    let a = generate("stats_a.bin", &["--seed", "21", "--depth", "2", "--random-plies", "4"]);
    let b = generate("stats_b.bin", &["--seed", "22"]);
    let both = temp("stats_ab.bin");
    std::fs::write(&both, [a.clone(), b.clone()].concat()).unwrap();
    let run = chuhe(&["datagen", "--stats", both.to_str().unwrap()]);
    assert!(run.status.success());
    let text = String::from_utf8(run.stdout).unwrap();
    let n = records(&a).len() + records(&b).len();
    let reds = records(&a).iter().chain(&records(&b)).filter(|r| r.result == GameResult::RedWins).count();
    assert!(text.contains(&format!("files 1  headers 2  bytes {}", a.len() + b.len())), "{text}");
    assert!(text.contains(&format!("positions {n}  bytes/position")), "{text}");
    assert!(text.contains(&format!("positions by result: Red wins {reds} (")), "{text}");
    assert!(text.contains("games 6  average length "), "{text}");
    let counts: usize = text
        .lines()
        .skip_while(|l| !l.starts_with("score histogram"))
        .skip(1)
        .take_while(|l| !l.starts_with("calibration"))
        .map(|l| l.split('%').next().unwrap().split_whitespace().rev().nth(1).unwrap().parse::<usize>().unwrap())
        .sum();
    assert_eq!(counts, n, "{text}");
    assert!(text.contains("calibration (quiet positions, side to move's view; K "), "{text}");
}

#[test]
fn bad_flags_give_one_line_and_status_2() {
    let out = temp("bad.bin");
    let out = out.to_str().unwrap();
    let junk = temp("junk.bin");
    std::fs::write(&junk, b"not a data file at all, just some text bytes here").unwrap();
    let junk = junk.to_str().unwrap();
    let cases: [(&[&str], &str); 11] = [
        (&["datagen"], "--out FILE is required"),
        (&["datagen", "--out", out, "--nodes", "10", "--depth", "3"], "not both"),
        (&["datagen", "--out", out, "--keep", "some"], "--keep 'some' must be quiet or all"),
        (&["datagen", "--out", out, "--threads", "0"], "--threads '0' must be a whole number"),
        (&["datagen", "--out", out, "--games", "many"], "--games 'many'"),
        (&["datagen", "--out", out, "--colour", "red"], "unknown option '--colour'"),
        (&["datagen", "--out", out, "--openings", "/nonexistent/openings.txt"], "cannot read openings"),
        (&["datagen", "--out", out, "--random-plies", "0"], "the same game every time"),
        (&["datagen", "--stats"], "--stats needs at least one FILE"),
        (&["datagen", "--stats", "/nonexistent/data.bin"], "/nonexistent/data.bin"),
        (&["datagen", "--stats", junk], "not a chuhe datagen file"),
    ];
    for (args, needle) in cases {
        let run = chuhe(args);
        let err = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("chuhe datagen: ") && err.contains(needle), "{args:?}: {err}");
        assert!(run.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn relabel_rescores_the_same_games_and_the_stats_read_it() {
    let bytes = generate("rl-in.bin", &["--seed", "21"]);
    let (input, out) = (temp("rl-in.bin"), temp("rl-out.bin"));
    let (i, o) = (input.to_str().unwrap(), out.to_str().unwrap());
    let run = chuhe(&["datagen", "--relabel", i, "--out", o, "--depth", "3", "--threads", "2"]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(String::from_utf8_lossy(&run.stderr).contains("relabel: positions"), "progress line");
    let (old, new) = (records(&bytes), records(&std::fs::read(&out).unwrap()));
    assert_eq!(old.len(), new.len());
    assert_eq!(games(&old).len(), games(&new).len(), "the same games");
    for (a, b) in old.iter().zip(&new) {
        assert_eq!((a.position.to_fen(), a.result, a.ply), (b.position.to_fen(), b.result, b.ply));
    }
    assert!(old.iter().zip(&new).any(|(a, b)| a.score != b.score), "new labels");
    let stats = chuhe(&["datagen", "--stats", o]);
    assert!(stats.status.success() && String::from_utf8_lossy(&stats.stdout).starts_with("files 1"));
    // --limit cuts the input.
    let run = chuhe(&["datagen", "--relabel", i, "--out", o, "--depth", "1", "--limit", "5"]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert_eq!(records(&std::fs::read(&out).unwrap()).len(), 5);
}

/// Kills a run (SIGKILL) as soon as its resume file shows a game more than `after`; returns
/// the games it shows then, or `None` when the run ended first (nothing left to resume).
fn kill_after_a_game(args: &[&str], resume: &std::path::Path, after: u64) -> Option<u64> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chuhe"))
        .args(args)
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("run chuhe");
    let games = |text: String| text.lines().find_map(|l| l.strip_prefix("games ")?.parse::<u64>().ok());
    loop {
        if let Some(g) = std::fs::read_to_string(resume).ok().and_then(games).filter(|&g| g > after) {
            child.kill().unwrap();
            child.wait().unwrap();
            return Some(g);
        }
        if child.try_wait().unwrap().is_some() {
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

#[test]
fn a_killed_run_started_again_finishes_with_the_same_bytes() {
    let (whole, cut) = (temp("whole.bin"), temp("killed.bin"));
    let resume = PathBuf::from(format!("{}.resume", cut.display()));
    let _ = std::fs::remove_file(&resume);
    let args = |out: &PathBuf| {
        let out = out.to_str().unwrap().to_string();
        ["datagen", "--out", &out, "--games", "60", "--nodes", "300", "--seed", "11", "--threads", "2"]
            .map(String::from)
    };
    let (whole_args, cut_args) = (args(&whole), args(&cut));
    let whole_args: Vec<&str> = whole_args.iter().map(String::as_str).collect();
    let cut_args: Vec<&str> = cut_args.iter().map(String::as_str).collect();
    assert!(chuhe(&whole_args).status.success());
    assert!(!PathBuf::from(format!("{}.resume", whole.display())).exists(), "a finished run leaves no resume file");
    // Killed three times, each time after one more game, then let finish: whatever moment
    // the kill hits (inside a game, inside a record), the finished file is the same.
    let mut after = 0;
    for _ in 0..3 {
        match kill_after_a_game(&cut_args, &resume, after) {
            Some(g) => after = g,
            None => break,
        }
    }
    let last = chuhe(&cut_args);
    assert!(last.status.success(), "{}", String::from_utf8_lossy(&last.stderr));
    if after > 0 {
        let said = String::from_utf8_lossy(&last.stderr);
        assert!(said.contains("datagen: resuming '") && said.contains(" of 60 ("), "{said}");
    }
    assert_eq!(std::fs::read(&cut).unwrap(), std::fs::read(&whole).unwrap());
    assert!(!resume.exists());
}

#[test]
fn a_resume_file_of_other_settings_or_a_short_file_is_refused() {
    let out = temp("refused.bin");
    let resume = PathBuf::from(format!("{}.resume", out.display()));
    let o = out.to_str().unwrap();
    let base = ["datagen", "--out", o, "--games", "2", "--nodes", "200", "--seed", "3"];
    assert!(chuhe(&base).status.success());
    // A resume file from a run with another seed: the data is kept, the run refused.
    std::fs::write(&resume, "chuhe datagen resume 2\nsettings 0000000000000001\ngames 1\nrecords 10\nbytes 400\n")
        .unwrap();
    let before = std::fs::read(&out).unwrap();
    let run = chuhe(&base);
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(err.contains("other settings") && err.contains(&format!("'{}'", resume.display())), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), before, "nothing touched");
    std::fs::write(&resume, "not a resume file").unwrap();
    let err = String::from_utf8_lossy(&chuhe(&base).stderr).into_owned();
    assert!(err.contains("is not a datagen resume file"), "{err}");
    std::fs::remove_file(&resume).unwrap();
}

#[test]
fn a_data_directory_is_checked_against_its_manifest() {
    let dir = temp("manifest-dir");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let part = dir.join("r1-a.bin");
    std::fs::write(&part, generate("manifest-part.bin", &["--seed", "31", "--keep", "all"])).unwrap();
    let d = dir.to_str().unwrap();
    // --stats prints the part's figures; a manifest line made of them checks.
    let run = chuhe(&["datagen", "--stats", part.to_str().unwrap()]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let out = String::from_utf8_lossy(&run.stdout).into_owned();
    let line = out.lines().find_map(|l| l.trim().strip_prefix(&format!("part {}: ", part.display()))).expect(&out);
    let f: Vec<&str> = line.split(' ').collect(); // games G positions P bytes B crc32 X
    let (games, positions, bytes, crc) = (f[1], f[3], f[5], f[7]);
    assert_eq!(bytes.parse::<u64>().unwrap(), std::fs::metadata(&part).unwrap().len());
    let manifest = |positions: &str| {
        let row = ["r1-a.bin", "abc1234", "1296625", "hand", "31", "400", "none", games, positions, bytes, crc];
        format!(
            "# test\npart\tcommit\tbench\tnet\tseed\tnodes\topenings\tgames\tpositions\tbytes\tcrc32\n{}\n",
            row.join("\t")
        )
    };
    std::fs::write(dir.join("manifest.tsv"), manifest(positions)).unwrap();
    let run = chuhe(&["datagen", "--stats", d]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(String::from_utf8_lossy(&run.stdout).contains(&format!("positions {positions} ")));
    // A line that does not match, a part changed, an unlisted file: one line, status 2.
    let refused = |what: &str| {
        let run = chuhe(&["datagen", "--stats", d]);
        let err = String::from_utf8_lossy(&run.stderr).into_owned();
        assert_eq!((run.status.code(), err.lines().count()), (Some(2), 1), "{what}: {err}");
        err
    };
    std::fs::write(dir.join("manifest.tsv"), manifest("1")).unwrap();
    assert!(refused("positions").contains("its manifest line says 1"));
    std::fs::write(dir.join("manifest.tsv"), manifest(positions)).unwrap();
    let good = std::fs::read(&part).unwrap();
    std::fs::write(&part, &good[..good.len() - 13]).unwrap();
    assert!(refused("cut").contains("no end mark at byte"));
    std::fs::write(&part, &good).unwrap();
    std::fs::write(dir.join("stray.bin"), &good).unwrap();
    assert!(refused("unlisted").contains("is not listed"));
}

#[test]
fn the_committed_data_matches_its_manifest() {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data");
    if !data.join("manifest.tsv").is_file() {
        eprintln!("skipped: no data/manifest.tsv (a clone without data/)");
        return;
    }
    let run = chuhe(&["datagen", "--stats", data.to_str().unwrap()]);
    let (out, err) = (String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&run.stderr));
    assert!(run.status.success(), "{err}");
    // Every part chained (version 2) and within the 20 MB a part may hold.
    for line in out.lines().filter_map(|l| l.trim().strip_prefix("part ")) {
        let path = line.split(": ").next().unwrap();
        let bytes = std::fs::read(path).unwrap();
        assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), 2, "{path} is chained");
        assert!(bytes.len() <= 20 << 20, "{path}: {} bytes", bytes.len());
    }
}
