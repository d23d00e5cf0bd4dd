//! Engine options: the specs the dialects advertise (declared once here, each dialect picks
//! its list), one handshake formatter per dialect [`Style`], the current values, and `setoption`
//! validation (out-of-range numbers are clamped with a note, bad values refused).

use super::command::{clip, parse_bool, parse_count};

/// What an option controls (the same setting may have a different name per dialect).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// UCCI: `go` times are milliseconds rather than seconds.
    UseMillisec,
    /// Transposition-table size in MB.
    Hash,
    /// Search threads.
    Threads,
    /// Number of principal variations reported.
    MultiPv,
    /// Tells the GUI it may send `go ponder` (UCI `Ponder`).
    Ponder,
    /// Safety margin per move, ms.
    MoveOverhead,
    /// Button: clear the hash table (and the resign history).
    ClearHash,
}

/// The type of an advertised option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// true/false.
    Check,
    /// Integer in a range.
    Spin {
        /// Smallest value.
        min: u64,
        /// Largest value.
        max: u64,
    },
    /// An action without a value.
    Button,
}

/// One advertised option.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// What it controls.
    pub key: Key,
    /// Its name in the dialect.
    pub name: &'static str,
    /// Its type.
    pub kind: Kind,
    /// Wire value 0 means "engine decides" (UCCI `hashsize 0`, `threads 0`).
    pub zero_is_default: bool,
}

impl Spec {
    /// A true/false option.
    pub const fn check(key: Key, name: &'static str) -> Spec {
        Spec { key, name, kind: Kind::Check, zero_is_default: false }
    }

    /// An integer option in `min..=max`.
    pub const fn spin(key: Key, name: &'static str, min: u64, max: u64) -> Spec {
        Spec { key, name, kind: Kind::Spin { min, max }, zero_is_default: false }
    }

    /// An action without a value.
    pub const fn button(key: Key, name: &'static str) -> Spec {
        Spec { key, name, kind: Kind::Button, zero_is_default: false }
    }

    /// The same spec, reading wire value 0 as the default.
    pub const fn zero_is_default(self) -> Spec {
        Spec { zero_is_default: true, ..self }
    }

    /// The handshake line advertising this option in `style`.
    pub fn advertise(&self, style: Style) -> String {
        let (name, default) = (self.name, Options::default_text(self));
        match (style, self.kind) {
            (Style::Ucci, Kind::Check) => format!("option {name} type check default {default}"),
            (Style::Ucci, Kind::Spin { min, max }) => {
                format!("option {name} type spin min {min} max {max} default {default}")
            }
            (Style::Ucci, Kind::Button) => format!("option {name} type button"),
            (Style::Uci, Kind::Check) => format!("option name {name} type check default {default}"),
            (Style::Uci, Kind::Spin { min, max }) => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            (Style::Uci, Kind::Button) => format!("option name {name} type button"),
            (Style::Cecp, Kind::Check) => format!("feature option=\"{name} -check {}\"", u8::from(default == "true")),
            (Style::Cecp, Kind::Spin { min, max }) => format!("feature option=\"{name} -spin {default} {min} {max}\""),
            (Style::Cecp, Kind::Button) => format!("feature option=\"{name} -button\""),
        }
    }
}

/// A dialect's options: those it advertises in its handshake style, those it accepts without
/// advertising them, and whether a name it does not know is an error.
#[derive(Clone, Copy, Debug)]
pub struct OptionSet {
    /// How the handshake lists them.
    pub style: Style,
    /// Listed in the handshake, in this order.
    pub advertised: &'static [Spec],
    /// Accepted but not listed (CECP's table size and threads, set by `memory`/`cores`).
    pub unlisted: &'static [Spec],
    /// `setoption` of an unknown name is an error (else silently accepted, as UCCI asks).
    pub unknown_is_error: bool,
}

impl OptionSet {
    /// The handshake's option lines.
    pub fn advertise(&self) -> impl Iterator<Item = String> + '_ {
        self.advertised.iter().map(|s| s.advertise(self.style))
    }

    /// The option called `name` (case-insensitive, surrounding spaces ignored).
    pub fn find(&self, name: &str) -> Option<&'static Spec> {
        find(self.advertised, name).or_else(|| find(self.unlisted, name))
    }
}

