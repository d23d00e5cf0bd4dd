//! Move notations: every legal move round-trips through ICCS, WXF and Chinese in random games
//! and in built positions full of tandem pieces (2 to 5 pawns on a file, two such files,
//! paired rooks, horses, cannons, advisors and elephants); and the tools read the Chinese, WXF
//! and GBK samples exactly as their ICCS twin. Seeded; `CHUHE_PROPERTY_SCALE=N` runs N times
//! as many cases.

mod common;

use chuhe::board::{Move, Position};
use chuhe::notation::{format_move, parse_move, parse_move_as, Notation};
use common::rng::Rng;
use std::collections::BTreeMap;
use std::process::{Command, Output};

/// How many times the default amount of work to do (`CHUHE_PROPERTY_SCALE`, default 1).
fn scale() -> usize {
    std::env::var("CHUHE_PROPERTY_SCALE").ok().and_then(|v| v.parse().ok()).unwrap_or(1).max(1)
}

/// Checks that every legal move of `pos` reads back from its text in each notation, and
/// tallies the tandem forms written (the first character of each Chinese text).
fn round_trip_all(pos: &Position, seen: &mut BTreeMap<char, usize>) {
    for m in pos.legal_moves() {
        for n in Notation::ALL {
            let text = format_move(pos, m, n);
            assert_eq!(parse_move(pos, &text), Ok(m), "{} {m} as {n}: {text}", pos.to_fen());
            assert_eq!(parse_move_as(pos, &text, n), Ok(m), "{} {m} as {n}: {text}", pos.to_fen());
            if n == Notation::Chinese {
                *seen.entry(text.chars().next().unwrap()).or_default() += 1;
            }
        }
    }
}

#[test]
fn every_legal_move_of_random_games_round_trips() {
    let mut rng = Rng(0x2031_0001);
    let mut seen = BTreeMap::new();
    for _ in 0..20 * scale() {
        let mut pos = Position::startpos();
        for _ in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            round_trip_all(&pos, &mut seen);
            pos.make_move(rng.pick(&moves));
        }
    }
    assert!(seen.contains_key(&'前') && seen.contains_key(&'后'), "{seen:?}");
}

/// A board under construction: `grid[rank][file]`, rank 0 Red's back rank.
struct Board {
    grid: [[char; 9]; 10],
}

impl Board {
    /// Puts `piece` on (file, rank) if the point is free.
    fn put(&mut self, file: usize, rank: usize, piece: char) -> bool {
        let cell = &mut self.grid[rank][file];
        let free = *cell == '.';
        if free {
            *cell = piece;
        }
        free
    }

    /// The FEN with `side` to move.
    fn fen(&self, side: char) -> String {
        let ranks: Vec<String> = (0..10)
            .rev()
            .map(|r| {
                let mut s = String::new();
                let mut empty = 0;
                for &c in &self.grid[r] {
                    if c == '.' {
                        empty += 1;
                        continue;
                    }
                    if empty > 0 {
                        s += &empty.to_string();
                        empty = 0;
                    }
                    s.push(c);
                }
                if empty > 0 {
                    s += &empty.to_string();
                }
                s
            })
            .collect();
        format!("{} {side} - - 0 1", ranks.join("/"))
    }
}

/// A position crowded with tandem pieces: for each side, pawns stacked 2 to 5 on one file or
/// split over two files, pairs of rooks, horses and cannons on a shared file, advisors and
/// elephants anywhere (composed positions allow it); kings in their palaces.
fn tandem_board(rng: &mut Rng) -> Board {
    let mut b = Board { grid: [['.'; 9]; 10] };
    b.put(3 + rng.below(3), rng.below(3), 'K');
    b.put(3 + rng.below(3), 7 + rng.below(3), 'k');
    for red in [true, false] {
        let case = |c: char| if red { c } else { c.to_ascii_lowercase() };
        // Pawns mostly past the river, where they also move sideways.
        let pawn_rank = |rng: &mut Rng| {
            let r = if rng.below(4) == 0 { rng.below(10) } else { 5 + rng.below(5) };
            if red {
                r
            } else {
                9 - r
            }
        };
        let first = rng.below(9);
        let on_first = 2 + rng.below(4);
        let files = if on_first <= 3 && rng.below(2) == 0 {
            vec![(first, on_first), ((first + 1 + rng.below(8)) % 9, 2)]
        } else {
            vec![(first, on_first)]
        };
        for (file, count) in files {
            let mut placed = 0;
            for _ in 0..40 {
                if placed < count && b.put(file, pawn_rank(rng), case('P')) {
                    placed += 1;
                }
            }
        }
        for kind in ['R', 'N', 'C', 'A', 'B'] {
            let pair = rng.below(3) != 0;
            let file = rng.below(9);
            for _ in 0..2 {
                let f = if pair { file } else { rng.below(9) };
                b.put(f, rng.below(10), case(kind));
            }
        }
    }
    b
}

