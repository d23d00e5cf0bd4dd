//! A small flag parser shared by the tools: `--name value` (or `--name=value`) pairs and bare
//! `--switch`es.

use crate::board::Position;

/// The tail of an error about the arguments themselves: `cli::run` replaces it with the tool's
/// usage line and an example.
pub const SEE_HELP: &str = "(see --help)";

/// Parsed `--flag [value]` arguments of one subcommand.
#[derive(Debug, Default)]
pub struct Args {
    pairs: Vec<(String, Option<String>)>,
}

/// The flag name of `arg` (`--name` or `--name=value`) and its inline value, if it is a flag.
fn split_flag(arg: &str) -> Option<(&str, Option<&str>)> {
    let flag = arg.strip_prefix("--").filter(|f| !f.is_empty())?;
    Some(match flag.split_once('=') {
        Some((name, value)) => (name, Some(value)),
        None => (flag, None),
    })
}

impl Args {
    /// Parses `args`: `valued` names the flags that take a value (`--name V` or `--name=V`),
    /// `switches` the flags that take none.
    pub fn parse(args: &[String], valued: &[&str], switches: &[&str]) -> Result<Args, String> {
        Args::parse_with_positional(args, valued, switches, &[])
    }

    /// [`Args::parse`], where the bare words (not flags, not a flag's value) stand for the
    /// valued flags `positional` names, in order: `chuhe perft 5` is `chuhe perft --depth 5`.
    /// A word given both ways, or more bare words than names, is an error.
    pub fn parse_with_positional(
        args: &[String],
        valued: &[&str],
        switches: &[&str],
        positional: &[&str],
    ) -> Result<Args, String> {
        let known = |a: &str| split_flag(a).is_some_and(|(n, _)| valued.contains(&n) || switches.contains(&n));
        let mut pairs: Vec<(String, Option<String>)> = Vec::new();
        let mut bare: Vec<&String> = Vec::new();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let Some((name, inline)) = split_flag(a) else {
                if bare.len() == positional.len() || a.starts_with("--") {
                    return Err(format!("unexpected argument '{a}' {SEE_HELP}"));
                }
                bare.push(a);
                continue;
            };
            if switches.contains(&name) {
                if inline.is_some() {
                    return Err(format!("--{name} takes no value {SEE_HELP}"));
                }
                pairs.push((name.to_string(), None));
            } else if valued.contains(&name) {
                let v = match inline {
                    Some(v) => v.to_string(),
                    // A flag where the value should be is a forgotten value, not a value.
                    None => match it.next() {
                        Some(next) if known(next) => {
                            return Err(format!("--{name} needs a value before '{next}' {SEE_HELP}"))
                        }
                        Some(next) => next.clone(),
                        None => return Err(format!("--{name} needs a value {SEE_HELP}")),
                    },
                };
                pairs.push((name.to_string(), Some(v)));
            } else {
                return Err(format!("unknown option '--{name}' {SEE_HELP}"));
            }
        }
        for (name, word) in positional.iter().zip(bare) {
            if let Some(flagged) = pairs.iter().find(|(n, _)| n == name).and_then(|(_, v)| v.as_deref()) {
                return Err(format!("'{word}' and --{name} '{flagged}' both give --{name} {SEE_HELP}"));
            }
            pairs.push((name.to_string(), Some(word.clone())));
        }
        Ok(Args { pairs })
    }

    /// The value of `--name`, if given (the last one wins).
    pub fn value(&self, name: &str) -> Option<&str> {
        self.pairs.iter().rev().find(|(n, _)| n == name).and_then(|(_, v)| v.as_deref())
    }

    /// Whether the switch `--name` was given.
    pub fn flag(&self, name: &str) -> bool {
        self.pairs.iter().any(|(n, _)| n == name)
    }

    /// `--name` as a number in `lo..=hi`, or `default` when absent.
    pub fn number(&self, name: &str, lo: u64, hi: u64, default: Option<u64>) -> Result<u64, String> {
        match self.value(name) {
            None => default.ok_or_else(|| format!("--{name} is required {SEE_HELP}")),
            Some(v) => match v.parse::<u64>() {
                Ok(n) if (lo..=hi).contains(&n) => Ok(n),
                _ => Err(format!("--{name} '{v}' must be a whole number from {lo} to {hi} {SEE_HELP}")),
            },
        }
    }

    /// `--name` as a decimal number in `range`, or `default` when absent.
    pub fn decimal(&self, name: &str, default: f64, range: std::ops::RangeInclusive<f64>) -> Result<f64, String> {
        match self.value(name) {
            None => Ok(default),
            Some(v) => match v.parse::<f64>() {
                Ok(x) if range.contains(&x) => Ok(x),
                _ => {
                    Err(format!("--{name} '{v}' must be a number from {} to {} {SEE_HELP}", range.start(), range.end()))
                }
            },
        }
    }

    /// The evaluation of `--eval hand|nnue` and `--evalfile NET` (a net file; implies nnue),
    /// or the engine's default.
    pub fn evaluator(&self) -> Result<crate::eval::Evaluator, String> {
        use crate::eval::{nnue::Network, Evaluator};
        match (self.value("eval"), self.value("evalfile")) {
            (Some("hand"), Some(_)) => Err("--evalfile needs --eval nnue (or no --eval)".into()),
            (_, Some(path)) => Ok(Evaluator::Network(std::sync::Arc::new(
                Network::load(path).map_err(|e| format!("--evalfile: {e}"))?,
            ))),
            (Some("hand"), None) => Ok(Evaluator::Hand),
            (Some("nnue"), None) => Ok(Evaluator::embedded()),
            (Some(other), None) => Err(format!("--eval '{other}' must be hand or nnue")),
            (None, None) => Ok(Evaluator::default()),
        }
    }

    /// The position of `--fen`, or the start position.
    pub fn position(&self) -> Result<Position, String> {
        match self.value("fen") {
            None => Ok(Position::startpos()),
            Some(f) => Position::from_fen(f).map_err(|e| e.to_string()),
        }
    }
}