/// How a dialect advertises its options in the handshake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// `option hashsize type spin min 0 max 4096 default 16`.
    Ucci,
    /// `option name Hash type spin default 16 min 1 max 4096`.
    Uci,
    /// `feature option="MultiPV -spin 1 1 128"`.
    Cecp,
}

/// UCI's and CECP's table size (CECP sets it with `memory`).
pub const HASH: Spec = Spec::spin(Key::Hash, "Hash", 1, MAX_HASH_MB);
/// UCI's and CECP's thread count (CECP sets it with `cores`).
pub const THREADS: Spec = Spec::spin(Key::Threads, "Threads", 1, MAX_THREADS);
/// UCI's and CECP's MultiPV.
pub const MULTIPV: Spec = Spec::spin(Key::MultiPv, "MultiPV", 1, MAX_MULTIPV);
/// UCI's and CECP's move overhead.
pub const MOVE_OVERHEAD: Spec = Spec::spin(Key::MoveOverhead, "Move Overhead", 0, MAX_MOVE_OVERHEAD_MS);
/// UCI's and CECP's new-game button.
pub const CLEAR_HASH: Spec = Spec::button(Key::ClearHash, "Clear Hash");
/// UCI's `Ponder`.
pub const PONDER: Spec = Spec::check(Key::Ponder, "Ponder");

/// Default table size in MB.
pub const DEFAULT_HASH_MB: u64 = 16;
/// Largest table size accepted, MB.
pub const MAX_HASH_MB: u64 = 4096;
/// Largest thread count accepted.
pub const MAX_THREADS: u64 = 64;
/// Largest MultiPV accepted.
pub const MAX_MULTIPV: u64 = 128;
/// Default move overhead, ms.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 30;
/// Largest move overhead accepted, ms.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5000;

/// The current option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// UCCI `usemillisec`.
    pub use_millisec: bool,
    /// Table size, MB.
    pub hash_mb: u64,
    /// Threads.
    pub threads: u64,
    /// MultiPV.
    pub multipv: u64,
    /// Ponder allowed.
    pub may_ponder: bool,
    /// Move overhead, ms.
    pub move_overhead_ms: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            use_millisec: false,
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            multipv: 1,
            may_ponder: false,
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
        }
    }
}

/// What a successful `setoption` changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    /// The setting touched.
    pub key: Key,
    /// A note for the GUI (e.g. the value was clamped).
    pub note: Option<String>,
}

impl Options {
    /// Milliseconds per UCCI time unit (1000 until `usemillisec` is on).
    pub fn ucci_time_unit_ms(&self) -> u64 {
        if self.use_millisec {
            1
        } else {
            1000
        }
    }

    /// The default a spec advertises.
    pub fn default_text(spec: &Spec) -> String {
        Options::default().value_text(spec.key)
    }

    /// The current value as wire text.
    pub fn value_text(&self, key: Key) -> String {
        match key {
            Key::UseMillisec => self.use_millisec.to_string(),
            Key::Hash => self.hash_mb.to_string(),
            Key::Threads => self.threads.to_string(),
            Key::MultiPv => self.multipv.to_string(),
            Key::Ponder => self.may_ponder.to_string(),
            Key::MoveOverhead => self.move_overhead_ms.to_string(),
            Key::ClearHash => String::new(),
        }
    }

    /// Applies `value` to the option `spec`; an error leaves everything unchanged.
    pub fn apply(&mut self, spec: &Spec, value: Option<&str>) -> Result<Applied, String> {
        let name = spec.name;
        let mut note = None;
        match spec.kind {
            Kind::Button => {}
            Kind::Check => {
                let v = value.ok_or_else(|| format!("option '{name}' needs true or false"))?;
                let b =
                    parse_bool(v).ok_or_else(|| format!("option '{name}' needs true or false, got '{}'", clip(v)))?;
                match spec.key {
                    Key::UseMillisec => self.use_millisec = b,
                    Key::Ponder => self.may_ponder = b,
                    _ => {}
                }
            }
            Kind::Spin { min, max } => {
                let v = value.ok_or_else(|| format!("option '{name}' needs a number"))?;
                let n = parse_count(v)
                    .ok_or_else(|| format!("option '{name}' needs an integer in {min}..{max}, got '{}'", clip(v)))?;
                let mut n = if spec.zero_is_default && n == 0 { Options::default().value_of(spec.key) } else { n };
                if n < min || n > max {
                    let c = n.clamp(min, max);
                    note = Some(format!("option '{name}' value {n} out of range {min}..{max}; using {c}"));
                    n = c;
                }
                match spec.key {
                    Key::Hash => self.hash_mb = n,
                    Key::Threads => self.threads = n,
                    Key::MultiPv => self.multipv = n,
                    Key::MoveOverhead => self.move_overhead_ms = n,
                    _ => {}
                }
            }
        }
        Ok(Applied { key: spec.key, note })
    }

