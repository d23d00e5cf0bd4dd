//! One turn in no protocol's words: what the side to move is asked (`Ask`, each side's
//! `SideClock`), what it answers (`Reply`, with the `Eval` it reported) and how an answer
//! fails (`Failure`). It reads `config.rs` only.

use super::config::Limit;
use crate::board::Color;
use crate::rules::Game;

/// How an engine failed to answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The process exited or closed its pipes.
    Disconnected,
    /// The process is alive but did not answer in time, not even to `stop`.
    Stalled,
}

/// A score as an engine reports it, from its own side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: mated).
    Mate(i32),
}

impl Eval {
    /// Centipawns, a mate as ±(30000 − moves), for the score adjudication.
    pub fn centipawns(self) -> i32 {
        match self {
            Eval::Cp(cp) => cp,
            Eval::Mate(n) if n > 0 => 30_000 - n,
            Eval::Mate(n) => -30_000 - n,
        }
    }
}

/// An engine's answer to a move request.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// The move text (ranks 0–9); `None` for `nobestmove`, `bestmove (none)` or no move.
    pub bestmove: Option<String>,
    /// The reply it expects (`bestmove M ponder P`), ranks 0–9.
    pub ponder: Option<String>,
    /// `bestmove ... draw` / `offer draw`: offers or accepts a draw.
    pub draw: bool,
    /// `bestmove ... resign` / `resign`.
    pub resign: bool,
    /// A CECP result claim sent instead of a move (advisory: the rules judge).
    pub claim: Option<String>,
    /// A CECP engine's `Illegal move: M` for a move we passed on (legal by the rules).
    pub refused: Option<String>,
    /// The last score reported while thinking (principal line only).
    pub eval: Option<Eval>,
    /// The depth of the line that gave `eval`.
    pub depth: Option<u32>,
    /// Milliseconds from sending `go` to reading the move.
    pub elapsed_ms: u64,
    /// The answer came only after `stop` was sent at the deadline.
    pub late: bool,
    /// CPU milliseconds the engine process used meanwhile, where the system tells.
    pub cpu_ms: Option<u64>,
}

/// One side's clock when the side to move is asked (sides with a clock limit only).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideClock {
    /// Time left, ms.
    pub left_ms: u64,
    /// Increment per move, ms.
    pub inc_ms: u64,
    /// Moves to the next time control (`None`: sudden death or increment only).
    pub movestogo: Option<u32>,
}

/// What the side to move is asked, in no protocol's words: each dialect says it its own way
/// (UCCI and UCI as `position` and `go` lines, CECP as the moves the engine has not seen,
/// `time`/`otim`, `draw` and `go`).
pub struct Ask<'a> {
    /// The game so far: its start and every move, the side to move's last.
    pub game: &'a Game,
    /// The asked engine's limit.
    pub limit: Limit,
    /// Red's and Black's clocks, for a side whose limit is a clock.
    pub clocks: [Option<SideClock>; 2],
    /// The opponent offers a draw.
    pub draw: bool,
    /// Think on the opponent's time (`go ponder`): the game ends with the predicted reply.
    pub ponder: bool,
}

impl Ask<'_> {
    /// The asked engine's side.
    pub(super) fn side(&self) -> Color {
        self.game.position().side_to_move()
    }

    /// The asked engine's clock.
    pub(super) fn own_clock(&self) -> Option<SideClock> {
        self.clocks[self.side().index()]
    }

    /// The opponent's clock.
    pub(super) fn opp_clock(&self) -> Option<SideClock> {
        self.clocks[self.side().opp().index()]
    }
}

/// Words for a failure, for error messages.
pub fn describe(f: Failure) -> &'static str {
    match f {
        Failure::Disconnected => "the engine exited",
        Failure::Stalled => "no answer in time",
    }
}

/// An engine's text for a game's end reason: at most `max` characters, braces (which would end
/// the PGN comment it goes into) as parentheses.
pub(super) fn clean(text: &str, max: usize) -> String {
    let map = |c| match c {
        '{' => '(',
        '}' => ')',
        c => c,
    };
    text.trim().chars().take(max).map(map).collect()
}
