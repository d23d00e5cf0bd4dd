//! The `KEY=VALUE` words of `chuhe match -engine` (and `-each`, and `perft-diff`'s engines):
//! an `EngineDraft` filled word by word, completed with `-each`'s settings into an
//! `EngineConfig`, and the time texts they use (`tc=`, `st=`, also read by `chuhe stats`).

use crate::matches::engine::{EngineConfig, Limit, Proto};
use crate::matches::ranks::Ranks;

/// `v` as a number, or an error naming `what`.
pub(super) fn number<T: std::str::FromStr>(what: &str, v: &str) -> Result<T, String> {
    v.parse().map_err(|_| format!("{what}: '{v}' is not a valid number"))
}

/// Seconds text (`12.5` or `m:ss`) to milliseconds.
fn seconds_ms(what: &str, v: &str) -> Result<u64, String> {
    let secs = match v.split_once(':') {
        Some((m, s)) => number::<f64>(what, m)? * 60.0 + number::<f64>(what, s)?,
        None => number::<f64>(what, v)?,
    };
    if !secs.is_finite() || !(0.0..=1e7).contains(&secs) {
        return Err(format!("{what}: '{v}' is out of range"));
    }
    Ok((secs * 1000.0).round() as u64)
}

/// Parses `tc=[moves/]time[+inc]`, times in seconds (or `m:ss`).
pub fn parse_tc(v: &str) -> Result<Limit, String> {
    let (moves, rest) = match v.split_once('/') {
        Some((m, r)) => (number::<u32>("tc moves", m)?, r),
        None => (0, v),
    };
    let (base, inc) = match rest.split_once('+') {
        Some((b, i)) => (seconds_ms("tc", b)?, seconds_ms("tc increment", i)?),
        None => (seconds_ms("tc", rest)?, 0),
    };
    if base == 0 && inc == 0 {
        return Err(format!("tc '{v}' gives no time"));
    }
    Ok(Limit::Clock { moves, base_ms: base, inc_ms: inc })
}

/// Engine settings before they are complete (`KEY=VALUE` words of `-engine`, also read by
/// `perft-diff`).
#[derive(Default, Clone)]
pub(super) struct EngineDraft {
    name: Option<String>,
    cmd: Option<String>,
    args: Vec<String>,
    dir: Option<String>,
    proto: Option<Proto>,
    options: Vec<(String, String)>,
    limit: Option<Limit>,
    limit_keys: Vec<String>,
    margin_ms: Option<u64>,
    timeout_ms: Option<u64>,
    latency_ms: Option<u64>,
    ponder: Option<bool>,
    ranks: Option<Ranks>,
}

impl EngineDraft {
    /// Applies one `KEY=VALUE` setting.
    pub(super) fn apply(&mut self, key: &str, v: &str) -> Result<(), String> {
        match key {
            "cmd" => self.cmd = Some(v.to_string()),
            "name" => self.name = Some(v.to_string()),
            "arg" => self.args.push(v.to_string()),
            "dir" => self.dir = Some(v.to_string()),
            "proto" => {
                self.proto = Some(match v {
                    "ucci" => Proto::Ucci,
                    "uci" => Proto::Uci,
                    "xboard" | "cecp" => Proto::Xboard,
                    _ => return Err(format!("proto '{v}': expected ucci, uci or xboard")),
                })
            }
            "tc" | "st" | "nodes" | "depth" => {
                let limit = match key {
                    "tc" => parse_tc(v)?,
                    "st" => Limit::MoveTime(seconds_ms("st", v)?.max(1)),
                    "nodes" => Limit::Nodes(number("nodes", v)?),
                    _ => Limit::Depth(number("depth", v)?),
                };
                self.limit = Some(limit);
                self.limit_keys.retain(|k| k != key);
                self.limit_keys.push(key.to_string());
            }
            "timemargin" => self.margin_ms = Some(number("timemargin", v)?),
            "timeout" => self.timeout_ms = Some(number("timeout", v)?),
            "latency" => self.latency_ms = Some(number("latency", v)?),
            "ponder" => {
                self.ponder = Some(match v {
                    "1" | "true" => true,
                    "0" | "false" => false,
                    _ => return Err(format!("ponder '{v}': expected 1 or 0 (or the bare word ponder)")),
                })
            }
            "ranks" => {
                self.ranks = Some(match v {
                    "0" => Ranks::FromZero,
                    "1" => Ranks::FromOne,
                    _ => return Err(format!("ranks '{v}': expected 0 (ranks 0-9) or 1 (ranks 1-10)")),
                })
            }
            _ => match key.strip_prefix("option.") {
                Some(name) if !name.is_empty() => self.options.push((name.to_string(), v.to_string())),
                _ => return Err(format!("unknown engine setting '{key}'")),
            },
        }
        Ok(())
    }

