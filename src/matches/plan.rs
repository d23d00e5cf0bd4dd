//! A match's plan: its settings (`MatchConfig`) and which game is whose — game `i`'s pair,
//! colours, opening and round (`Spot`), and the slice of game numbers a shard plays. Game `i`
//! depends only on `i` and the settings, so shards and resumed matches play the same games.

use super::engine::EngineConfig;
use super::game::Adjudication;
use super::openings::Opening;
use super::stats::Sprt;

/// Where `-debug` logs the engines' lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DebugTo {
    /// Standard error.
    Stderr,
    /// A file (created afresh).
    File(String),
}

/// A whole match's settings.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The engines (two for a match, more for a round-robin); a match's statistics are from
    /// the first one's side.
    pub engines: Vec<EngineConfig>,
    /// Games per round (per pair of engines).
    pub games: usize,
    /// Rounds.
    pub rounds: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// Openings, used in order.
    pub openings: Vec<Opening>,
    /// Consecutive games on each opening (colours alternate every game).
    pub repeat: usize,
    /// PGN file to append games to, in game order.
    pub pgnout: Option<String>,
    /// `-resume`: continue the match whose finished games `pgnout` holds.
    pub resume: bool,
    /// `-soak`: before each game, each engine gets a [`Change`](super::engine::Change) drawn from `seed`.
    pub soak: bool,
    /// `-srand` (or the clock's): the opening order and the soak's changes.
    pub seed: u64,
    /// SPRT parameters; a two-engine match stops at a decision.
    pub sprt: Option<Sprt>,
    /// Score adjudication.
    pub adjudication: Adjudication,
    /// Print Elo and SPRT lines every this many games (and at the end).
    pub rating_interval: usize,
    /// PGN `[Event]`.
    pub event: String,
    /// Whether to keep a live progress line (stdout is a terminal).
    pub live: bool,
    /// `(k, n)`: play only the k-th (1-based) of n contiguous slices of the game numbers.
    pub shard: Option<(usize, usize)>,
    /// `-debug`: log every line to and from the engines.
    pub debug: Option<DebugTo>,
}

/// Who plays game `i` and from which opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spot {
    /// The index of the pair in [`MatchConfig::pairs`].
    pub pair: usize,
    /// Red's engine.
    pub red: usize,
    /// Black's engine.
    pub black: usize,
    /// Whether the pair's first engine has Red.
    pub first_red: bool,
    /// The opening's index.
    pub opening: usize,
    /// The round, from 0.
    pub round: usize,
}

impl MatchConfig {
    /// Every pair of engines, in order: `(0, 1)`, `(0, 2)`, ..., `(1, 2)`, ...
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        let n = self.engines.len();
        (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))).collect()
    }

    /// Games in the whole match (all shards): every pair plays `games` per round.
    pub fn total_games(&self) -> usize {
        self.games * self.rounds * self.pairs().len()
    }

    /// Game `i` (0-based): round by round, each pair's games in a row. Within a pair, its
    /// k-th game gives the pair's first engine Red when k is even and uses opening k/repeat,
    /// so every pair plays the same openings with colours swapped (and two engines' game k is
    /// game k of the match).
    pub fn spot(&self, i: usize) -> Spot {
        let pairs = self.pairs();
        let games = self.games.max(1);
        let per_round = games * pairs.len().max(1);
        let (round, rest) = (i / per_round, i % per_round);
        let pair = rest / games;
        let k = round * games + rest % games;
        let (a, b) = pairs.get(pair).copied().unwrap_or((0, 1));
        let first_red = first_is_red(k);
        let (red, black) = if first_red { (a, b) } else { (b, a) };
        let opening = (k / self.repeat.max(1)) % self.openings.len().max(1);
        Spot { pair, red, black, first_red, opening, round }
    }

    /// The game numbers (0-based) this process plays: all of them, or its shard's slice.
    /// Game `i` has the same opening and colours whichever process plays it.
    pub fn game_range(&self) -> std::ops::Range<usize> {
        shard_range(self.total_games(), self.shard)
    }
}

/// Game numbers of shard `(k, n)` of `total` games: contiguous, so the colour-swapped pairs on
/// one opening stay together; all games without a (valid) shard.
fn shard_range(total: usize, shard: Option<(usize, usize)>) -> std::ops::Range<usize> {
    match shard {
        Some((k, n)) if (1..=n).contains(&k) => (k - 1) * total / n..k * total / n,
        _ => 0..total,
    }
}

/// Whether a pair's first engine has Red in its game `k` (0-based): colours alternate.
fn first_is_red(k: usize) -> bool {
    k.is_multiple_of(2)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A config of `n` engines (no processes are started).
    pub(crate) fn config(n: usize, games: usize, rounds: usize, repeat: usize) -> MatchConfig {
        let engine = |i: usize| EngineConfig {
            name: format!("E{i}"),
            cmd: String::new(),
            args: vec![],
            dir: None,
            proto: crate::matches::engine::Proto::Ucci,
            options: vec![],
            limit: crate::matches::engine::Limit::Depth(1),
            margin_ms: 0,
            timeout_ms: 0,
            latency_ms: 0,
            ponder: false,
            ranks: None,
            debug: None,
        };
        MatchConfig {
            engines: (0..n).map(engine).collect(),
            games,
            rounds,
            concurrency: 1,
            openings: crate::matches::openings::load_openings(None).unwrap(),
            repeat,
            pgnout: None,
            resume: false,
            soak: false,
            seed: 1,
            sprt: None,
            adjudication: Adjudication::default(),
            rating_interval: 10,
            event: String::new(),
            live: false,
            shard: None,
            debug: None,
        }
    }

    #[test]
    fn two_engines_keep_the_match_order_and_every_pair_of_more_plays_alike() {
        let two = config(2, 2, 5, 2);
        assert_eq!(two.total_games(), 10);
        for i in 0..10 {
            let s = two.spot(i);
            assert_eq!((s.pair, s.first_red, s.opening, s.round), (0, first_is_red(i), i / 2, i / 2));
            assert_eq!((s.red, s.black), if i % 2 == 0 { (0, 1) } else { (1, 0) });
            assert_eq!(first_is_red(i), i % 2 == 0);
        }
        let three = config(3, 2, 2, 2);
        assert_eq!(three.pairs(), vec![(0, 1), (0, 2), (1, 2)]);
        assert_eq!(three.total_games(), 12);
        let spots: Vec<Spot> = (0..12).map(|i| three.spot(i)).collect();
        let players: Vec<(usize, usize)> = spots.iter().map(|s| (s.red, s.black)).collect();
        assert_eq!(players[..6], [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]);
        assert_eq!(players[6..], players[..6]);
        // Each pair's k-th game has the same opening: round 0 uses opening 0, round 1 opening 1.
        assert!(spots[..6].iter().all(|s| s.opening == 0 && s.round == 0));
        assert!(spots[6..].iter().all(|s| s.opening == 1 && s.round == 1));
    }

    #[test]
    fn shards_cover_every_game_once() {
        for (total, n) in [(10, 3), (7, 7), (2, 4), (12, 1)] {
            let seen: Vec<usize> = (1..=n).flat_map(|k| shard_range(total, Some((k, n)))).collect();
            assert_eq!(seen, (0..total).collect::<Vec<_>>());
        }
        assert_eq!(shard_range(5, None), 0..5);
    }
}
