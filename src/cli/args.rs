//! A small flag parser shared by the tools: `--name value` pairs and bare `--switch`es.

use crate::board::Position;

/// Parsed `--flag [value]` arguments of one subcommand.
#[derive(Debug, Default)]
pub struct Args {
    pairs: Vec<(String, Option<String>)>,
}

impl Args {
    /// Parses `args`; `switches` names the flags that take no value.
    pub fn parse(args: &[String], valued: &[&str], switches: &[&str]) -> Result<Args, String> {
        let mut pairs = Vec::new();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let name = a.strip_prefix("--").ok_or_else(|| format!("unexpected argument '{a}'"))?;
            if switches.contains(&name) {
                pairs.push((name.to_string(), None));
            } else if valued.contains(&name) {
                let v = it.next().ok_or_else(|| format!("--{name} needs a value"))?;
                pairs.push((name.to_string(), Some(v.clone())));
            } else {
                return Err(format!("unknown option '{a}'"));
            }
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
            None => default.ok_or_else(|| format!("--{name} is required")),
            Some(v) => match v.parse::<u64>() {
                Ok(n) if (lo..=hi).contains(&n) => Ok(n),
                _ => Err(format!("--{name} '{v}' must be a whole number from {lo} to {hi}")),
            },
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
