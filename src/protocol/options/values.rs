//! The current option values: one field per [`Key`], the one map from a key to its field, and
//! `setoption`'s validation (out-of-range numbers are clamped with a note, bad values refused).

use super::spec::{Key, Kind, Spec, DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD_MS, EMPTY, VARIANT_NAME};
use crate::protocol::words::{clip, parse_bool, parse_count};
use crate::search::{Strength, ELO_RANGE, MAX_SKILL};

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
    /// UCCI `batch`.
    pub batch: bool,
    /// UCCI `debug`.
    pub debug: bool,
    /// UCCI `usehash` (kept, no effect).
    pub use_hash: bool,
    /// UCCI `usebook`.
    pub use_book: bool,
    /// UCI and CECP `OwnBook`.
    pub own_book: bool,
    /// UCCI `bookfiles`, UCI and CECP `BookFile`: the paths of the loaded books.
    pub book_files: String,
    /// UCCI `idle` (kept, no effect).
    pub idle: &'static str,
    /// UCCI `pruning`.
    pub pruning: &'static str,
    /// UCCI `knowledge` (kept, no effect).
    pub knowledge: &'static str,
    /// UCCI `randomness`.
    pub randomness: &'static str,
    /// UCCI `style` (kept, no effect).
    pub style: &'static str,
    /// UCI `UCI_ShowWDL`.
    pub show_wdl: bool,
    /// `Skill Level`.
    pub skill_level: u64,
    /// UCI `UCI_LimitStrength`.
    pub limit_strength: bool,
    /// UCI `UCI_Elo`.
    pub elo: u64,
    /// `EvalFile`: the path of the loaded net (empty: the embedded net).
    pub eval_file: String,
    /// `UseNNUE`.
    pub use_nnue: bool,
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
            batch: false,
            debug: false,
            use_hash: true,
            use_book: true,
            own_book: false,
            book_files: String::new(),
            idle: "none",
            pruning: "large",
            knowledge: "large",
            randomness: "none",
            style: "normal",
            show_wdl: false,
            skill_level: MAX_SKILL as u64,
            limit_strength: false,
            elo: ELO_RANGE.1 as u64,
            eval_file: String::new(),
            use_nnue: crate::eval::NETWORK_BY_DEFAULT,
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