/// Takes a list flag out of `args`: `--name A B ...` or `--name=A B ...`, the words up to the
/// next `--flag` (the flag may be repeated). Returns the list (`None` if the flag is absent)
/// and the other arguments, for [`Args::parse`].
pub fn take_list(args: &[String], name: &str) -> (Option<Vec<String>>, Vec<String>) {
    let mut list: Option<Vec<String>> = None;
    let mut rest = Vec::new();
    let mut taking = false;
    for a in args {
        match split_flag(a) {
            Some((n, inline)) if n == name => {
                let l = list.get_or_insert_with(Vec::new);
                l.extend(inline.filter(|v| !v.is_empty()).map(String::from));
                taking = true;
            }
            Some(_) => {
                taking = false;
                rest.push(a.clone());
            }
            None => match list.as_mut().filter(|_| taking) {
                Some(l) => l.push(a.clone()),
                None => rest.push(a.clone()),
            },
        }
    }
    (list, rest)
}

/// Every core of this machine (the default thread count of the tools that fit data).
pub fn all_cores() -> u64 {
    std::thread::available_parallelism().map_or(1, |n| n.get() as u64)
}

/// The datagen files of `chuhe tune` and `chuhe train`'s `--data FILE...` (every word up to
/// the next flag) and the other arguments.
pub fn data_files(args: &[String]) -> Result<(Vec<String>, Vec<String>), String> {
    let (files, rest) = take_list(args, "data");
    let files = files.ok_or(format!("--data FILE... is required {SEE_HELP}"))?;
    if files.is_empty() {
        return Err("--data needs at least one FILE".into());
    }
    Ok((files, rest))
}

