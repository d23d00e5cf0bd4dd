//! Writes the notation samples from their ICCS twin: `cargo run --example notation_samples`
//! reads `samples/notation-iccs.pgn` and writes `samples/notation-wxf.pgn`,
//! `samples/notation-chinese.pgn` (UTF-8) and `samples/notation-chinese-gbk.pgn` (GBK), the
//! same games with the same tags and comments-free move text in each notation.

use chuhe::matches::pgn::{move_text, read_games};
use chuhe::matches::text::decode;
use chuhe::notation::Notation;

/// The games of `iccs` as PGN in `notation`.
fn rewrite(iccs: &str, notation: Notation) -> Result<String, String> {
    let mut out = String::new();
    for (i, g) in read_games(iccs).iter().enumerate() {
        let (start, moves) = g.start_and_moves().map_err(|e| format!("game {}: {e}", i + 1))?;
        for (name, value) in &g.tags {
            let value = if name == "Format" { notation.name() } else { value };
            out += &format!("[{name} \"{}\"]\n", value.replace('\\', "\\\\").replace('"', "\\\""));
        }
        let result = g.result.map_or("*".to_string(), |r| r.to_string());
        out += &format!("\n{} {result}\n\n", move_text(&start, &moves, notation));
    }
    Ok(out)
}

fn main() -> Result<(), String> {
    let bytes = std::fs::read("samples/notation-iccs.pgn").map_err(|e| format!("samples/notation-iccs.pgn: {e}"))?;
    let iccs = decode(&bytes);
    let write = |path: &str, bytes: &[u8]| std::fs::write(path, bytes).map_err(|e| format!("{path}: {e}"));
    write("samples/notation-wxf.pgn", rewrite(&iccs, Notation::Wxf)?.as_bytes())?;
    let chinese = rewrite(&iccs, Notation::Chinese)?;
    write("samples/notation-chinese.pgn", chinese.as_bytes())?;
    let (gbk, _, lossy) = encoding_rs::GBK.encode(&chinese);
    if lossy {
        return Err("the Chinese sample has a character GBK cannot encode".to_string());
    }
    write("samples/notation-chinese-gbk.pgn", &gbk)?;
    println!("wrote samples/notation-{{wxf,chinese,chinese-gbk}}.pgn");
    Ok(())
}
