//! What an option is, before any value: the setting it controls ([`Key`]), its type
//! ([`Kind`]) and its advertised form ([`Spec`]), with the defaults and limits of the values.
//! `values.rs` and the handshake formatter in `mod.rs` both read it; it reads neither.

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
    /// UCCI `batch`: input waits while the engine thinks.
    Batch,
    /// UCCI `debug`: more `info` output.
    Debug,
    /// UCCI `usehash` (stored; the search always uses its table).
    UseHash,
    /// UCCI `usebook`: play from the book (default on, as UCCI 3.0 says).
    UseBook,
    /// UCI and CECP `OwnBook`: play from the book (default off, as UCI has it).
    OwnBook,
    /// UCCI `bookfiles` (`;`-separated), UCI and CECP `BookFile`: the book files, read when set.
    BookFiles,
    /// UCCI `idle` (stored, no effect).
    Idle,
    /// UCCI `pruning`: which selective-search switches are on.
    Pruning,
    /// UCCI `knowledge` (stored, no effect).
    Knowledge,
    /// UCCI `randomness`: a random pick among the best lines within a grade's spread.
    Randomness,
    /// UCCI `style` (stored, no effect).
    Style,
    /// UCCI `promotion`: only `false` (the variant is not supported).
    Promotion,
    /// UCI `UCI_Variant`: only `xiangqi`.
    Variant,
    /// UCI `UCI_ShowWDL`: `wdl W D L` on every info line with a score.
    ShowWdl,
    /// UCI and CECP `Skill Level`: 0 (weakest) to 20 (full strength).
    SkillLevel,
    /// UCI `UCI_LimitStrength`: play at `UCI_Elo` (overrides `Skill Level`).
    LimitStrength,
    /// UCI `UCI_Elo`: the strength `UCI_LimitStrength` plays at.
    Elo,
    /// UCI and CECP `EvalFile`, UCCI `evalfile`: a net file to evaluate with (empty: the
    /// embedded net), read when set.
    EvalFile,
    /// UCI and CECP `UseNNUE`, UCCI `usennue`: the network evaluates (else the hand-written
    /// evaluation).
    UseNnue,
}

impl Key {
    /// Whether setting it touches the engine or the loop, so the engine must be idle.
    pub fn needs_idle(self) -> bool {
        matches!(
            self,
            Key::Hash
                | Key::Threads
                | Key::MultiPv
                | Key::ClearHash
                | Key::Pruning
                | Key::Batch
                | Key::EvalFile
                | Key::UseNnue
        )
    }
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
    /// One of these words (matched ignoring case).
    Combo {
        /// The words, as advertised.
        vars: &'static [&'static str],
    },
    /// Free text (may be empty).
    String,
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

    /// One of the words `vars`.
    pub const fn combo(key: Key, name: &'static str, vars: &'static [&'static str]) -> Spec {
        Spec { key, name, kind: Kind::Combo { vars }, zero_is_default: false }
    }

    /// Free text.
    pub const fn string(key: Key, name: &'static str) -> Spec {
        Spec { key, name, kind: Kind::String, zero_is_default: false }
    }

    /// The same spec, reading wire value 0 as the default.
    pub const fn zero_is_default(self) -> Spec {
        Spec { zero_is_default: true, ..self }
    }
}

/// How UCI and UCCI write an empty string value (Stockfish's convention); read back as empty.
pub const EMPTY: &str = "<empty>";

/// The only `UCI_Variant`.
pub const VARIANT_NAME: &str = "xiangqi";

/// Default table size in MB.
pub const DEFAULT_HASH_MB: u64 = 16;
/// Largest table size accepted, MB.
pub const MAX_HASH_MB: u64 = 4096;
/// Largest thread count accepted.
pub const MAX_THREADS: u64 = 64;
/// Largest MultiPV accepted.
pub const MAX_MULTIPV: u64 = 500;
/// Default move overhead, ms: a GUI's 50 ms transport delay plus the rare pause of a loaded or
/// virtual machine (`docs/strength.md`, "Fixed time per move with a GUI-like 50 ms delay").
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 100;
/// Largest move overhead accepted, ms.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn which_options_need_an_idle_engine() {
        assert!(Key::Batch.needs_idle() && Key::Pruning.needs_idle() && Key::Hash.needs_idle());
        assert!(!Key::ShowWdl.needs_idle() && !Key::Debug.needs_idle() && !Key::Variant.needs_idle());
    }
}