/// The fitters' report of the data they loaded since `clock` started (`fit::Split`'s
/// sizes); an error when there is nothing to train on.
pub fn loaded(train: usize, validation: usize, skipped: u64, clock: std::time::Instant) -> Result<(), String> {
    if train == 0 {
        return Err("no quiet positions in the data".into());
    }
    outln!(
        "positions {train} training, {validation} validation ({skipped} skipped: check, capture or decisive) \
         loaded in {:.1}s",
        clock.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `--k K`, the sigmoid scale the fitters are given (`None`: they fit it).
pub fn sigmoid_scale(a: &Args) -> Result<Option<f64>, String> {
    a.value("k").map(|_| a.decimal("k", 0.0, 1.0..=100_000.0)).transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn parse(s: &str) -> Result<Args, String> {
        Args::parse(&words(s), &["depth", "fen", "moves"], &["divide"])
    }

    #[test]
    fn flag_equals_value_is_the_same_as_two_words() {
        for line in ["--depth 5 --divide", "--depth=5 --divide", "--divide --depth=4 --depth=5"] {
            let a = parse(line).unwrap();
            assert_eq!((a.value("depth"), a.flag("divide")), (Some("5"), true), "{line}");
        }
        // Only the first '=' splits: the value may hold more.
        assert_eq!(parse("--moves=a=b").unwrap().value("moves"), Some("a=b"));
        let fen = Args::parse(&["--fen=4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1".to_string()], &["fen"], &[]).unwrap();
        assert_eq!(fen.value("fen"), Some("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"));
        assert_eq!(parse("--depth=").unwrap().value("depth"), Some(""));
        assert_eq!(
            parse("--depth=").unwrap().number("depth", 1, 9, None),
            Err("--depth '' must be a whole number from 1 to 9 (see --help)".into())
        );
    }

    #[test]
    fn bad_flags_are_named() {
        let err = |s: &str| parse(s).unwrap_err();
        assert_eq!(err("--divide=yes"), "--divide takes no value (see --help)");
        assert_eq!(err("--depth"), "--depth needs a value (see --help)");
        assert_eq!(err("--depth --divide"), "--depth needs a value before '--divide' (see --help)");
        assert_eq!(err("--fen --depth=3"), "--fen needs a value before '--depth=3' (see --help)");
        assert_eq!(err("--bogus=1"), "unknown option '--bogus' (see --help)");
        assert_eq!(err("--bogus"), "unknown option '--bogus' (see --help)");
        assert_eq!(err("5"), "unexpected argument '5' (see --help)");
        assert_eq!(err("--"), "unexpected argument '--' (see --help)");
        // A value that merely starts with dashes but is no known flag is a value.
        assert_eq!(parse("--moves --x").unwrap().value("moves"), Some("--x"));
    }

    #[test]
    fn bare_words_stand_for_the_positional_flags_in_order() {
        let parse = |s: &str| Args::parse_with_positional(&words(s), &["depth", "fen"], &["divide"], &["depth"]);
        assert_eq!(parse("5").unwrap().value("depth"), Some("5"));
        assert_eq!(parse("--divide 5 --fen x").unwrap().value("depth"), Some("5"));
        assert_eq!(parse("--fen x").unwrap().value("depth"), None);
        // A flag's value is not a bare word.
        assert_eq!(parse("--fen 5").unwrap().value("depth"), None);
        assert_eq!(parse("5 6").unwrap_err(), "unexpected argument '6' (see --help)");
        assert_eq!(parse("5 --depth 6").unwrap_err(), "'5' and --depth '6' both give --depth (see --help)");
        assert_eq!(parse("--").unwrap_err(), "unexpected argument '--' (see --help)");
        assert_eq!(parse("--x").unwrap_err(), "unknown option '--x' (see --help)");
    }

    #[test]
    fn list_flags_take_words_up_to_the_next_flag() {
        let take = |s: &str| take_list(&words(s), "data");
        assert_eq!(take("--out w --epochs 3"), (None, words("--out w --epochs 3")));
        assert_eq!(take("--data a b --out w"), (Some(words("a b")), words("--out w")));
        assert_eq!(take("--data=a b --out=w"), (Some(words("a b")), words("--out=w")));
        assert_eq!(take("--out w --data=a --k 2 --data c"), (Some(words("a c")), words("--out w --k 2")));
        assert_eq!(take("--data"), (Some(vec![]), vec![]));
        assert_eq!(take("--data="), (Some(vec![]), vec![]));
        // Another flag whose name only starts like the list's is not it.
        assert_eq!(take("--database x"), (None, words("--database x")));
    }
}
