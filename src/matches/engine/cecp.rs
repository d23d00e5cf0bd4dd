//! CECP (XBoard protocol 2) as the GUI side speaks it: `xboard`, `protover 2` and the
//! engine's `feature`s, each answered; `new`, the variant, `force` so it thinks only on `go`,
//! the time control; the game told as `setboard` and the moves it has not seen, `time`/`otim`,
//! `draw`, `go`; `?` to stop; `force` and a `ping` after its move. Below the exchange, the
//! pieces it reads and writes: `feature` lines, the time-control commands, thinking lines and
//! result claims.

use super::config::{seconds, EngineConfig, Limit};
use super::dialect::{Dialect, HANDSHAKE};
use super::pipe::Pipe;
use super::turn::{clean, Ask, Eval, Failure, Reply};
use crate::board::{Move, START_FEN};
use crate::matches::ranks::Ranks;
use std::time::{Duration, Instant};

/// How long a CECP engine that sent `feature done=0` may take to send `done=1`.
const FEATURE_DONE: Duration = Duration::from_secs(60);

/// A CECP engine: what it announced and how far it follows the game.
pub(super) struct Cecp {
    /// Its time control, sent at each new game.
    limit: Limit,
    timeout_ms: u64,
    ping: bool,
    usermove: bool,
    /// `draw=0` asks not to be sent `draw`.
    no_draw: bool,
    /// `memory=1`: it takes `memory N` (its hash size).
    memory: bool,
    /// `smp=1`: it takes `cores N`.
    smp: bool,
    /// `variants=...`, if announced.
    variants: Option<String>,
    /// The engine has this game's start position.
    set_up: bool,
    /// Moves of the game the engine has seen.
    synced: usize,
    /// The last `ping` number.
    pings: u32,
}

impl Cecp {
    /// A CECP engine that will play under `limit`.
    pub fn new(limit: Limit, timeout_ms: u64) -> Cecp {
        Cecp {
            limit,
            timeout_ms,
            ping: false,
            usermove: false,
            no_draw: false,
            memory: false,
            smp: false,
            variants: None,
            set_up: false,
            synced: 0,
            pings: 0,
        }
    }

    /// `xboard`, `protover 2`, then `feature` lines (each answered `accepted`/`rejected`) up
    /// to `feature done=1`; the option names it announced. An engine that sends none within
    /// the handshake time is taken as a protocol-1 engine, with no features; `done=0` asks for
    /// more time.
    fn features(&mut self, pipe: &mut Pipe) -> Result<Vec<String>, Failure> {
        pipe.send("xboard")?;
        pipe.send("protover 2")?;
        let mut deadline = Instant::now() + HANDSHAKE;
        let mut options = Vec::new();
        loop {
            let line = match pipe.next_line(deadline) {
                Err(Failure::Stalled) => return Ok(options),
                line => line?,
            };
            let mut done = false;
            for (name, value) in feature_words(&line) {
                let on = value == "1";
                match name.as_str() {
                    "ping" => self.ping = on,
                    "usermove" => self.usermove = on,
                    "draw" => self.no_draw = value == "0",
                    "memory" => self.memory = on,
                    "smp" => self.smp = on,
                    "variants" => self.variants = Some(value.clone()),
                    "option" => options.push(option_name(&value).to_string()),
                    "done" if on => done = true,
                    "done" => deadline = Instant::now() + FEATURE_DONE,
                    _ => {}
                }
                let answer = if refused(&name, &value) { "rejected" } else { "accepted" };
                pipe.send(&format!("{answer} {name}"))?;
            }
            if done {
                return Ok(options);
            }
        }
    }

    /// Brings the engine (in force mode) to the game: `setboard` for a start other than the
    /// standard one, then the moves it has not seen.
    fn catch_up(&mut self, pipe: &mut Pipe, start_fen: &str, moves: &[Move], ranks: Ranks) -> Result<(), Failure> {
        if !self.set_up {
            if start_fen != START_FEN {
                // Sent even without `setboard=1`: protocol 1's `edit` cannot set up xiangqi.
                pipe.send(&format!("setboard {start_fen}"))?;
            }
            self.set_up = true;
        }
        for &m in moves.iter().skip(self.synced) {
            let text = ranks.to_engine(&m.to_string());
            let line = if self.usermove { format!("usermove {text}") } else { text };
            pipe.send(&line)?;
        }
        self.synced = moves.len();
        Ok(())
    }
}

impl Dialect for Cecp {
    fn handshake(&mut self, pipe: &mut Pipe, cfg: &EngineConfig) -> Result<Option<Vec<String>>, String> {
        let options = self.features(pipe).map_err(|f| pipe.fail("handshake (feature done=1)", f))?;
        if let Some(v) = self.variants.as_deref() {
            if !v.split(',').any(|v| v.trim() == "xiangqi") {
                let shown: String = v.chars().take(60).collect();
                return Err(format!("engine '{}' does not play xiangqi (its variants: {shown})", cfg.name));
            }
        }
        Ok(Some(options))
    }

