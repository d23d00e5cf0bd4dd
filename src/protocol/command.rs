//! Typed commands: what every dialect's parser produces and the session executes, plus the
//! parsers the dialects share (`go`, the shared commands, positions, moves, `bench`).

use super::words::{clip, parse_count, small, Words};
use crate::board::Move;

/// Where a `position` or `probe` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The standard start position.
    StartPos,
    /// A FEN (not yet validated).
    Fen(String),
}

/// A start position plus moves (moves parsed as text, legality checked by the session).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCmd {
    /// The start.
    pub start: Start,
    /// Moves to play from it.
    pub moves: Vec<Move>,
}

/// The parameters of a `go` command, in engine units (milliseconds).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// Think on the opponent's time until `ponderhit` or `stop`.
    pub pondering: bool,
    /// The opponent offers a draw (UCCI `go draw`).
    pub draw_offer: bool,
    /// Search until `stop`.
    pub infinite: bool,
    /// A bare `go` (no words): asks for a move like a timed `go`, so the book answers it,
    /// though without a book it searches until `stop`.
    pub plain: bool,
    /// Depth limit.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Look for a mate in this many moves.
    pub mate: Option<u32>,
    /// Exact time for this move.
    pub movetime_ms: Option<u64>,
    /// The mover's clock, when the dialect says "own" time (UCCI `time`).
    pub own_time_ms: Option<u64>,
    /// The mover's increment (UCCI `increment`).
    pub own_inc_ms: Option<u64>,
    /// Clocks by colour, Red first (UCI `wtime`/`btime`).
    pub side_time_ms: [Option<u64>; 2],
    /// Increments by colour, Red first (UCI `winc`/`binc`).
    pub side_inc_ms: [Option<u64>; 2],
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Restrict the root to these moves (UCI `searchmoves`).
    pub searchmoves: Vec<Move>,
    /// Notes for the GUI about the command, sent before the search starts (UCCI: a time
    /// that looks like milliseconds while times are seconds).
    pub notes: Vec<String>,
}

impl Go {
    /// Whether anything limits the search (else it runs until `stop`).
    pub fn has_limit(&self) -> bool {
        self.depth.is_some()
            || self.nodes.is_some()
            || self.mate.is_some()
            || self.movetime_ms.is_some()
            || self.own_time_ms.is_some()
            || self.side_time_ms.iter().any(Option::is_some)
    }

    /// Whether the book may answer: a game move (a clock or `movetime`, or a bare `go`), not
    /// pondering and not an analysis (`infinite`, or only `depth`/`nodes`/`mate`).
    pub fn wants_book(&self) -> bool {
        let clock =
            self.movetime_ms.is_some() || self.own_time_ms.is_some() || self.side_time_ms.iter().any(Option::is_some);
        !self.pondering && (self.plain || (clock && !self.infinite))
    }
}

/// The words of `bench`, Pikafish's order: `bench [hash MB] [threads] [depth] [default]
/// [depth]` (its other position sets and limit types are not offered).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchArgs {
    /// Table size, MB.
    pub hash_mb: u64,
    /// Search threads.
    pub threads: u64,
    /// Depth of each search.
    pub depth: u32,
}

/// The largest `bench` depth (as `chuhe bench --depth`).
pub const MAX_BENCH_DEPTH: u64 = 30;

impl Default for BenchArgs {
    fn default() -> Self {
        BenchArgs { hash_mb: 16, threads: 1, depth: crate::bench::DEFAULT_DEPTH }
    }
}

