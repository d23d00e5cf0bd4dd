//! The manifest of a directory of committed data parts (`data/manifest.tsv`): one line a part
//! saying where it came from (the binary's commit and bench signature, the net, seed, nodes,
//! openings) and what it holds (games, positions, bytes, CRC-32 of the file), which
//! `chuhe datagen --stats` checks against the file. Parts are appended, never rewritten.

use std::path::{Path, PathBuf};

/// The manifest's file name inside its directory.
pub const FILE: &str = "manifest.tsv";

/// The columns, in order (the manifest's first line names them).
pub const COLUMNS: [&str; 11] =
    ["part", "commit", "bench", "net", "seed", "nodes", "openings", "games", "positions", "bytes", "crc32"];

/// One part's line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// File name inside the manifest's directory.
    pub name: String,
    /// Provenance columns (commit, bench, net, seed, nodes, openings), as written.
    pub provenance: Vec<String>,
    /// Games (records marked as a game's first).
    pub games: u64,
    /// Positions (records).
    pub positions: u64,
    /// File length.
    pub bytes: u64,
    /// CRC-32 of the file's bytes.
    pub crc32: u32,
}

/// What reading a file measured, to hold against its line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Measured {
    /// Games (records marked as a game's first).
    pub games: u64,
    /// Positions (records).
    pub positions: u64,
    /// Bytes.
    pub bytes: u64,
    /// CRC-32 of the bytes.
    pub crc32: u32,
}

/// The manifest beside `file` (in its directory), if there is one.
pub fn beside(file: &Path) -> Option<PathBuf> {
    let dir = file.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let manifest = dir.join(FILE);
    manifest.is_file().then_some(manifest)
}

/// Reads a manifest: its parts in order. An error names the line.
pub fn load(path: &Path) -> Result<Vec<Part>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    let mut parts: Vec<Part> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = || format!("{} line {}", path.display(), i + 1);
        let cols: Vec<&str> = line.split('\t').collect();
        if cols == COLUMNS {
            continue;
        }
        if cols.len() != COLUMNS.len() {
            return Err(format!("{}: {} columns, a part has {}", at(), cols.len(), COLUMNS.len()));
        }
        let number = |k: usize| {
            cols[k].parse::<u64>().map_err(|_| format!("{}: {} '{}' is not a number", at(), COLUMNS[k], cols[k]))
        };
        let crc32 = u32::from_str_radix(cols[10], 16)
            .map_err(|_| format!("{}: crc32 '{}' is not 8 hex digits", at(), cols[10]))?;
        let name = cols[0].to_string();
        if name.contains('/') || parts.iter().any(|p| p.name == name) {
            return Err(format!("{}: part '{name}' is not a plain file name or is listed twice", at()));
        }
        parts.push(Part {
            name,
            provenance: cols[1..7].iter().map(|c| c.to_string()).collect(),
            games: number(7)?,
            positions: number(8)?,
            bytes: number(9)?,
            crc32,
        });
    }
    Ok(parts)
}

/// The line of a part, to append to the manifest.
pub fn line(name: &str, provenance: &[String], m: &Measured) -> String {
    format!("{name}\t{}\t{}\t{}\t{}\t{:08x}", provenance.join("\t"), m.games, m.positions, m.bytes, m.crc32)
}

/// Holds `file`'s measurements against its manifest line: an error naming the field when they
/// differ, or when the manifest beside it does not list it.
pub fn check(file: &Path, m: &Measured) -> Result<(), String> {
    let Some(manifest) = beside(file) else { return Ok(()) };
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let parts = load(&manifest)?;
    let part = parts
        .iter()
        .find(|p| p.name == name)
        .ok_or_else(|| format!("'{name}' is not listed in '{}'", manifest.display()))?;
    for (what, listed, read) in [
        ("games", part.games, m.games),
        ("positions", part.positions, m.positions),
        ("bytes", part.bytes, m.bytes),
        ("crc32", part.crc32 as u64, m.crc32 as u64),
    ] {
        if listed != read {
            return Err(format!("'{}': {what} {read}, its manifest line says {listed}", file.display()));
        }
    }
    Ok(())
}

/// The parts a directory's manifest lists, as paths in manifest order.
pub fn parts_of(dir: &Path) -> Result<Vec<String>, String> {
    let manifest = dir.join(FILE);
    if !manifest.is_file() {
        return Err(format!("'{}' is a directory without a {FILE}", dir.display()));
    }
    let parts = load(&manifest)?;
    let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot list '{}': {e}", dir.display()))?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".bin") && !parts.iter().any(|p| p.name == name) {
            return Err(format!("'{}' is not listed in '{}'", dir.join(&name).display(), manifest.display()));
        }
    }
    Ok(parts.iter().map(|p| dir.join(&p.name).to_string_lossy().into_owned()).collect())
}

/// The files of `paths`, a directory replaced by the parts its manifest lists, in order.
pub fn files_of(paths: &[String]) -> Result<Vec<String>, String> {
    let mut files = Vec::new();
    for path in paths {
        if Path::new(path).is_dir() {
            files.extend(parts_of(Path::new(path))?);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_round_trips_and_bad_lines_are_named() {
        let dir = std::env::temp_dir().join(format!("chuhe-manifest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let m = Measured { games: 3, positions: 400, bytes: 800, crc32: 0xdead_beef };
        let prov: Vec<String> = ["abc1234", "1296625", "net8", "7", "8000", "balanced"].map(String::from).to_vec();
        let text = format!("# parts\n{}\n{}\n", COLUMNS.join("\t"), line("a.bin", &prov, &m));
        std::fs::write(dir.join(FILE), &text).unwrap();
        let parts = load(&dir.join(FILE)).unwrap();
        assert_eq!((parts[0].name.as_str(), parts[0].positions, parts[0].crc32), ("a.bin", 400, 0xdead_beef));
        assert_eq!(check(&dir.join("a.bin"), &m), Ok(()));
        let err = check(&dir.join("a.bin"), &Measured { positions: 399, ..m }).unwrap_err();
        assert!(err.contains("positions 399, its manifest line says 400"), "{err}");
        assert!(check(&dir.join("b.bin"), &m).unwrap_err().contains("not listed"));
        std::fs::write(dir.join(FILE), format!("{text}a.bin\t1\t2\n")).unwrap();
        assert!(load(&dir.join(FILE)).unwrap_err().contains("line 4: 3 columns"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