    fn option_line(&self, name: &str, value: &str) -> String {
        format!("option {name}={value}")
    }

    fn hash_line(&self, mb: u32) -> Option<String> {
        self.memory.then(|| format!("memory {mb}"))
    }

    fn threads_line(&self, n: u32) -> Option<String> {
        self.smp.then(|| format!("cores {n}"))
    }

    /// `ping N` → `pong N`, when the engine has `ping`; else nothing to wait for.
    fn sync(&mut self) -> Option<(String, String)> {
        if !self.ping {
            return None;
        }
        self.pings += 1;
        Some((format!("ping {}", self.pings), format!("pong {}", self.pings)))
    }

    /// `new`, the variant, `force` (it only thinks when sent `go`), its time control, `post`
    /// and `easy`.
    fn new_game(&mut self, pipe: &mut Pipe) -> Result<(), Failure> {
        pipe.send("new")?;
        if self.variants.is_some() {
            pipe.send("variant xiangqi")?;
        }
        pipe.send("force")?;
        for line in time_control(self.limit, self.timeout_ms) {
            pipe.send(&line)?;
        }
        pipe.send("post")?;
        pipe.send("easy")?;
        self.set_up = false;
        self.synced = 0;
        Ok(())
    }

    /// The moves it has not seen, the clocks (centiseconds), a draw offer, `go`.
    fn ask(&mut self, pipe: &mut Pipe, ask: Ask, ranks: Ranks) -> Result<(), Failure> {
        self.catch_up(pipe, &ask.game.start().to_fen(), ask.game.moves(), ranks)?;
        if let Some(c) = ask.own_clock() {
            pipe.send(&format!("time {}", c.left_ms / 10))?;
        }
        if let Some(c) = ask.opp_clock() {
            pipe.send(&format!("otim {}", c.left_ms / 10))?;
        }
        if ask.draw && !self.no_draw {
            pipe.send("draw")?;
        }
        pipe.send("go")
    }

    fn stop(&self) -> &'static str {
        "?"
    }

    /// One line while thinking; `true` once it ends the move.
    fn read(&mut self, line: &str, reply: &mut Reply, ranks: Ranks) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["move", mv, ..] => {
                reply.bestmove = Some(ranks.to_ours(mv));
                self.synced += 1;
                true
            }
            ["Illegal", "move" | "move:", ..] => {
                reply.refused = Some(clean(line, 60));
                true
            }
            ["resign", ..] => {
                reply.resign = true;
                true
            }
            ["offer", "draw", ..] => {
                reply.draw = true;
                false
            }
            _ => {
                if let Some(c) = claim(line) {
                    reply.claim = Some(clean(c, 80));
                    return true;
                }
                if let Some((depth, eval)) = thinking(line) {
                    reply.eval = Some(eval);
                    reply.depth = Some(depth);
                }
                false
            }
        }
    }

    /// `force`, and `ping` answered only once the engine has played its move on its own
    /// board: a move sent sooner can meet the board before it (Fairy-Stockfish then answers
    /// `Illegal move`). It never thinks on a move we pass on.
    fn after_move(&mut self, pipe: &mut Pipe) -> Result<(), Failure> {
        pipe.send("force")?;
        match self.sync() {
            Some((ask, answer)) => pipe.exchange(&ask, &answer, HANDSHAKE).map(|_| ()),
            None => Ok(()),
        }
    }
}

/// The words of a `feature` line as (name, value) pairs, quotes removed:
/// `feature ping=1 myname="A B" done=1`.
fn feature_words(line: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = line.trim_start().strip_prefix("feature").unwrap_or("").trim_start();
    while let Some(eq) = rest.find('=') {
        let name = rest[..eq].trim().to_string();
        let after = &rest[eq + 1..];
        let (value, next) = match after.strip_prefix('"') {
            Some(q) => match q.find('"') {
                Some(end) => (&q[..end], &q[end + 1..]),
                None => (q, ""),
            },
            None => after.split_at(after.find(char::is_whitespace).unwrap_or(after.len())),
        };
        if name.is_empty() || name.contains(char::is_whitespace) {
            break; // not a feature line we can read further
        }
        out.push((name, value.to_string()));
        rest = next.trim_start();
    }
    out
}

/// Whether a feature value we cannot honour is one to refuse: `san=1` (we read coordinates
/// only), `sigint=1`/`sigterm=1` (we send no signals).
fn refused(name: &str, value: &str) -> bool {
    matches!(name, "san" | "sigint" | "sigterm") && value == "1"
}

/// The option names in `feature option="NAME -type ..."`.
fn option_name(value: &str) -> &str {
    value.find(" -").map_or(value, |i| &value[..i]).trim()
}

/// `level` base time: whole minutes, else `m:ss` (fractions of a second kept).
fn level_base(ms: u64) -> String {
    let (min, rest) = (ms / 60_000, ms % 60_000);
    if rest == 0 {
        return min.to_string();
    }
    let secs = seconds(rest);
    let pad = if rest < 10_000 { "0" } else { "" };
    format!("{min}:{pad}{secs}")
}

