//! `chuhe datagen --stats`: what a set of data files holds (counts, results, endings, score
//! histogram, game length, bytes per position, and how well the scores predict the results).

use super::format::{End, Record, FLAG_BLACK_TO_MOVE, FLAG_GAME_START, FLAG_NOT_QUIET};
use super::manifest::{self, Measured};
use super::reader::Reader;
use crate::rules::GameResult;
use std::fmt::Write;

/// Upper bounds (exclusive) of the score histogram's buckets; the last bucket is open.
pub const SCORE_BUCKETS: [i32; 10] = [-1000, -500, -250, -100, -25, 25, 100, 250, 500, 1000];

/// Totals over the records of one or more files.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Files read.
    pub files: u64,
    /// Headers read.
    pub headers: u64,
    /// Each file read, with its games, positions, bytes and CRC-32 (a manifest line's fields).
    pub parts: Vec<(String, Measured)>,
    /// Bytes read.
    pub bytes: u64,
    /// Records read.
    pub records: u64,
    /// Records by result: Red wins, draw, Black wins.
    pub results: [u64; 3],
    /// Records kept only by `--keep all`.
    pub not_quiet: u64,
    /// Games (records flagged as the first of their game).
    pub games: u64,
    /// Games by result: Red wins, draw, Black wins.
    pub game_results: [u64; 3],
    /// Games by ending, indexed by `End` code.
    pub endings: [u64; End::ALL.len()],
    /// Sum of the games' lengths in plies.
    pub game_plies: u64,
    /// Records per score bucket (`SCORE_BUCKETS`).
    pub histogram: [u64; SCORE_BUCKETS.len() + 1],
    /// Quiet records by score (`CALIBRATION_STEP`-cp bins over ±`CALIBRATION_RANGE`, the
    /// ends open), each the side to move's losses, draws and wins: what the trainers fit `K`
    /// to.
    pub by_score: Vec<[u64; 3]>,
}

/// Width in centipawns of the calibration bins.
pub const CALIBRATION_STEP: i32 = 10;
/// Scores beyond ±this many centipawns share the outermost calibration bins.
pub const CALIBRATION_RANGE: i32 = 2000;

/// The calibration bin of a score.
fn score_bin(score: i32) -> usize {
    ((score.clamp(-CALIBRATION_RANGE, CALIBRATION_RANGE) + CALIBRATION_RANGE) / CALIBRATION_STEP) as usize
}

/// The centre of calibration bin `i`, in centipawns.
pub fn bin_score(i: usize) -> i32 {
    i as i32 * CALIBRATION_STEP - CALIBRATION_RANGE
}

/// Index 0 Red wins, 1 draw, 2 Black wins.
fn result_index(r: GameResult) -> usize {
    match r {
        GameResult::RedWins => 0,
        GameResult::Draw => 1,
        GameResult::BlackWins => 2,
    }
}

impl Stats {
    /// Counts one record.
    pub fn add(&mut self, r: &Record) {
        self.records += 1;
        self.results[result_index(r.result)] += 1;
        self.not_quiet += (r.flags & FLAG_NOT_QUIET != 0) as u64;
        let bucket = SCORE_BUCKETS.iter().position(|&b| (r.score as i32) < b).unwrap_or(SCORE_BUCKETS.len());
        self.histogram[bucket] += 1;
        if r.flags & FLAG_NOT_QUIET == 0 {
            if self.by_score.is_empty() {
                self.by_score = vec![[0; 3]; score_bin(CALIBRATION_RANGE) + 1];
            }
            // The side to move's result: 0 loss, 1 draw, 2 win.
            let red = 2 - result_index(r.result);
            let own = if r.flags & FLAG_BLACK_TO_MOVE != 0 { 2 - red } else { red };
            self.by_score[score_bin(r.score as i32)][own] += 1;
        }
        if r.flags & FLAG_GAME_START != 0 {
            self.games += 1;
            self.game_results[result_index(r.result)] += 1;
            self.endings[r.end as usize] += 1;
            self.game_plies += r.game_plies as u64;
        }
    }