    fn value_of(&self, key: Key) -> u64 {
        match key {
            Key::Hash => self.hash_mb,
            Key::Threads => self.threads,
            Key::MultiPv => self.multipv,
            Key::MoveOverhead => self.move_overhead_ms,
            _ => 0,
        }
    }
}

/// Finds the option called `name` (case-insensitive, surrounding spaces ignored).
pub fn find<'a>(specs: &'a [Spec], name: &str) -> Option<&'a Spec> {
    let name = name.trim();
    specs.iter().find(|s| s.name.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    const HASH0: Spec = Spec::spin(Key::Hash, "hashsize", 0, MAX_HASH_MB).zero_is_default();
    const MS: Spec = Spec::check(Key::UseMillisec, "usemillisec");

    #[test]
    fn one_formatter_per_style() {
        assert_eq!(HASH0.advertise(Style::Ucci), "option hashsize type spin min 0 max 4096 default 16");
        assert_eq!(HASH.advertise(Style::Uci), "option name Hash type spin default 16 min 1 max 4096");
        assert_eq!(MULTIPV.advertise(Style::Cecp), "feature option=\"MultiPV -spin 1 1 128\"");
        assert_eq!(MS.advertise(Style::Ucci), "option usemillisec type check default false");
        assert_eq!(PONDER.advertise(Style::Uci), "option name Ponder type check default false");
        assert_eq!(PONDER.advertise(Style::Cecp), "feature option=\"Ponder -check 0\"");
        assert_eq!(CLEAR_HASH.advertise(Style::Cecp), "feature option=\"Clear Hash -button\"");
        assert_eq!(CLEAR_HASH.advertise(Style::Uci), "option name Clear Hash type button");
    }

    #[test]
    fn spin_clamps_and_refuses() {
        let mut o = Options::default();
        assert_eq!(o.apply(&HASH, Some("64")).unwrap().note, None);
        assert_eq!(o.hash_mb, 64);
        let a = o.apply(&HASH, Some("999999999999")).unwrap();
        assert!(a.note.unwrap().contains("out of range"));
        assert_eq!(o.hash_mb, MAX_HASH_MB);
        assert!(o.apply(&HASH, Some("0")).unwrap().note.is_some());
        assert_eq!(o.hash_mb, 1);
        assert_eq!(
            o.apply(&HASH, Some("big")).unwrap_err().to_string(),
            "option 'Hash' needs an integer in 1..4096, got 'big'"
        );
        assert_eq!(
            o.apply(&HASH, Some("-5")).unwrap_err().to_string(),
            "option 'Hash' needs an integer in 1..4096, got '-5'"
        );
        assert_eq!(o.apply(&HASH, None).unwrap_err().to_string(), "option 'Hash' needs a number");
        assert_eq!(o.hash_mb, 1);
        o.apply(&HASH0, Some("0")).unwrap();
        assert_eq!(o.hash_mb, DEFAULT_HASH_MB);
    }

    #[test]
    fn check_values() {
        let mut o = Options::default();
        assert_eq!(o.ucci_time_unit_ms(), 1000);
        o.apply(&MS, Some("TRUE")).unwrap();
        assert_eq!(o.ucci_time_unit_ms(), 1);
        assert_eq!(
            o.apply(&MS, Some("maybe")).unwrap_err().to_string(),
            "option 'usemillisec' needs true or false, got 'maybe'"
        );
        assert!(o.use_millisec);
        assert_eq!(find(&[HASH, MS], " HASH ").map(|s| s.key), Some(Key::Hash));
        assert!(find(&[HASH, MS], "nothing").is_none());
    }
}