/// Parses the words after `bench`.
fn parse_bench(w: &mut Words) -> Result<BenchArgs, String> {
    let mut a = BenchArgs::default();
    let mut number = |what: &str, min: u64, max: u64| -> Result<Option<u64>, String> {
        let Some(x) = w.next_word() else { return Ok(None) };
        match parse_count(x) {
            Some(n) if (min..=max).contains(&n) => Ok(Some(n)),
            _ => Err(format!("bench: {what} must be an integer in {min}..{max}, got '{}'", clip(x))),
        }
    };
    if let Some(h) = number("the hash size (MB)", 1, super::options::MAX_HASH_MB)? {
        a.hash_mb = h;
    }
    if let Some(t) = number("the thread count", 1, super::options::MAX_THREADS)? {
        a.threads = t;
    }
    if let Some(d) = number("the depth", 1, MAX_BENCH_DEPTH)? {
        a.depth = d as u32;
    }
    if let Some(set) = w.next_word().filter(|x| *x != "default") {
        return Err(format!("bench: only the built-in positions ('default') are offered, not '{}'", clip(set)));
    }
    if let Some(kind) = w.next_word().filter(|x| *x != "depth") {
        return Err(format!("bench: only a depth limit ('depth') is offered, not '{}'", clip(kind)));
    }
    match w.next_word() {
        Some(x) => Err(format!("bench: unexpected word '{}'", clip(x))),
        None => Ok(a),
    }
}

/// One command from the GUI, whatever the dialect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Blank line: nothing to do.
    Empty,
    /// The dialect's opener again (`ucci`/`uci`): repeat the handshake.
    Hello,
    /// `isready` → `readyok`.
    IsReady,
    /// Set an option; `name` as sent (matched case-insensitively).
    SetOption {
        /// Option name.
        name: String,
        /// Value text, if any.
        value: Option<String>,
    },
    /// New game: forget the table and the resign history.
    NewGame,
    /// Set the position.
    Position(PositionCmd),
    /// Forbid these root moves until the next `position`.
    BanMoves(Vec<Move>),
    /// Start thinking.
    Go(Go),
    /// Count leaf nodes to this depth from the current position.
    Perft(u32),
    /// The pondered move was played (`draw`: the opponent offers a draw with it).
    PonderHit {
        /// Draw offered together with the ponderhit.
        draw: bool,
    },
    /// Finish thinking now.
    Stop,
    /// Look a position up in the hash table.
    Probe(PositionCmd),
    /// Print the board and FEN.
    Display,
    /// Print the evaluation breakdown.
    Eval,
    /// Mirror the position: ranks reversed, colours and the side to move swapped.
    Flip,
    /// Print how the binary was built.
    Compiler,
    /// Search the bench positions and print Pikafish's closing block.
    Bench(BenchArgs),
    /// Leave.
    Quit,
}

/// Parses the words after `go`: those UCCI and UCI share here, the dialect's own through `own`
/// (which answers `false` for a word it does not know either). `go perft N` is
/// [`Command::Perft`]; a `go` without any limit searches until `stop`.
pub fn parse_go(
    w: &mut Words,
    mut own: impl FnMut(&mut Go, &str, &mut Words) -> Result<bool, String>,
) -> Result<Command, String> {
    let mut go = Go::default();
    while let Some(word) = w.next_word() {
        match word {
            "ponder" => go.pondering = true,
            "infinite" => go.infinite = true,
            "depth" => go.depth = Some(small(w.count(word)?)),
            "nodes" => go.nodes = Some(w.count(word)?),
            "movestogo" => go.movestogo = Some(small(w.count(word)?)),
            "perft" => return Ok(Command::Perft(small(w.count(word)?))),
            _ if own(&mut go, word, w)? => {}
            other => return Err(format!("go: unknown word '{}'", clip(other))),
        }
    }
    go.plain = !go.has_limit() && !go.infinite && !go.pondering && go.searchmoves.is_empty() && !go.draw_offer;
    go.infinite |= !go.has_limit();
    Ok(Command::Go(go))
}

/// The commands UCCI and UCI spell alike: `isready`, `position`, `stop`, `probe`, `quit`,
/// `d`, `eval`, and Pikafish's `flip`, `compiler` and `bench`; anything else is an unknown
/// command.
pub fn parse_shared(cmd: &str, w: &mut Words) -> Result<Command, String> {
    Ok(match cmd {
        "isready" => bare(cmd, w, Command::IsReady)?,
        "position" => Command::Position(parse_position(w).map_err(|e| format!("position: {e}"))?),
        "stop" => bare(cmd, w, Command::Stop)?,
        "probe" => Command::Probe(parse_position(w).map_err(|e| format!("probe: {e}"))?),
        "quit" => bare(cmd, w, Command::Quit)?,
        "d" => Command::Display,
        "eval" => Command::Eval,
        "flip" => bare(cmd, w, Command::Flip)?,
        "compiler" => bare(cmd, w, Command::Compiler)?,
        "bench" => Command::Bench(parse_bench(w)?),
        other => return Err(format!("unknown command '{}'", clip(other))),
    })
}