/// Where a key's value lives in [`Options`].
enum Field<'a> {
    /// A check's value.
    Bool(&'a mut bool),
    /// A spin's value.
    Count(&'a mut u64),
    /// A combo's word.
    Choice(&'a mut &'static str),
    /// A string's text.
    Text(&'a mut String),
    /// An option that accepts one value only.
    Fixed(&'static str),
    /// A button: no value.
    Action,
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
        match self.clone().field(key) {
            Field::Bool(b) => b.to_string(),
            Field::Count(n) => n.to_string(),
            Field::Choice(w) => w.to_string(),
            Field::Text(t) => t.clone(),
            Field::Fixed(w) => w.to_string(),
            Field::Action => String::new(),
        }
    }

    /// The one map from a key to the value it holds, read and written through it.
    fn field(&mut self, key: Key) -> Field<'_> {
        match key {
            Key::UseMillisec => Field::Bool(&mut self.use_millisec),
            Key::Hash => Field::Count(&mut self.hash_mb),
            Key::Threads => Field::Count(&mut self.threads),
            Key::MultiPv => Field::Count(&mut self.multipv),
            Key::Ponder => Field::Bool(&mut self.may_ponder),
            Key::MoveOverhead => Field::Count(&mut self.move_overhead_ms),
            Key::ClearHash => Field::Action,
            Key::Batch => Field::Bool(&mut self.batch),
            Key::Debug => Field::Bool(&mut self.debug),
            Key::UseHash => Field::Bool(&mut self.use_hash),
            Key::UseBook => Field::Bool(&mut self.use_book),
            Key::OwnBook => Field::Bool(&mut self.own_book),
            Key::BookFiles => Field::Text(&mut self.book_files),
            Key::Idle => Field::Choice(&mut self.idle),
            Key::Pruning => Field::Choice(&mut self.pruning),
            Key::Knowledge => Field::Choice(&mut self.knowledge),
            Key::Randomness => Field::Choice(&mut self.randomness),
            Key::Style => Field::Choice(&mut self.style),
            Key::Promotion => Field::Fixed("false"),
            Key::Variant => Field::Fixed(VARIANT_NAME),
            Key::ShowWdl => Field::Bool(&mut self.show_wdl),
            Key::SkillLevel => Field::Count(&mut self.skill_level),
            Key::LimitStrength => Field::Bool(&mut self.limit_strength),
            Key::Elo => Field::Count(&mut self.elo),
            Key::EvalFile => Field::Text(&mut self.eval_file),
            Key::UseNnue => Field::Bool(&mut self.use_nnue),
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
                if spec.key == Key::Promotion && b {
                    return Err(format!(
                        "option '{name}': the variant where advisors and elephants may become pawns is not \
                         supported; {name} stays false"
                    ));
                }
                if let Field::Bool(f) = self.field(spec.key) {
                    *f = b;
                }
            }
            Kind::Combo { vars } => {
                let v = value.unwrap_or("");
                let Some(&var) = vars.iter().find(|x| x.eq_ignore_ascii_case(v.trim())) else {
                    return Err(match spec.key {
                        Key::Variant => format!(
                            "variant '{}' is not supported: Chuhe plays only {VARIANT_NAME}; {name} stays {VARIANT_NAME}",
                            clip(v)
                        ),
                        _ => format!("option '{name}' takes one of {}, not '{}'", vars.join(", "), clip(v)),
                    });
                };
                if let Field::Choice(f) = self.field(spec.key) {
                    *f = var;
                }
            }
            Kind::String => {
                let v = value.map(str::trim).filter(|v| *v != EMPTY).unwrap_or("");
                if let Field::Text(f) = self.field(spec.key) {
                    *f = v.to_string();
                }
            }
            Kind::Spin { min, max } => {
                let v = value.ok_or_else(|| format!("option '{name}' needs a number"))?;
                let n = parse_count(v)
                    .ok_or_else(|| format!("option '{name}' needs an integer in {min}..{max}, got '{}'", clip(v)))?;
                let mut n = match Options::default().field(spec.key) {
                    Field::Count(&mut default) if spec.zero_is_default && n == 0 => default,
                    _ => n,
                };
                if n < min || n > max {
                    let c = n.clamp(min, max);
                    note = Some(format!("option '{name}' value {n} out of range {min}..{max}; using {c}"));
                    n = c;
                }
                if let Field::Count(f) = self.field(spec.key) {
                    *f = n;
                }
            }
        }
        Ok(Applied { key: spec.key, note })
    }

    /// How much the search holds back: `UCI_Elo` when `UCI_LimitStrength` is on, else
    /// `Skill Level`, plus UCCI `randomness`.
    pub fn strength(&self) -> Strength {
        let base =
            if self.limit_strength { Strength::elo(self.elo as i32) } else { Strength::skill(self.skill_level as f64) };
        base.with_randomness(self.randomness)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{BOOKS, HASH0, MS, STYLE};
    use super::super::*;
    use super::*;

    #[test]
    fn combo_and_string_values() {
        let mut o = Options::default();
        o.apply(&STYLE, Some("RISKY")).unwrap();
        assert_eq!(o.style, "risky");
        assert_eq!(
            o.apply(&STYLE, Some("wild")).unwrap_err(),
            "option 'style' takes one of solid, normal, risky, not 'wild'"
        );
        assert_eq!(o.apply(&STYLE, None).unwrap_err(), "option 'style' takes one of solid, normal, risky, not ''");
        assert_eq!(o.style, "risky");
        o.apply(&BOOKS, Some("a.obk;b.obk")).unwrap();
        assert_eq!(o.book_files, "a.obk;b.obk");
        o.apply(&BOOKS, Some("<empty>")).unwrap();
        assert_eq!(o.book_files, "");
        o.apply(&BOOKS, Some("x")).unwrap();
        o.apply(&BOOKS, None).unwrap();
        assert_eq!(o.book_files, "");
        o.apply(&VARIANT, Some("Xiangqi")).unwrap();
        assert_eq!(
            o.apply(&VARIANT, Some("chess")).unwrap_err(),
            "variant 'chess' is not supported: Chuhe plays only xiangqi; UCI_Variant stays xiangqi"
        );
        assert_eq!(o.value_text(Key::Variant), "xiangqi");
    }

    #[test]
    fn promotion_is_only_false() {
        let promotion = Spec::check(Key::Promotion, "promotion");
        let mut o = Options::default();
        assert!(o.apply(&promotion, Some("false")).is_ok());
        let e = o.apply(&promotion, Some("true")).unwrap_err();
        assert!(e.contains("not supported") && e.ends_with("promotion stays false"), "{e}");
        assert_eq!(o.value_text(Key::Promotion), "false");
    }

    #[test]
    fn every_dialects_options_hold_a_value_of_their_kind() {
        use crate::protocol::Replies;
        let sets = [
            crate::protocol::ucci::Ucci.options(),
            crate::protocol::uci::Uci::default().options(),
            crate::protocol::xboard::Xboard::default().options(),
        ];
        let mut o = Options::default();
        for spec in sets.iter().flat_map(|set| set.advertised.iter().chain(set.unlisted)) {
            let fits = match (spec.kind, o.field(spec.key)) {
                (Kind::Check, Field::Bool(_)) | (Kind::Spin { .. }, Field::Count(_)) => true,
                (Kind::Combo { vars }, Field::Choice(w)) => vars.contains(w),
                (Kind::Combo { vars }, Field::Fixed(w)) => vars == [w],
                (Kind::Check, Field::Fixed(w)) => w == "false",
                (Kind::String, Field::Text(_)) | (Kind::Button, Field::Action) => true,
                _ => false,
            };
            assert!(fits, "{} ({:?}) is a {:?}", spec.name, spec.key, spec.kind);
        }
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