/// The commands that give an engine `limit` (sent after `new`, which clears `sd`). A depth
/// limit also gets `st` at the move timeout, so an engine always has a time to keep to.
fn time_control(limit: Limit, timeout_ms: u64) -> Vec<String> {
    match limit {
        Limit::Clock { moves, base_ms, inc_ms } => {
            vec![format!("level {moves} {} {}", level_base(base_ms), seconds(inc_ms))]
        }
        Limit::MoveTime(ms) => vec![format!("st {}", seconds(ms))],
        Limit::Depth(d) => vec![format!("st {}", seconds(timeout_ms.max(1000))), format!("sd {d}")],
        // Refused when the match is set up: CECP has no node limit.
        Limit::Nodes(_) => Vec::new(),
    }
}

/// A thinking line, `ply score time nodes pv...` (score in centipawns from the engine's side,
/// mates as ±(100000 + moves)): its depth and eval.
fn thinking(line: &str) -> Option<(u32, Eval)> {
    let mut w = line.split_whitespace();
    let ply: u32 = w.next()?.trim_end_matches(|c: char| !c.is_ascii_digit()).parse().ok()?;
    let score: i64 = w.next()?.parse().ok()?;
    w.next()?.parse::<u64>().ok()?;
    w.next()?.parse::<u64>().ok()?;
    let eval = if score.abs() >= 100_000 {
        let moves = (score.abs() - 100_000).min(1000) as i32;
        Eval::Mate(if score > 0 { moves } else { -moves })
    } else {
        Eval::Cp(score.clamp(-99_999, 99_999) as i32)
    };
    Some((ply, eval))
}

/// A result claim, `1-0 {...}`, `0-1 {...}` or `1/2-1/2 {...}`: the line as the claim.
fn claim(line: &str) -> Option<&str> {
    let first = line.split_whitespace().next()?;
    matches!(first, "1-0" | "0-1" | "1/2-1/2").then_some(line.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_feature_lines() {
        let f = feature_words(r#"feature ping=1 myname="Fairy SF 1.0" variants="normal,xiangqi" done=1"#);
        let want = [("ping", "1"), ("myname", "Fairy SF 1.0"), ("variants", "normal,xiangqi"), ("done", "1")];
        assert_eq!(f, want.map(|(a, b)| (a.to_string(), b.to_string())).to_vec());
        assert_eq!(
            feature_words(r#"feature option="Move Overhead -spin 30 0 5000""#)[0].1,
            "Move Overhead -spin 30 0 5000"
        );
        assert_eq!(option_name("Move Overhead -spin 30 0 5000"), "Move Overhead");
        assert_eq!(option_name("Clear Hash -button"), "Clear Hash");
        assert!(feature_words("feature").is_empty());
        assert!(refused("san", "1") && !refused("san", "0") && !refused("ping", "1"));
    }

    #[test]
    fn soak_lines_only_for_announced_features() {
        let mut e = Cecp::new(Limit::Depth(3), 0);
        assert_eq!((e.hash_line(64), e.threads_line(2)), (None, None));
        (e.memory, e.smp) = (true, true);
        assert_eq!((e.hash_line(64), e.threads_line(2)), (Some("memory 64".into()), Some("cores 2".into())));
    }

    #[test]
    fn time_control_commands() {
        let tc = |moves, base_ms, inc_ms| time_control(Limit::Clock { moves, base_ms, inc_ms }, 0);
        assert_eq!(tc(40, 60_000, 0), ["level 40 1 0"]);
        assert_eq!(tc(0, 10_000, 100), ["level 0 0:10 0.1"]);
        assert_eq!(tc(0, 90_000, 500), ["level 0 1:30 0.5"]);
        assert_eq!(tc(0, 2_500, 50), ["level 0 0:02.5 0.05"]);
        assert_eq!(time_control(Limit::MoveTime(500), 0), ["st 0.5"]);
        assert_eq!(time_control(Limit::Depth(4), 60_000), ["st 60", "sd 4"]);
    }

    #[test]
    fn reads_thinking_and_claims() {
        assert_eq!(thinking("9 35 120 5000 h2e2 h9g7"), Some((9, Eval::Cp(35))));
        assert_eq!(thinking("12& -120 40 900 0 0\t h2e2"), Some((12, Eval::Cp(-120))));
        assert_eq!(thinking("5 100003 1 20 a0a9"), Some((5, Eval::Mate(3))));
        assert_eq!(thinking("5 -100002 1 20 a0a9"), Some((5, Eval::Mate(-2))));
        assert_eq!(thinking("move h2e2"), None);
        assert_eq!(thinking("1 2 3"), None);
        assert_eq!(claim("1/2-1/2 {Draw: repetition}"), Some("1/2-1/2 {Draw: repetition}"));
        assert_eq!(claim("resign"), None);
    }
}
