//! Text files as the match tools meet them (PGN games, openings): UTF-8 when valid, else GBK,
//! the encoding of many xqbase-era Chinese files. It reads nothing else of the crate.

/// File bytes as text: UTF-8 when they are valid UTF-8, else GBK (GB18030), the encoding
/// of many xqbase-era Chinese game files. A byte-order mark is dropped.
pub fn decode(bytes: &[u8]) -> String {
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => encoding_rs::GBK.decode_without_bom_handling(bytes).0.into_owned(),
    };
    match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    }
}

/// The text of the file at `path` (UTF-8 or GBK, as `decode`); the error names the file.
pub fn read_file(path: &str) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
    Ok(decode(&bytes))
}