#[test]
fn tandem_pieces_round_trip_in_built_positions() {
    let mut rng = Rng(0x2031_0002 + scale() as u64);
    let mut seen = BTreeMap::new();
    let mut positions = 0;
    for _ in 0..600 * scale() {
        let b = tandem_board(&mut rng);
        for side in ['w', 'b'] {
            if let Ok(pos) = Position::from_fen(&b.fen(side)) {
                positions += 1;
                round_trip_all(&pos, &mut seen);
            }
        }
    }
    assert!(positions >= 300, "only {positions} valid positions");
    // Every tandem form was written: 前/中/后 and the numbers 一..五.
    for c in ['前', '中', '后', '一', '二', '三', '四', '五'] {
        assert!(seen.get(&c).copied().unwrap_or(0) > 0, "no move written with {c}: {seen:?}");
    }
}

fn chuhe(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_chuhe"));
    cmd.args(args).stdin(std::process::Stdio::piped()).stdout(std::process::Stdio::piped());
    let mut child = cmd.stderr(std::process::Stdio::piped()).spawn().expect("run chuhe");
    let input = child.stdin.take().unwrap();
    if let Some(bytes) = stdin {
        std::io::Write::write_all(&mut { input }, bytes).unwrap();
    }
    child.wait_with_output().unwrap()
}

fn sample(name: &str) -> String {
    format!("{}/samples/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The samples in other notations and encodings, besides their ICCS twin.
const TWINS: [&str; 3] = ["notation-chinese.pgn", "notation-chinese-gbk.pgn", "notation-wxf.pgn"];

fn ok_stdout(out: Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn judge_and_stats_read_every_notation_as_the_iccs_twin() {
    let iccs = sample("notation-iccs.pgn");
    let verdicts = ok_stdout(chuhe(&["judge", "--file", &iccs], None));
    assert!(verdicts.starts_with("game 1 (楚河 红 vs 楚河 黑): 1/2-1/2 {Draw: repetition"), "{verdicts}");
    assert_eq!(verdicts.lines().count(), 2);
    let json = ok_stdout(chuhe(&["judge", "--json", "--file", &iccs], None));
    let stats = ok_stdout(chuhe(&["stats", &iccs], None));
    for twin in TWINS {
        let path = sample(twin);
        assert_eq!(ok_stdout(chuhe(&["judge", "--file", &path], None)), verdicts, "{twin}");
        assert_eq!(ok_stdout(chuhe(&["judge", "--json", "--file", &path], None)), json, "{twin}");
        assert_eq!(ok_stdout(chuhe(&["stats", &path], None)), stats, "{twin}");
        // Without the [Format] tag the notation is detected, from stdin too.
        let bytes = std::fs::read(&path).unwrap();
        let untagged: Vec<u8> = bytes
            .split_inclusive(|&b| b == b'\n')
            .filter(|line| !line.starts_with(b"[Format "))
            .flatten()
            .copied()
            .collect();
        assert_eq!(ok_stdout(chuhe(&["judge", "--file", "-"], Some(&untagged))), verdicts, "{twin} untagged");
    }
    let gbk = std::fs::read(sample("notation-chinese-gbk.pgn")).unwrap();
    assert!(std::str::from_utf8(&gbk).is_err(), "the GBK sample must not be UTF-8");
}

#[test]
fn books_built_from_every_notation_are_the_same() {
    let dir = std::env::temp_dir().join(format!("chuhe-notation-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let build = |pgn: &str| {
        let out = dir.join(format!("{pgn}.book"));
        let out = out.to_str().unwrap();
        ok_stdout(chuhe(&["book", "build", "--pgn", &sample(pgn), "--out", out, "--min-games", "1"], None));
        std::fs::read(out).unwrap()
    };
    let iccs = build("notation-iccs.pgn");
    assert!(iccs.len() > 64);
    for twin in TWINS {
        assert!(build(twin) == iccs, "{twin}");
    }
    // Probing takes every notation too.
    let book = dir.join("notation-iccs.pgn.book");
    let probe =
        |moves: &str| ok_stdout(chuhe(&["book", "probe", "--book", book.to_str().unwrap(), "--moves", moves], None));
    assert_eq!(probe("炮二平五 马８进７"), probe("h2e2 h9g7"));
    assert_eq!(probe("C2=5 H8+7"), probe("h2e2 h9g7"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn judge_takes_moves_in_any_notation() {
    let line = |moves: &str| ok_stdout(chuhe(&["judge", "--moves", moves], None));
    let iccs = line("h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9");
    assert!(iccs.starts_with("1/2-1/2 {Draw: repetition"), "{iccs}");
    assert_eq!(line("马二进三 马８进７ 马三退二 马７退８ 马二进三 马８进７ 马三退二 马７退８"), iccs);
    assert_eq!(line("H2+3 H8+7 H3-2 H7-8 H2+3 H8+7 H3-2 H7-8"), iccs);
    assert_eq!(line("1. 马二进三 H8+7 2. g2h0 马7退8 3. N2+3 h9g7 4. 傌三退二 馬７退８"), iccs);
    let out = chuhe(&["judge", "--moves", "h2e2 车１进４"], None);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "chuhe judge: move 2: '车１进４' is not a legal move for Black here\n"
    );
    let m = Move::parse("h2e2").unwrap();
    assert_eq!(parse_move(&Position::startpos(), "H2-E2"), Ok(m));
}
