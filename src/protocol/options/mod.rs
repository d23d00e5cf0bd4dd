//! Engine options: the specs the dialects advertise (declared once here, each dialect picks
//! its list) and one handshake formatter per dialect [`Style`]. What an option is (its key,
//! kind and spec) and the limits of the values are in `spec.rs`; the current values and
//! `setoption`'s validation in `values.rs`. Kinds: check, spin, button, combo (one of fixed
//! words) and string.

mod spec;
mod values;

use crate::search::{ELO_RANGE, MAX_SKILL};
pub use spec::{Key, Kind, Spec, EMPTY, VARIANT_NAME};
pub use spec::{
    DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD_MS, MAX_HASH_MB, MAX_MOVE_OVERHEAD_MS, MAX_MULTIPV, MAX_THREADS,
};
pub use values::{Applied, Options};

impl Spec {
    /// The handshake line advertising this option in `style`.
    pub fn advertise(&self, style: Style) -> String {
        let (name, default) = (self.name, Options::default_text(self));
        // UCI and UCCI lines are split on spaces, so an empty default is spelt `<empty>`.
        let word = if default.is_empty() { EMPTY } else { default.as_str() };
        match (style, self.kind) {
            (Style::Ucci, Kind::Check) => format!("option {name} type check default {default}"),
            (Style::Ucci, Kind::Spin { min, max }) => {
                format!("option {name} type spin min {min} max {max} default {default}")
            }
            (Style::Ucci, Kind::Button) => format!("option {name} type button"),
            (Style::Ucci, Kind::Combo { vars }) => {
                format!("option {name} type combo{} default {default}", vars_text(vars))
            }
            (Style::Ucci, Kind::String) => format!("option {name} type string default {word}"),
            (Style::Uci, Kind::Check) => format!("option name {name} type check default {default}"),
            (Style::Uci, Kind::Spin { min, max }) => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            (Style::Uci, Kind::Button) => format!("option name {name} type button"),
            (Style::Uci, Kind::Combo { vars }) => {
                format!("option name {name} type combo default {default}{}", vars_text(vars))
            }
            (Style::Uci, Kind::String) => format!("option name {name} type string default {word}"),
            (Style::Cecp, Kind::Check) => format!("feature option=\"{name} -check {}\"", u8::from(default == "true")),
            (Style::Cecp, Kind::Spin { min, max }) => format!("feature option=\"{name} -spin {default} {min} {max}\""),
            (Style::Cecp, Kind::Button) => format!("feature option=\"{name} -button\""),
            // CECP marks the current choice with a leading `*`.
            (Style::Cecp, Kind::Combo { vars }) => {
                let choices: Vec<String> =
                    vars.iter().map(|v| if *v == default { format!("*{v}") } else { v.to_string() }).collect();
                format!("feature option=\"{name} -combo {}\"", choices.join(" /// "))
            }
            (Style::Cecp, Kind::String) => format!("feature option=\"{name} -string {default}\""),
        }
    }
}

/// ` var a var b ...`.
fn vars_text(vars: &[&str]) -> String {
    vars.iter().map(|v| format!(" var {v}")).collect()
}

/// A dialect's options: those it advertises in its handshake style, those it accepts without
/// advertising them, and whether a name it does not know is an error.
#[derive(Clone, Copy, Debug)]
pub struct OptionSet {
    /// How the handshake lists them.
    pub style: Style,
    /// Listed in the handshake, in this order.
    pub advertised: &'static [Spec],
    /// Accepted but not listed (CECP's table size and threads, set by `memory`/`cores`, and `Debug`).
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

    /// Whether the dialect has an option for `key` (the book switch differs by dialect).
    pub fn has(&self, key: Key) -> bool {
        self.advertised.iter().chain(self.unlisted).any(|s| s.key == key)
    }
}

/// How a dialect advertises its options in the handshake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// `option hashsize type spin min 0 max 4096 default 16`.
    Ucci,
    /// `option name Hash type spin default 16 min 1 max 4096`.
    Uci,
    /// `feature option="MultiPV -spin 1 1 500"`.
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
/// UCI's `UCI_Variant`: the one variant Chuhe plays (multi-variant GUIs send it).
pub const VARIANT: Spec = Spec::combo(Key::Variant, "UCI_Variant", &["xiangqi"]);
/// UCI's `UCI_ShowWDL`.
pub const SHOW_WDL: Spec = Spec::check(Key::ShowWdl, "UCI_ShowWDL");
/// UCI's and CECP's `Skill Level`.
pub const SKILL_LEVEL: Spec = Spec::spin(Key::SkillLevel, "Skill Level", 0, MAX_SKILL as u64);
/// UCI's `UCI_LimitStrength`.
pub const LIMIT_STRENGTH: Spec = Spec::check(Key::LimitStrength, "UCI_LimitStrength");
/// UCI's `UCI_Elo`, over the calibrated range.
pub const ELO: Spec = Spec::spin(Key::Elo, "UCI_Elo", ELO_RANGE.0 as u64, ELO_RANGE.1 as u64);
/// UCI and CECP `OwnBook`: play book moves.
pub const OWN_BOOK: Spec = Spec::check(Key::OwnBook, "OwnBook");
/// UCI and CECP `BookFile`: the book file.
pub const BOOK_FILE: Spec = Spec::string(Key::BookFiles, "BookFile");

