//! The words of one command line (`Words`) and what a word may be: a count, a time, a
//! boolean; `clip` shortens a word for an error message. Shared by the dialects' parsers and
//! the option values; it reads nothing else of the protocol.

/// Largest time accepted on the wire, in ms (about 31 years); larger values are clamped.
pub const MAX_TIME_MS: u64 = 1_000_000_000_000;

/// A cursor over the words of one command line.
pub struct Words<'a> {
    line: &'a str,
    words: Vec<&'a str>,
    at: usize,
}

impl<'a> Words<'a> {
    /// Splits `line` on whitespace.
    pub fn new(line: &'a str) -> Words<'a> {
        Words { line, words: line.split_whitespace().collect(), at: 0 }
    }

    /// A line's first word (`None`: a blank line) and the words after it.
    pub fn command(line: &'a str) -> (Option<&'a str>, Words<'a>) {
        let mut w = Words::new(line);
        (w.next_word(), w)
    }

    /// The next word, consumed.
    pub fn next_word(&mut self) -> Option<&'a str> {
        let w = self.words.get(self.at).copied();
        self.at += usize::from(w.is_some());
        w
    }

    /// The next word, not consumed.
    pub fn peek(&self) -> Option<&'a str> {
        self.words.get(self.at).copied()
    }

    /// Everything not yet consumed, as the line has it (inner spaces kept, so a path such as
    /// `My  Nets/x.nnue` survives), without leading or trailing whitespace.
    pub fn rest(&mut self) -> String {
        let (Some(first), Some(last)) = (self.words.get(self.at), self.words.last()) else { return String::new() };
        // Each word is a slice of `line`, so its offset is its address minus the line's.
        let offset = |w: &str| w.as_ptr() as usize - self.line.as_ptr() as usize;
        let r = self.line[offset(first)..offset(last) + last.len()].to_string();
        self.at = self.words.len();
        r
    }

    /// The value after keyword `key`: a non-negative integer (values too large saturate).
    pub fn count(&mut self, key: &str) -> Result<u64, String> {
        let w = self.next_word().ok_or_else(|| format!("'{key}' needs a number"))?;
        parse_count(w).ok_or_else(|| format!("'{key}' needs a non-negative integer, got '{}'", clip(w)))
    }

    /// The value after keyword `key`: a time in units of `unit_ms` milliseconds, fractions
    /// allowed; negative times become 0 and huge ones `MAX_TIME_MS`.
    pub fn time(&mut self, key: &str, unit_ms: u64) -> Result<u64, String> {
        let w = self.next_word().ok_or_else(|| format!("'{key}' needs a time"))?;
        parse_time(w, unit_ms).ok_or_else(|| format!("'{key}' needs a number, got '{}'", clip(w)))
    }
}

/// A count narrowed to `u32` (saturating).
pub fn small(v: u64) -> u32 {
    v.min(u32::MAX as u64) as u32
}

/// At most 24 characters of a word, for error messages.
pub fn clip(w: &str) -> String {
    let mut s: String = w.chars().take(24).collect();
    if w.chars().count() > 24 {
        s.push('…');
    }
    s
}

/// A non-negative integer; digits only; values beyond `u64` saturate.
pub fn parse_count(w: &str) -> Option<u64> {
    let digits = w.strip_prefix('+').unwrap_or(w);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(digits.parse::<u64>().unwrap_or(u64::MAX))
}

/// A time `w × unit_ms` in ms, clamped to `0..=MAX_TIME_MS`; `None` if `w` is not a number.
pub fn parse_time(w: &str, unit_ms: u64) -> Option<u64> {
    let ok = !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b));
    let v: f64 = if ok { w.parse().ok()? } else { return None };
    if !v.is_finite() {
        return None;
    }
    let ms = v * unit_ms as f64;
    Some(if ms <= 0.0 {
        0
    } else if ms >= MAX_TIME_MS as f64 {
        MAX_TIME_MS
    } else {
        ms.round() as u64
    })
}

/// Parses a boolean option value: `true/false`, `on/off`, `yes/no`, `1/0`.
pub fn parse_bool(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "on" | "yes" | "1" => Some(true),
        "false" | "off" | "no" | "0" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(parse_count("12"), Some(12));
        assert_eq!(parse_count("99999999999999999999999"), Some(u64::MAX));
        assert_eq!(parse_count("-3"), None);
        assert_eq!(parse_count("x"), None);
        assert_eq!(parse_count(""), None);
    }

    #[test]
    fn times() {
        assert_eq!(parse_time("60", 1000), Some(60_000));
        assert_eq!(parse_time("1.5", 1000), Some(1500));
        assert_eq!(parse_time("-20", 1), Some(0));
        assert_eq!(parse_time("1e30", 1), Some(MAX_TIME_MS));
        assert_eq!(parse_time("abc", 1), None);
        assert_eq!(parse_time("inf", 1), None);
        assert_eq!(parse_time("nan", 1), None);
    }

    #[test]
    fn rest_keeps_the_line_as_sent() {
        let mut w = Words::new("setoption name EvalFile value  /tmp/My  Nets/a b.nnue  ");
        for _ in 0..4 {
            w.next_word();
        }
        assert_eq!(w.rest(), "/tmp/My  Nets/a b.nnue");
        assert_eq!(w.rest(), "");
        assert_eq!(Words::new("").rest(), "");
    }
}