    /// The report `--stats` prints.
    pub fn report(&self) -> String {
        let pct = |n: u64, of: u64| 100.0 * n as f64 / of.max(1) as f64;
        let split = |v: &[u64; 3], of: u64| {
            format!(
                "Red wins {} ({:.1}%), draws {} ({:.1}%), Black wins {} ({:.1}%)",
                v[0],
                pct(v[0], of),
                v[1],
                pct(v[1], of),
                v[2],
                pct(v[2], of)
            )
        };
        let mut out = String::new();
        let per = self.bytes as f64 / self.records.max(1) as f64;
        let _ = writeln!(out, "files {}  headers {}  bytes {}", self.files, self.headers, self.bytes);
        let _ = writeln!(out, "positions {}  bytes/position {per:.2}", self.records);
        for (path, m) in &self.parts {
            let _ = writeln!(
                out,
                "  part {path}: games {} positions {} bytes {} crc32 {:08x}",
                m.games, m.positions, m.bytes, m.crc32
            );
        }
        let _ = writeln!(out, "positions by result: {}", split(&self.results, self.records));
        let _ = writeln!(
            out,
            "not quiet (kept by --keep all) {} ({:.1}%)",
            self.not_quiet,
            pct(self.not_quiet, self.records)
        );
        let avg = self.game_plies as f64 / self.games.max(1) as f64;
        let per_game = self.records as f64 / self.games.max(1) as f64;
        let _ = writeln!(out, "games {}  average length {avg:.1} plies  positions/game {per_game:.1}", self.games);
        let _ = writeln!(out, "games by result: {}", split(&self.game_results, self.games));
        let endings: Vec<String> = End::ALL
            .iter()
            .filter(|e| self.endings[**e as usize] > 0)
            .map(|e| format!("{} {}", e.name(), self.endings[*e as usize]))
            .collect();
        let _ = writeln!(out, "game endings: {}", if endings.is_empty() { "-".into() } else { endings.join(", ") });
        let _ = writeln!(out, "score histogram (centipawns, side to move):");
        let widest = self.histogram.iter().copied().max().unwrap_or(0).max(1);
        for (i, &n) in self.histogram.iter().enumerate() {
            let label = match i {
                0 => format!("< {}", SCORE_BUCKETS[0]),
                i if i == SCORE_BUCKETS.len() => format!(">= {}", SCORE_BUCKETS[i - 1]),
                i => format!("{} .. {}", SCORE_BUCKETS[i - 1], SCORE_BUCKETS[i] - 1),
            };
            let bar = "#".repeat((40 * n).div_ceil(widest) as usize);
            let _ = writeln!(out, "  {label:>13} {n:>10} {:>5.1}% {bar}", pct(n, self.records));
        }
        out
    }
}

impl Stats {
    /// Reads every record of the files at `paths` (a directory: the parts its manifest lists,
    /// in order), holding each file against its manifest line when a manifest is beside it;
    /// an error names the file. Each file's games, positions, bytes and CRC-32 go to `parts`.
    pub fn of_files(paths: &[String]) -> Result<Stats, String> {
        let mut stats = Stats::default();
        for path in manifest::files_of(paths)? {
            let file = std::fs::File::open(&path).map_err(|e| format!("{path}: {e}"))?;
            let mut reader = Reader::new(CrcRead { inner: std::io::BufReader::new(file), crc: 0 });
            let before = (stats.games, stats.records);
            while let Some(record) = reader.next_ref() {
                stats.add(record.map_err(|e| format!("{path}: {e}"))?);
            }
            let measured = Measured {
                games: stats.games - before.0,
                positions: stats.records - before.1,
                bytes: reader.offset(),
                crc32: reader.input().crc,
            };
            manifest::check(std::path::Path::new(&path), &measured)?;
            stats.files += 1;
            stats.headers += reader.headers().len() as u64;
            stats.bytes += reader.offset();
            stats.parts.push((path, measured));
        }
        Ok(stats)
    }
}

/// A reader that keeps the CRC-32 of the bytes through it.
struct CrcRead<R> {
    inner: R,
    crc: u32,
}

impl<R: std::io::Read> std::io::Read for CrcRead<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.crc = super::chain::crc32(self.crc, &buf[..n]);
        Ok(n)
    }
}
