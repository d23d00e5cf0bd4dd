//! Every tunable number of the search and every selective-technique switch, declared once
//! (name, default, range and SPSA step, doc) by `search_params!`: the integers (pruning
//! margins, the reduction formula, the aspiration window, the time factors; fractions in
//! percent) in `SearchParams`, the switches in `Features`. Each is settable by name
//! (`Engine::set_tunable`, the protocols' hidden options, `chuhe match ... option.NAME=V`), so
//! a tuner can drive them from outside; `chuhe params` lists them.

/// The learning rate at the end of a tune (OpenBench's `R_end`) that `chuhe params` suggests
/// for every parameter: OpenBench's own default.
pub const SPSA_LEARNING_RATE: f64 = 0.002;

/// One parameter's name, default, range and SPSA step, for tuners.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    /// The name `set` takes.
    pub name: &'static str,
    /// The built-in value.
    pub default: i32,
    /// Smallest accepted value.
    pub min: i32,
    /// Largest accepted value.
    pub max: i32,
    /// How far SPSA perturbs it at the end of a tune (OpenBench's `C_end`).
    pub step: i32,
    /// What it does (its doc comment).
    pub doc: &'static str,
}

/// One switch's name, default and doc.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwitchSpec {
    /// The name `Features::switch` takes.
    pub name: &'static str,
    /// Whether it is on by default.
    pub default: bool,
    /// What it does (its doc comment).
    pub doc: &'static str,
}

macro_rules! search_params {
    (
        numbers {
            $($(#[doc = $doc:literal])* $name:ident = $default:literal in $min:literal..=$max:literal, step $step:literal;)*
        }
        switches {
            $($(#[doc = $sdoc:literal])* $switch:ident = $on:literal;)*
        }
    ) => {
        /// The search's tunable numbers (see the module docs).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $($(#[doc = $doc])* pub $name: i32,)*
        }

        impl SearchParams {
            /// The built-in values.
            pub const DEFAULT: SearchParams = SearchParams { $($name: $default,)* };

            /// Every parameter with its range, in declaration order.
            pub const SPECS: &'static [ParamSpec] = &[$(ParamSpec {
                name: stringify!($name),
                default: $default,
                min: $min,
                max: $max,
                step: $step,
                doc: concat!($($doc),*).trim_ascii(),
            },)*];

            /// The parameter called `name`, if there is one.
            fn field(&mut self, name: &str) -> Option<&mut i32> {
                match name {
                    $(stringify!($name) => Some(&mut self.$name),)*
                    _ => None,
                }
            }
        }

        /// Which selective-search techniques are on: the proven ones by default, each
        /// switchable to measure it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Features {
            $($(#[doc = $sdoc])* pub $switch: bool,)*
        }

        impl Features {
            /// Every switch with its default, in declaration order.
            pub const SPECS: &'static [SwitchSpec] = &[$(SwitchSpec {
                name: stringify!($switch),
                default: $on,
                doc: concat!($($sdoc),*).trim_ascii(),
            },)*];

            /// Every switch's name, as `switch` takes it.
            pub const NAMES: &'static [&'static str] = &[$(stringify!($switch),)*];

            /// The switch called `name` (the field's name, ignoring case), to read or set it.
            pub fn switch(&mut self, name: &str) -> Option<&mut bool> {
                match name.to_ascii_lowercase().as_str() {
                    $(stringify!($switch) => Some(&mut self.$switch),)*
                    _ => None,
                }
            }
        }

        impl Default for Features {
            fn default() -> Self {
                Features { $($switch: $on,)* }
            }
        }
    };
}