/// UCI and CECP `EvalFile`: the net file (empty: the embedded one).
pub const EVAL_FILE: Spec = Spec::string(Key::EvalFile, "EvalFile");
/// UCI and CECP `UseNNUE`: evaluate with the network.
pub const USE_NNUE: Spec = Spec::check(Key::UseNnue, "UseNNUE");

/// UCCI's grades of `pruning`, `knowledge` and `idle`.
pub const GRADES: &[&str] = &["none", "small", "medium", "large"];
/// UCCI's grades of `randomness`.
pub const RANDOMNESS: &[&str] = &["none", "tiny", "small", "medium", "large", "huge"];
/// UCCI's `style` values.
pub const STYLES: &[&str] = &["solid", "normal", "risky"];

/// The search's pruning switches (`chuhe params`) UCCI `pruning` sets, most trusted first:
/// each grade keeps a prefix on and turns the rest off.
pub const PRUNING_SWITCHES: [&str; 6] =
    ["null_move", "lmr", "reverse_futility", "losing_capture_pruning", "futility", "late_move_pruning"];

/// The switch settings of a `pruning` grade: `none` turns all six off, `small` keeps null move,
/// `medium` also late-move reductions, reverse futility and quiescence's losing-capture
/// pruning, `large` (the default) keeps them all.
pub fn pruning_switches(grade: &str) -> [(&'static str, bool); 6] {
    let on = match grade {
        "none" => 0,
        "small" => 1,
        "medium" => 4,
        _ => PRUNING_SWITCHES.len(),
    };
    let mut v = [("", false); 6];
    for (i, name) in PRUNING_SWITCHES.iter().enumerate() {
        v[i] = (name, i < on);
    }
    v
}

/// Finds the option called `name` (case-insensitive, surrounding spaces ignored).
pub fn find<'a>(specs: &'a [Spec], name: &str) -> Option<&'a Spec> {
    let name = name.trim();
    specs.iter().find(|s| s.name.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) const HASH0: Spec = Spec::spin(Key::Hash, "hashsize", 0, MAX_HASH_MB).zero_is_default();
    pub(super) const MS: Spec = Spec::check(Key::UseMillisec, "usemillisec");

    #[test]
    fn one_formatter_per_style() {
        assert_eq!(HASH0.advertise(Style::Ucci), "option hashsize type spin min 0 max 4096 default 16");
        assert_eq!(HASH.advertise(Style::Uci), "option name Hash type spin default 16 min 1 max 4096");
        assert_eq!(MULTIPV.advertise(Style::Cecp), "feature option=\"MultiPV -spin 1 1 500\"");
        assert_eq!(MS.advertise(Style::Ucci), "option usemillisec type check default false");
        assert_eq!(PONDER.advertise(Style::Uci), "option name Ponder type check default false");
        assert_eq!(PONDER.advertise(Style::Cecp), "feature option=\"Ponder -check 0\"");
        assert_eq!(CLEAR_HASH.advertise(Style::Cecp), "feature option=\"Clear Hash -button\"");
        assert_eq!(CLEAR_HASH.advertise(Style::Uci), "option name Clear Hash type button");
    }

    pub(super) const STYLE: Spec = Spec::combo(Key::Style, "style", STYLES);
    pub(super) const BOOKS: Spec = Spec::string(Key::BookFiles, "Book Files");

    #[test]
    fn combos_and_strings_in_every_style() {
        assert_eq!(
            STYLE.advertise(Style::Ucci),
            "option style type combo var solid var normal var risky default normal"
        );
        assert_eq!(
            STYLE.advertise(Style::Uci),
            "option name style type combo default normal var solid var normal var risky"
        );
        assert_eq!(STYLE.advertise(Style::Cecp), "feature option=\"style -combo solid /// *normal /// risky\"");
        assert_eq!(VARIANT.advertise(Style::Uci), "option name UCI_Variant type combo default xiangqi var xiangqi");
        assert_eq!(SHOW_WDL.advertise(Style::Uci), "option name UCI_ShowWDL type check default false");
        assert_eq!(BOOKS.advertise(Style::Ucci), "option Book Files type string default <empty>");
        assert_eq!(BOOKS.advertise(Style::Uci), "option name Book Files type string default <empty>");
        assert_eq!(BOOKS.advertise(Style::Cecp), "feature option=\"Book Files -string \"");
    }

    #[test]
    fn pruning_grades_are_prefixes_of_the_search_switches() {
        let on = |g: &str| pruning_switches(g).iter().filter(|(_, on)| *on).count();
        assert_eq!([on("none"), on("small"), on("medium"), on("large")], [0, 1, 4, 6]);
        let mut defaults = crate::search::Features::default();
        for (name, on) in pruning_switches("large") {
            assert!(crate::search::Engine::is_tunable(name), "{name}");
            assert_eq!(*defaults.switch(name).unwrap(), on, "large is the default setting: {name}");
        }
        assert_eq!(pruning_switches("small")[0], ("null_move", true));
    }
}