/// `c`, for a command `cmd` that takes no words, if no word follows.
pub fn bare(cmd: &str, w: &Words, c: Command) -> Result<Command, String> {
    match w.peek() {
        Some(x) => Err(format!("{cmd}: unexpected word '{}'", clip(x))),
        None => Ok(c),
    }
}

/// Parses `startpos | fen <fields...>` then an optional `moves m1 m2 ...` (used by
/// `position` and `probe` in every dialect). Moves are checked for form only.
pub fn parse_position(words: &mut Words) -> Result<PositionCmd, String> {
    let start = match words.next_word() {
        Some("startpos") => Start::StartPos,
        Some("fen") => {
            let mut fields = Vec::new();
            while let Some(w) = words.peek() {
                if w == "moves" {
                    break;
                }
                fields.push(w);
                words.next_word();
            }
            if fields.is_empty() {
                return Err("'fen' needs a FEN string".to_string());
            }
            Start::Fen(fields.join(" "))
        }
        Some(other) => return Err(format!("expected 'startpos' or 'fen', got '{}'", clip(other))),
        None => return Err("expected 'startpos' or 'fen'".to_string()),
    };
    let mut moves = Vec::new();
    match words.next_word() {
        None => {}
        Some("moves") => {
            let mut index = 0;
            while let Some(w) = words.next_word() {
                index += 1;
                let m = Move::parse(w).map_err(|_| format!("malformed move '{}' (move {index})", clip(w)))?;
                moves.push(m);
            }
        }
        Some(other) => return Err(format!("expected 'moves', got '{}'", clip(other))),
    }
    Ok(PositionCmd { start, moves })
}

/// Parses a list of moves (for `banmoves` and `searchmoves`), failing on the first malformed one.
pub fn parse_moves<'a>(words: impl IntoIterator<Item = &'a str>) -> Result<Vec<Move>, String> {
    words
        .into_iter()
        .enumerate()
        .map(|(i, w)| Move::parse(w).map_err(|_| format!("malformed move '{}' (move {})", clip(w), i + 1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_words() {
        let b = |line: &str| parse_bench(&mut Words::new(line));
        assert_eq!(b(""), Ok(BenchArgs::default()));
        assert_eq!(b("64 2 5 default depth"), Ok(BenchArgs { hash_mb: 64, threads: 2, depth: 5 }));
        assert_eq!(b("16 1 3"), Ok(BenchArgs { hash_mb: 16, threads: 1, depth: 3 }));
        assert!(b("16 1 99").unwrap_err().contains("depth"));
        assert!(b("x").unwrap_err().contains("hash"));
        assert!(b("16 1 5 bench.fens").unwrap_err().contains("'default'"));
        assert!(b("16 1 5 default movetime").unwrap_err().contains("'depth'"));
        assert!(b("16 1 5 default depth x").unwrap_err().contains("unexpected"));
    }

    #[test]
    fn positions() {
        let p = parse_position(&mut Words::new("startpos moves h2e2 h9g7")).unwrap();
        assert_eq!(p.start, Start::StartPos);
        assert_eq!(p.moves.len(), 2);
        let p = parse_position(&mut Words::new("fen 9/9/9/9/9/9/9/9/9/9 w - - 0 1 moves")).unwrap();
        assert_eq!(p.start, Start::Fen("9/9/9/9/9/9/9/9/9/9 w - - 0 1".into()));
        let e = parse_position(&mut Words::new("startpos moves h2e2 zz h9g7")).unwrap_err();
        assert!(e.contains("'zz'") && e.contains("move 2"), "{e}");
        assert_eq!(
            parse_position(&mut Words::new("startpos h2e2")).unwrap_err().to_string(),
            "expected 'moves', got 'h2e2'"
        );
        assert_eq!(parse_position(&mut Words::new("fen")).unwrap_err().to_string(), "'fen' needs a FEN string");
        assert_eq!(parse_position(&mut Words::new("")).unwrap_err().to_string(), "expected 'startpos' or 'fen'");
    }
}