    /// `self` with `each` filling what it leaves unset.
    pub(super) fn with_defaults(&self, each: &EngineDraft) -> EngineDraft {
        let mut d = self.clone();
        d.name = d.name.or_else(|| each.name.clone());
        d.cmd = d.cmd.or_else(|| each.cmd.clone());
        d.dir = d.dir.or_else(|| each.dir.clone());
        d.proto = d.proto.or(each.proto);
        if d.limit.is_none() {
            d.limit = each.limit;
            d.limit_keys = each.limit_keys.clone();
        }
        d.margin_ms = d.margin_ms.or(each.margin_ms);
        d.timeout_ms = d.timeout_ms.or(each.timeout_ms);
        d.latency_ms = d.latency_ms.or(each.latency_ms);
        d.ponder = d.ponder.or(each.ponder);
        d.ranks = d.ranks.or(each.ranks);
        let mut args = each.args.clone();
        args.extend(d.args);
        d.args = args;
        let mut options = each.options.clone();
        options.extend(d.options);
        d.options = options;
        d
    }

    /// The engine's configuration; `index` numbers it in error messages.
    pub(super) fn finish(self, index: usize) -> Result<EngineConfig, String> {
        let cmd = self.cmd.ok_or_else(|| format!("engine {} needs cmd=", index + 1))?;
        if self.limit_keys.len() > 1 {
            return Err(format!("engine {}: give only one of tc=, st=, nodes=, depth=", index + 1));
        }
        let limit =
            self.limit.ok_or_else(|| format!("engine {} needs a limit: tc=, st=, nodes= or depth=", index + 1))?;
        let proto = self.proto.unwrap_or(Proto::Ucci);
        if proto == Proto::Xboard && matches!(limit, Limit::Nodes(_)) {
            return Err(format!("engine {}: proto=xboard has no node limit; use tc=, st= or depth=", index + 1));
        }
        let ponder = self.ponder.unwrap_or(false);
        if ponder && proto == Proto::Xboard {
            return Err(format!("engine {}: ponder is for proto=ucci or uci (not xboard)", index + 1));
        }
        if ponder && matches!(limit, Limit::Nodes(_) | Limit::Depth(_)) {
            return Err(format!("engine {}: ponder needs a clock (tc= or st=), not nodes= or depth=", index + 1));
        }
        let name = self.name.unwrap_or_else(|| {
            std::path::Path::new(&cmd).file_name().map_or(cmd.clone(), |n| n.to_string_lossy().into_owned())
        });
        Ok(EngineConfig {
            name,
            cmd,
            args: self.args,
            dir: self.dir,
            proto,
            options: self.options,
            limit,
            margin_ms: self.margin_ms.unwrap_or(0),
            timeout_ms: self.timeout_ms.unwrap_or(60_000),
            latency_ms: self.latency_ms.unwrap_or(0),
            ponder,
            ranks: self.ranks,
            debug: None,
        })
    }
}
