//! Resuming an interrupted `chuhe datagen` run. Beside `OUT` the run keeps `OUT.resume`, a
//! few lines saying how many games (and records) of `OUT` are whole, rewritten (by rename)
//! after every game and removed when the run ends. Started again with the same settings, the
//! run cuts `OUT` back to those games and plays on from the next: games are played from their
//! own seeds and written in game order, so the finished file has the same bytes as a run that
//! was never stopped.

use super::{header, Config};
use crate::board::zobrist::digest;
use crate::eval::Evaluator;
use std::path::{Path, PathBuf};

/// Where an interrupted run stood: its whole games and the records they hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checkpoint {
    /// Games whole in the file.
    pub games: u64,
    /// Records those games hold.
    pub records: u64,
    /// The file's length with exactly these games in it.
    pub bytes: u64,
}

/// The first line of a resume file.
const MAGIC: &str = "chuhe datagen resume 2";

/// The resume file of the data file `out`.
pub fn path_of(out: &str) -> PathBuf {
    PathBuf::from(format!("{out}.resume"))
}

/// A digest of every setting that decides the bytes (not the thread count): a run resumes
/// only the run it would have been.
pub fn fingerprint(cfg: &Config) -> u64 {
    let evaluator = match &cfg.evaluator {
        Evaluator::Hand => 0,
        Evaluator::Network(net) => net.checksum(),
    };
    let openings: String = cfg.openings.iter().map(|o| format!("{} {:?};", o.start.to_fen(), o.moves)).collect();
    let text = format!(
        "{:?} {:?} {} {} {:?} {} {}",
        header(cfg).encode(),
        cfg.budget,
        cfg.max_start_score,
        cfg.hash_mb,
        cfg.adjudication,
        evaluator,
        openings
    );
    digest(0x6368_7568_6500_0001, &text)
}

/// Writes `at` for the run `fingerprint` beside its data file (a temporary file renamed over
/// the old one, so a kill leaves the old or the new, never half of one).
pub fn save(path: &Path, fingerprint: u64, at: Checkpoint) -> std::io::Result<()> {
    let tmp = path.with_extension("resume.tmp");
    let text = format!(
        "{MAGIC}\nsettings {fingerprint:016x}\ngames {}\nrecords {}\nbytes {}\n",
        at.games, at.records, at.bytes
    );
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}

/// Reads a resume file: `Ok(None)` when there is none; an error naming the file when it is
/// not one or belongs to a run with other settings.
pub fn load(path: &Path, fingerprint: u64) -> Result<Option<Checkpoint>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read '{}': {e}", path.display())),
    };
    let bad = || format!("'{}' is not a datagen resume file (delete it to start the run afresh)", path.display());
    let mut lines = text.lines();
    if lines.next() != Some(MAGIC) {
        return Err(bad());
    }
    let mut field = |name: &str, hex: bool| {
        let value = lines.next().and_then(|l| l.strip_prefix(name)).and_then(|v| v.strip_prefix(' '));
        value.and_then(|v| u64::from_str_radix(v, if hex { 16 } else { 10 }).ok()).ok_or_else(bad)
    };
    let settings = field("settings", true)?;
    let at =
        Checkpoint { games: field("games", false)?, records: field("records", false)?, bytes: field("bytes", false)? };
    if settings != fingerprint {
        return Err(format!(
            "'{}' holds an unfinished run with other settings: run it with the same flags to finish it, \
             or delete it and the data file to start afresh",
            path.display()
        ));
    }
    Ok(Some(at))
}

/// Opens `out` for the run: a new file (a run from the start), or, after a resume file,
/// the old one cut back to its whole games, positioned at the end. An error when the data
/// file is shorter than the resume file says (then it is not that run's file).
pub fn open(out: &str, at: Option<Checkpoint>) -> Result<std::fs::File, String> {
    let Some(at) = at else {
        return std::fs::File::create(out).map_err(|e| format!("cannot create '{out}': {e}"));
    };
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(out)
        .map_err(|e| format!("cannot open '{out}' to resume it: {e}"))?;
    let len = file.metadata().map_err(|e| format!("'{out}': {e}"))?.len();
    if len < at.bytes {
        return Err(format!(
            "'{out}' has {len} bytes but its resume file counts {} games in {} bytes: not the same run \
             (delete '{out}.resume' to start afresh)",
            at.games, at.bytes
        ));
    }
    file.set_len(at.bytes).map_err(|e| format!("cannot cut '{out}' back to byte {}: {e}", at.bytes))?;
    let mut file = file;
    std::io::Seek::seek(&mut file, std::io::SeekFrom::End(0)).map_err(|e| format!("'{out}': {e}"))?;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resume_file_round_trips_and_refuses_other_settings() {
        let dir = std::env::temp_dir().join(format!("chuhe-resume-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("d.bin.resume");
        let at = Checkpoint { games: 7, records: 901, bytes: 2345 };
        save(&path, 42, at).unwrap();
        assert_eq!(load(&path, 42), Ok(Some(at)));
        assert!(load(&path, 43).unwrap_err().contains("other settings"));
        std::fs::write(&path, "junk\n").unwrap();
        assert!(load(&path, 42).unwrap_err().contains("not a datagen resume file"));
        std::fs::remove_file(&path).unwrap();
        assert_eq!(load(&path, 42), Ok(None));
    }

    #[test]
    fn the_fingerprint_follows_the_settings_but_not_the_threads() {
        let cfg = Config { evaluator: Evaluator::Hand, ..Config::default() };
        let f = fingerprint(&cfg);
        assert_eq!(fingerprint(&Config { threads: 7, ..cfg.clone() }), f);
        assert_ne!(fingerprint(&Config { seed: cfg.seed + 1, ..cfg.clone() }), f);
        assert_ne!(fingerprint(&Config { hash_mb: cfg.hash_mb + 1, ..cfg.clone() }), f);
        assert_ne!(fingerprint(&Config { max_start_score: 1, ..cfg.clone() }), f);
    }
}