search_params! {
    numbers {
        /// Iterations from this depth on start with an aspiration window ...
        asp_min_depth = 5 in 1..=20, step 1;
        /// ... of this half-width, doubled after each fail ...
        asp_delta = 25 in 5..=200, step 3;
        /// ... until it passes this, then the window is full.
        asp_full_after = 600 in 50..=5000, step 60;

        /// Reverse futility: at most this depth ...
        rfp_max_depth = 6 in 0..=12, step 1;
        /// ... when the static eval beats beta by this much per ply.
        rfp_margin = 85 in 20..=300, step 8;

        /// Null move from this depth, ...
        nmp_min_depth = 3 in 1..=8, step 1;
        /// ... reduced by this ...
        nmp_base = 3 in 1..=6, step 1;
        /// ... plus depth divided by this ...
        nmp_depth_div = 4 in 1..=12, step 1;
        /// ... plus (eval − beta) divided by this, ...
        nmp_eval_div = 200 in 50..=1000, step 20;
        /// ... at most this much.
        nmp_eval_max = 2 in 0..=6, step 1;

        /// No table move from this depth on: search one ply shallower.
        iir_min_depth = 4 in 2..=12, step 1;

        /// Late-move pruning at most at this depth, ...
        lmp_max_depth = 4 in 0..=10, step 1;
        /// ... after this many quiet moves plus depth² (twice that when improving).
        lmp_base = 3 in 0..=20, step 1;

        /// Futility pruning at most at this depth, ...
        fp_max_depth = 4 in 0..=10, step 1;
        /// ... when eval + this ...
        fp_base = 110 in 0..=500, step 10;
        /// ... + this per ply is at most alpha.
        fp_per_depth = 90 in 0..=400, step 9;

        /// Moves losing material by static exchange are skipped at most at this depth: ...
        see_max_depth = 6 in 0..=12, step 1;
        /// ... a quiet move losing more than this per ply, ...
        see_quiet_margin = 60 in 0..=300, step 6;
        /// ... a capture losing more than this per ply squared.
        see_capture_margin = 25 in 0..=200, step 3;

        /// Late-move reductions from this depth ...
        lmr_min_depth = 3 in 1..=8, step 1;
        /// ... for the move with this number on (1 is the first; the root counts from 0).
        lmr_min_moves = 3 in 2..=10, step 1;
        /// The reduction table: base (percent of a ply) ...
        lmr_base_pct = 50 in -100..=200, step 10;
        /// ... plus ln(depth)·ln(moves) divided by this (percent).
        lmr_div_pct = 220 in 100..=500, step 15;
        /// One ply less reduction per this much history score (at most `lmr_history_max`).
        lmr_history_div = 6000 in 1000..=30000, step 600;
        /// Most plies the history adjusts a reduction by.
        lmr_history_max = 2 in 0..=4, step 1;

        /// A quiet cutoff's history bonus: depth² times this ...
        history_mul = 16 in 1..=100, step 2;
        /// ... at most this.
        history_max = 4000 in 100..=16000, step 400;

        /// Singular extension from this depth, when the table's entry is at most ...
        se_min_depth = 8 in 4..=16, step 1;
        /// ... this many plies shallower; the other moves are searched against the table score
        /// less ...
        se_tt_depth_slack = 3 in 1..=6, step 1;
        /// ... this much per ply, in centipawns.
        se_margin = 2 in 1..=20, step 1;
        /// Two plies of extension when the other moves fail by this much more (not at PV nodes).
        se_double_margin = 20 in 0..=200, step 3;

        /// Correction history entries stay within this many centipawns ...
        corr_limit_cp = 96 in 0..=400, step 10;
        /// ... and are keyed by the pawns and the king's guard (0) or the pawns alone (1).
        corr_key = 0 in 0..=1, step 1;

        /// ProbCut from this depth, ...
        probcut_min_depth = 5 in 3..=12, step 1;
        /// ... against beta plus this.
        probcut_margin = 200 in 50..=600, step 20;

        /// Check extensions stop at ply 2 × iteration depth + this.
        check_ext_slack = 8 in 0..=40, step 2;

        /// Quiescence skips a capture that cannot lift the score to alpha with this to spare.
        delta_margin = 150 in 0..=1000, step 15;

        /// The exchange values (centipawns) that static exchange, delta pruning and ProbCut
        /// price the pieces at (the king is never traded): the pawn, ...
        see_pawn = 137 in 40..=400, step 8;
        /// ... the advisor, ...
        see_advisor = 232 in 80..=500, step 10;
        /// ... the elephant, ...
        see_elephant = 217 in 80..=500, step 10;
        /// ... the horse, ...
        see_horse = 714 in 300..=1200, step 25;
        /// ... the cannon ...
        see_cannon = 733 in 300..=1200, step 25;
        /// ... and the rook.
        see_rook = 1460 in 800..=2500, step 45;
        /// A capture is put off as losing only when its exchange loses more than this (trading
        /// near-equal pieces, a cannon for a horse, is play, not a blunder).
        see_losing = 60 in 0..=300, step 6;

        /// With a clock and no moves-to-go, plan for this many moves.
        tm_moves_to_go = 30 in 10..=80, step 3;
        /// Share of the increment counted in the per-move target (percent).
        tm_inc_pct = 75 in 0..=100, step 5;
        /// The hard limit is this many times the target ...
        tm_hard_mul = 4 in 1..=10, step 1;
        /// ... and at most this share of the clock (percent) ...
        tm_cap_pct = 40 in 10..=90, step 4;
        /// ... or this share with one move to the control.
        tm_last_cap_pct = 90 in 50..=99, step 3;
        /// No new iteration once this share of the target (percent) has passed.
        tm_soft_pct = 60 in 20..=100, step 5;
        /// Each recent change of best move stretches the target by this (percent).
        tm_change_pct = 25 in 0..=100, step 5;
        /// Best-move changes are forgotten at this rate per iteration (percent kept).
        tm_change_keep_pct = 50 in 0..=100, step 5;
        /// A score fall of this many centipawns stretches the target by 100% (capped there).
        tm_fall_cp = 150 in 20..=1000, step 15;
        /// From this iteration on, the share of nodes the best move took scales the target: ...
        tm_node_min_depth = 6 in 1..=30, step 1;
        /// ... to this (percent) when it took all of them, ...
        tm_node_base_pct = 40 in 0..=200, step 8;
        /// ... plus this (percent) times the share the other moves took.
        tm_node_mul_pct = 150 in 0..=400, step 15;
        /// The target is stretched at most to this (percent).
        tm_stretch_max_pct = 250 in 100..=500, step 20;
        /// With one legal move, stop after this iteration.
        tm_single_depth = 4 in 1..=20, step 1;
    }

    switches {
        /// Null-move pruning.
        null_move = true;
        /// Late-move reductions.
        lmr = true;
        /// Reverse futility (static null move) pruning.
        reverse_futility = true;
        /// Futility pruning of quiet moves near the leaves.
        futility = true;
        /// Late-move pruning (skip late quiet moves near the leaves).
        late_move_pruning = true;
        /// Quiescence skips captures that lose material by static exchange.
        losing_capture_pruning = true;
        /// Near the leaves, moves that lose material by static exchange are skipped.
        see_pruning = false;
        /// Captures that lose material by static exchange are tried after the quiet moves
        /// (off: every capture by victim and attacker, before the killers).
        see_ordering = true;
        /// A move that gives check is searched one ply deeper.
        check_extension = true;
        /// The table's move is searched deeper when every other move fails well below its score.
        singular_extension = true;
        /// Quiescence also tries quiet checking moves at its first ply.
        quiet_checks_in_qsearch = false;
        /// Quiet moves are ordered (and reduced) by their history after the moves one and two
        /// plies back, too.
        continuation_history = true;
        /// The static evaluation is corrected by how the search's scores have differed from it
        /// in positions with the same structure (`corr_key`: pawns and the king's guard).
        correction_history = true;
        /// Captures are ordered by their history as well as by victim and attacker.
        capture_history = false;
        /// The time target is scaled by the share of the iteration's nodes the best move took.
        node_share_time = false;
        /// ProbCut: a capture that beats beta by a margin at reduced depth cuts the node.
        probcut = false;
    }
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams::DEFAULT
    }
}

