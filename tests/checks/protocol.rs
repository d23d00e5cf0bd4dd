//! Protocol checks shared by the fuzz targets and the regression replay: the typed command
//! parsers of both dialects on arbitrary lines, and a whole in-process session fed arbitrary
//! bytes.

use chuhe::protocol::options::Options;
use chuhe::protocol::{self, ucci::Ucci, uci::Uci, Dialect, Output};
use std::io::Write;
use std::sync::{Arc, Mutex};

/// The lines the protocol reader makes of `data`: split at `\n`, `\r\n` trimmed, lossy UTF-8.
pub fn lines_of(data: &[u8]) -> Vec<String> {
    let mut v: Vec<String> = data
        .split(|&b| b == b'\n')
        .map(|l| String::from_utf8_lossy(l).trim_end_matches(['\n', '\r']).to_string())
        .collect();
    if data.ends_with(b"\n") || data.is_empty() {
        v.pop();
    }
    v
}

/// Fuzz entry: every line of `data` through both dialects' parsers, with the default options
/// and with UCCI `usemillisec` on. Must never panic; an error is one short line.
pub fn check_command_bytes(data: &[u8]) {
    let plain = Options::default();
    let millis = Options { use_millisec: true, ..Options::default() };
    let uci = Uci::default();
    let dialects: [&dyn Dialect; 2] = [&Ucci, &uci];
    for line in lines_of(data).iter().take(64) {
        for d in dialects {
            for opts in [&plain, &millis] {
                if let Err(e) = d.parse(line, opts) {
                    assert!(!e.contains(['\n', '\r']), "error for {line:?} spans lines: {e:?}");
                    assert!(e.chars().count() <= 400, "error for {line:?} is {} chars long", e.len());
                }
            }
        }
    }
}

/// A `Write` that keeps what the session printed.
#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<u8>>>);

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Whether the session harness drops this line: commands that are slow or big *by request*
/// (`perft` runs on the loop thread for up to a minute; tables above 64 MB are filled page by
/// page; in UCCI batch mode a deep `go depth` runs to its end, end of input waiting behind it),
/// which would only measure the fuzzer's patience. Everything else goes through.
pub fn session_skips(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    lower.contains("perft")
        || lower.contains("batch")
        || (lower.contains("hash") && lower.split(|c: char| !c.is_ascii_digit()).any(|n| n.len() > 2))
}

/// Fuzz entry: `data` as a protocol session's whole input, run in process until end of input.
/// Must never panic or hang, and must answer every `isready` sent after the handshake (and
/// before any `quit`) with `readyok`.
pub fn check_session_bytes(data: &[u8]) {
    let lines: Vec<String> = lines_of(data).into_iter().filter(|l| !session_skips(l)).take(200).collect();
    let mut text = lines.join("\n").into_bytes();
    text.push(b'\n');
    let out = Capture::default();
    protocol::run(std::io::Cursor::new(text), Output::new(out.clone()));

    // What the session must have answered.
    let first = |l: &String| l.split_whitespace().next().map(str::to_string);
    let opener = lines.iter().position(|l| matches!(first(l).as_deref(), Some("ucci" | "uci" | "quit")));
    let Some(start) = opener.filter(|&i| first(&lines[i]).as_deref() != Some("quit")) else { return };
    let asked = lines[start + 1..]
        .iter()
        .take_while(|l| first(l).as_deref() != Some("quit"))
        .filter(|l| l.split_whitespace().eq(["isready"]))
        .count();
    let printed = out.0.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let printed = String::from_utf8(printed).expect("the engine prints UTF-8");
    let answered = printed.lines().filter(|l| *l == "readyok").count();
    assert!(answered >= asked, "{asked} isready but {answered} readyok; output:\n{printed}");
}
