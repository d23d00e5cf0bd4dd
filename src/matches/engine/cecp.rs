//! CECP (XBoard protocol 2) as the GUI side speaks it: `xboard`, `protover 2` and the
//! engine's `feature`s, each answered; `new`, the variant, `force` so it thinks only on `go`,
//! the time control; the game told as `setboard` and the moves it has not seen, `time`/`otim`,
//! `draw`, `go`; `?` to stop; `force` and a `ping` after its move.

use super::pipe::Pipe;
use super::{clean, Ask, Dialect, EngineConfig, Failure, Limit, Reply, HANDSHAKE};
use crate::board::Move;
use crate::matches::openings::START_FEN;
use crate::matches::ranks::Ranks;
use crate::matches::xboard;
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
            for (name, value) in xboard::features(&line) {
                let on = value == "1";
                match name.as_str() {
                    "ping" => self.ping = on,
                    "usermove" => self.usermove = on,
                    "draw" => self.no_draw = value == "0",
                    "variants" => self.variants = Some(value.clone()),
                    "option" => options.push(xboard::option_name(&value).to_string()),
                    "done" if on => done = true,
                    "done" => deadline = Instant::now() + FEATURE_DONE,
                    _ => {}
                }
                let answer = if xboard::refused(&name, &value) { "rejected" } else { "accepted" };
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
        for line in xboard::time_control(self.limit, self.timeout_ms) {
            pipe.send(&line)?;
        }
        pipe.send("post")?;
        pipe.send("easy")?;
        self.set_up = false;
        self.synced = 0;
        Ok(())
    }

    /// The moves it has not seen, the clocks, a draw offer, `go`. A line dialect's request
    /// cannot be said in CECP: the engine is then taken as gone.
    fn ask(&mut self, pipe: &mut Pipe, ask: Ask, ranks: Ranks) -> Result<(), Failure> {
        let Ask::Xboard { start_fen, moves, time_ms, otim_ms, draw } = ask else {
            return Err(Failure::Disconnected);
        };
        self.catch_up(pipe, start_fen, moves, ranks)?;
        if let Some(t) = time_ms {
            pipe.send(&format!("time {}", t / 10))?;
        }
        if let Some(t) = otim_ms {
            pipe.send(&format!("otim {}", t / 10))?;
        }
        if draw && !self.no_draw {
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
                if let Some(c) = xboard::claim(line) {
                    reply.claim = Some(clean(c, 80));
                    return true;
                }
                if let Some((depth, eval)) = xboard::thinking(line) {
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