impl SearchParams {
    /// The parameter called `name` (ignoring case).
    pub fn spec(name: &str) -> Option<&'static ParamSpec> {
        SearchParams::SPECS.iter().find(|s| s.name.eq_ignore_ascii_case(name))
    }

    /// Sets the parameter `name` (ignoring case) to `value`, within its range.
    pub fn set(&mut self, name: &str, value: i32) -> Result<(), String> {
        let spec = SearchParams::spec(name).ok_or_else(|| format!("no search parameter '{name}'"))?;
        if !(spec.min..=spec.max).contains(&value) {
            return Err(format!("{} must be from {} to {}, not {value}", spec.name, spec.min, spec.max));
        }
        *self.field(spec.name).expect("every spec names a field") = value;
        Ok(())
    }

    /// The late-move reduction for `moves` moves at `depth` before adjustments, in plies.
    pub fn lmr_table_entry(&self, depth: usize, moves: usize) -> i32 {
        if depth == 0 || moves == 0 {
            return 0;
        }
        let base = self.lmr_base_pct as f64 / 100.0;
        let div = self.lmr_div_pct as f64 / 100.0;
        (base + (depth as f64).ln() * (moves as f64).ln() / div) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_is_settable_by_name_within_its_range() {
        for spec in SearchParams::SPECS {
            assert!(spec.min <= spec.default && spec.default <= spec.max, "{spec:?}");
            let mut p = SearchParams::DEFAULT;
            p.set(spec.name, spec.max).unwrap();
            assert_ne!(p, SearchParams::DEFAULT, "{} changes nothing", spec.name);
            p.set(&spec.name.to_uppercase(), spec.default).unwrap();
            assert_eq!(p, SearchParams::DEFAULT);
            assert_eq!(
                p.set(spec.name, spec.max + 1),
                Err(format!("{} must be from {} to {}, not {}", spec.name, spec.min, spec.max, spec.max + 1))
            );
        }
        let mut p = SearchParams::DEFAULT;
        assert_eq!(p.set("no_such", 1), Err("no search parameter 'no_such'".to_string()));
    }

    #[test]
    fn every_entry_has_a_doc_and_every_parameter_a_step_within_its_range() {
        for spec in SearchParams::SPECS {
            assert!(spec.step >= 1 && spec.step <= spec.max - spec.min, "{spec:?}");
            assert!(!spec.doc.is_empty() && !spec.doc.starts_with(' '), "{spec:?}");
        }
        let mut defaults = Features::default();
        assert_eq!(Features::NAMES.len(), Features::SPECS.len());
        for s in Features::SPECS {
            assert!(!s.doc.is_empty(), "{s:?}");
            assert_eq!(defaults.switch(&s.name.to_uppercase()).copied(), Some(s.default), "{}", s.name);
        }
        assert!(defaults.switch("no_such").is_none());
    }

    #[test]
    fn the_reduction_table_keeps_its_formula() {
        let p = SearchParams::DEFAULT;
        // 0.5 + ln d · ln m / 2.2, truncated.
        assert_eq!(p.lmr_table_entry(1, 10), 0);
        assert_eq!(p.lmr_table_entry(3, 3), 1);
        assert_eq!(p.lmr_table_entry(10, 20), 3);
        assert_eq!(p.lmr_table_entry(63, 63), 8);
        assert_eq!(p.lmr_table_entry(0, 5), 0);
    }
}
