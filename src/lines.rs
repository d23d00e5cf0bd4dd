//! Lines from another process (the GUI on our stdin, an engine on its stdout) as a channel:
//! a reader thread blocks on the pipe so the caller never does, and every wait can have a
//! deadline. Used by the protocol loop and the match runner alike.

use std::io::BufRead;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::time::Instant;

/// What the reader thread delivers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A line without its `\n` / `\r\n`; bytes that are not UTF-8 are replaced.
    Line(String),
    /// The input was closed (or could not be read).
    Eof,
}

/// Starts a thread reading lines from `input` into a channel; it ends after sending
/// [`Input::Eof`], or when the receiver is gone.
pub fn spawn_reader(input: impl BufRead + Send + 'static) -> Receiver<Input> {
    let (tx, rx) = channel();
    read_into(input, tx, |input| input);
    rx
}

/// Starts the reader thread of [`spawn_reader`] on a channel other senders share (the
/// protocol loop's), each input wrapped by `wrap`.
pub fn read_into<T: Send + 'static>(mut input: impl BufRead + Send + 'static, tx: Sender<T>, wrap: fn(Input) -> T) {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        loop {
            buf.clear();
            let line = match input.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => Input::Eof,
                Ok(_) => Input::Line(String::from_utf8_lossy(&buf).trim_end_matches(['\n', '\r']).to_string()),
            };
            let eof = line == Input::Eof;
            if tx.send(wrap(line)).is_err() || eof {
                return;
            }
        }
    });
}

/// The next input, waiting until `deadline` at most (`None`: no limit). `None` when the
/// deadline passed first; a reader that is gone counts as [`Input::Eof`].
pub fn recv_until(rx: &Receiver<Input>, deadline: Option<Instant>) -> Option<Input> {
    let Some(deadline) = deadline else { return Some(rx.recv().unwrap_or(Input::Eof)) };
    match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        Ok(input) => Some(input),
        Err(RecvTimeoutError::Timeout) => None,
        Err(RecvTimeoutError::Disconnected) => Some(Input::Eof),
    }
}

/// The lines of a text file that carry content, with their 1-based numbers: trimmed, blank
/// lines and `#` comments skipped (openings, judge records, perft suites).
pub fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .map(str::trim)
        .enumerate()
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .map(|(i, l)| (i + 1, l))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn lines_lose_their_endings_then_eof() {
        let rx = spawn_reader(std::io::Cursor::new(b"a\r\nb \n\xffc".to_vec()));
        let got: Vec<Input> = std::iter::from_fn(|| recv_until(&rx, None)).take(5).collect();
        let line = |s: &str| Input::Line(s.to_string());
        assert_eq!(got, [line("a"), line("b "), line("\u{fffd}c"), Input::Eof, Input::Eof]);
        let numbered: Vec<(usize, &str)> = content_lines("# c\n\n a \nb").collect();
        assert_eq!(numbered, [(3, "a"), (4, "b")]);
        let (_tx, idle) = channel::<Input>();
        assert_eq!(recv_until(&idle, Some(Instant::now() + Duration::from_millis(5))), None);
    }
}
