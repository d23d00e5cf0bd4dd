//! `chuhe match`: engine-vs-engine matches with cutechess-cli's flags (see README, "Match").

use super::engine_draft::{number, EngineDraft};
use crate::board::zobrist::match_order;
use crate::matches::engine::EngineConfig;
use crate::matches::game::{Adjudication, DrawRule, ResignRule};
use crate::matches::openings::{load_openings, Opening};
use crate::matches::plan::{DebugTo, MatchConfig};
use crate::matches::scheduler::run_match;
use crate::matches::stats::{Sprt, SprtModel};
use std::io::IsTerminal;

/// One line for `chuhe --help`.
pub(super) const ABOUT: &str = "engine-vs-engine matches and round-robins over UCCI, UCI or CECP";

/// `chuhe match --help`.
pub(super) const HELP: &str = "\
usage:
  chuhe match -engine cmd=PROG [KEY=VALUE...] -engine cmd=PROG [KEY=VALUE...]
              [-engine ...]... [-tournament round-robin] [-each KEY=VALUE...]
              [-games N] [-rounds N] [-concurrency N] [-debug [file=F]]
              [-openings file=F [order=sequential|random] [start=N]] [-repeat [N]] [-srand N]
              [-pgnout FILE [-resume]] [-sprt elo0=E elo1=E alpha=A beta=B [model=M]]
              [-ratinginterval N]
              [-resign movecount=N score=CP] [-draw movenumber=N movecount=N score=CP]
              [-shard K/N] [-event NAME] [-soak]

engines (-engine, twice; -each sets both):
  cmd=PROG            the engine's program (required)
  name=NAME           its name in output and PGN (default: the program's file name)
  proto=ucci|uci|xboard  its protocol (default ucci)
  ranks=0|1           the engine numbers ranks 0-9 or 1-10 (default: 0, or detected for UCI
                      engines that list UCI_Variant)
  arg=A               a command-line argument (repeatable)
  dir=D               its working directory
  option.NAME=VALUE   an option (UCCI 'setoption NAME VALUE', UCI 'setoption name NAME value V')
  one limit (required): tc=[MOVES/]SECONDS[+INC] (seconds or m:ss), st=SECONDS per move,
                      nodes=N or depth=N
  timemargin=MS       how far an engine may overstep its clock (default 0)
  latency=MS          a GUI-like transport delay: MS more charged to its tc=/st= clock on
                      every move, so an engine that keeps no margin forfeits (default 0)
  ponder              think on the opponent's time (also ponder=1; UCCI and UCI, with tc= or
                      st=): after 'bestmove M ponder P' it gets 'go ponder' on the game with M
                      and P, then 'ponderhit' when P is played, else 'stop' and a fresh 'go';
                      its clock runs from the opponent's move either way. A game then keeps
                      two cores busy: -concurrency at most half the cores
  timeout=MS          how long a nodes=/depth= move may take (default 60000)

match:
  -games N            games per round (default 1)
  -rounds N           rounds (default 1)
  -concurrency N      games played at once (default 1)
  -openings file=F    one opening a line: a FEN, 'startpos moves ...' or 'fen FEN moves ...'
                      (default: the 60 built-in openings); order=sequential|random (default
                      sequential), start=N (default 1)
  -repeat [N]         games per opening, colours swapped (default 2)
  -srand N            seed of order=random and -soak (default: the clock)
  -pgnout FILE        append every game as Chinese-chess PGN, in game order (a game that ends
                      early waits for those before it); to a file with games: appended
  -resume             continue a stopped (Ctrl-C, killed) match: the same command plus
                      -resume. The games in -pgnout FILE count as played (a partial last game
                      is cut off) and only the missing ones are played; a file of another
                      match is refused. With order=random it needs the same -srand
                      (see docs/big-matches.md)
  -event NAME         the PGN's [Event] (default 'Chuhe match')
  -shard K/N          play only the K-th of N slices of the games (see docs/big-matches.md)
  -ratinginterval N   print Elo and SPRT every N games (default 10) and at the end
  -sprt elo0=E elo1=E alpha=A beta=B   stop when the test decides (defaults 0, 5, 0.05, 0.05)
      model=pentanomial|trinomial   with -games 2 a sample is a game pair, counted by
                      its points 0, 1/2, 1, 3/2, 2 (the 'Ptnml(0-2)' line; the default), or
                      each game alone as cutechess-cli counts (trinomial); with other -games
                      always games
  -resign movecount=N score=CP   an engine at or below -CP on N moves in a row loses
                      (defaults 3 and 1000)
  -draw movenumber=M movecount=N score=CP   from move M, both within +-CP for N moves each:
                      a draw (defaults 0, 8 and 10)
  -tournament round-robin   three or more engines: every pair plays; a cross table at the end
  -debug [file=F]     log every line sent to and received from each engine (stderr or F)
  -soak               before each game, each engine gets one of (drawn from -srand): a hash
                      size of 1, 16, 64 or 128 MB, 1 or 2 threads, an extra new game, or
                      nothing; for long robustness runs (scripts/soak.sh, docs/hardening.md)
  -recover            accepted; a crashed engine is always restarted

Illegal moves, crashes, stalls and time forfeits lose; every position is judged by the rules
(mate, stalemate, perpetual check and chase, 60-move rule, material); the closing 'Faults:'
line counts them per engine. Output follows cutechess-cli: 'Finished game ...', 'Score of A
vs B: ...', 'Elo difference: ...', in game order.

examples:
  chuhe match -engine cmd=chuhe name=A -engine cmd=chuhe name=B -each proto=uci nodes=2000 \\
      -games 2 -rounds 5 -pgnout games.pgn
  chuhe match -engine cmd=chuhe name=default -engine cmd=chuhe name=no-null option.null_move=false \\
      -each proto=uci tc=10+0.1 timemargin=200 -games 2 -rounds 50 -concurrency 2 -repeat \\
      -openings file=samples/openings.txt order=random -srand 7 \\
      -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05               # in the source directory
";

/// Runs `chuhe match` with `args`.
pub fn run(args: &[String]) -> Result<(), String> {
    let mut cfg = parse(args)?;
    if cfg.engines.len() > 2 && cfg.sprt.take().is_some() {
        eprintln!("Warning: -sprt applies to two-engine matches only; ignored in this round-robin");
    }
    if let Some(note) = ponder_note(&cfg.engines, cfg.concurrency) {
        eprintln!("{note}");
    }
    if let Some(file) = cfg.pgnout.as_deref().filter(|_| !cfg.resume) {
        if std::fs::metadata(file).is_ok_and(|m| m.len() > 0) {
            eprintln!(
                "Note: '{file}' already holds games; this match's are appended (-resume continues a stopped match)"
            );
        }
    }
    let stdout = std::io::stdout();
    cfg.live = stdout.is_terminal();
    let mut out = stdout.lock();
    run_match(&cfg, &mut out).map(|_| ())
}

/// The line telling a tester that pondering engines need two cores a game.
fn ponder_note(engines: &[EngineConfig], concurrency: usize) -> Option<String> {
    let names: Vec<&str> = engines.iter().filter(|e| e.ponder).map(|e| e.name.as_str()).collect();
    if names.is_empty() {
        return None;
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    Some(format!(
        "Note: {} ponder{}: both engines of a game then think at once, so a game needs two cores          (-concurrency {concurrency}; at most {} on these {cores} cores)",
        names.join(", "),
        if names.len() == 1 { "s" } else { "" },
        (cores / 2).max(1)
    ))
}

/// Splits `args` into flags, each with the words up to the next flag (a word starting with `-`
/// and containing no `=`).
fn groups(args: &[String]) -> Result<Vec<(String, Vec<String>)>, String> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for a in args {
        let is_flag = a.starts_with('-') && !a.contains('=') && a.len() > 1 && a.parse::<f64>().is_err();
        if is_flag {
            out.push((a.trim_start_matches('-').to_string(), Vec::new()));
        } else if let Some((_, words)) = out.last_mut() {
            words.push(a.clone());
        } else {
            return Err(format!("unexpected argument '{a}'"));
        }
    }
    Ok(out)
}

/// `key=value` words of one flag.
fn pairs(flag: &str, words: &[String]) -> Result<Vec<(String, String)>, String> {
    words
        .iter()
        .map(|w| match w.split_once('=') {
            Some((k, v)) if !k.is_empty() => Ok((k.to_string(), v.to_string())),
            _ => Err(format!("-{flag}: expected KEY=VALUE, got '{w}'")),
        })
        .collect()
}

fn one_value<'a>(flag: &str, words: &'a [String]) -> Result<&'a str, String> {
    match words {
        [v] => Ok(v),
        _ => Err(format!("-{flag} takes one value")),
    }
}

/// The flags read so far, before the engines and openings are complete.
struct Flags {
    drafts: Vec<EngineDraft>,
    each: EngineDraft,
    games: usize,
    rounds: usize,
    concurrency: usize,
    repeat: usize,
    interval: usize,
    pgnout: Option<String>,
    sprt: Option<Sprt>,
    adjudication: Adjudication,
    opening_file: Option<String>,
    order_random: bool,
    start: usize,
    srand: Option<u64>,
    event: String,
    shard: Option<(usize, usize)>,
    round_robin: bool,
    debug: Option<DebugTo>,
    resume: bool,
    soak: bool,
}

impl Default for Flags {
    fn default() -> Self {
        Flags {
            drafts: Vec::new(),
            each: EngineDraft::default(),
            games: 1,
            rounds: 1,
            concurrency: 1,
            repeat: 2,
            interval: 10,
            pgnout: None,
            sprt: None,
            adjudication: Adjudication::default(),
            opening_file: None,
            order_random: false,
            start: 1,
            srand: None,
            event: "Chuhe match".to_string(),
            shard: None,
            round_robin: false,
            debug: None,
            resume: false,
            soak: false,
        }
    }
}

impl Flags {
    /// Reads one flag and its words.
    fn apply(&mut self, flag: &str, words: &[String]) -> Result<(), String> {
        match flag {
            "engine" | "each" => {
                let mut d = EngineDraft::default();
                // The bare word `ponder`, as cutechess-cli writes it, is `ponder=1`.
                let words: Vec<String> =
                    words.iter().map(|w| if w == "ponder" { "ponder=1".into() } else { w.clone() }).collect();
                for (k, v) in pairs(flag, &words)? {
                    d.apply(&k, &v).map_err(|e| format!("-{flag}: {e}"))?;
                }
                if flag == "each" {
                    self.each = d.with_defaults(&self.each);
                } else {
                    self.drafts.push(d);
                }
            }
            "games" => self.games = number("-games", one_value(flag, words)?)?,
            "rounds" => self.rounds = number("-rounds", one_value(flag, words)?)?,
            "concurrency" => self.concurrency = number("-concurrency", one_value(flag, words)?)?,
            "ratinginterval" => self.interval = number("-ratinginterval", one_value(flag, words)?)?,
            "repeat" => {
                self.repeat = match words {
                    [] => 2,
                    [v] => number("-repeat", v)?,
                    _ => return Err("-repeat takes at most one value".into()),
                }
            }
            "shard" => self.shard = Some(parse_shard(one_value(flag, words)?)?),
            "srand" => self.srand = Some(number::<u64>("-srand", one_value(flag, words)?)?),
            "pgnout" => self.pgnout = Some(one_value(flag, words)?.to_string()),
            "event" => self.event = words.join(" "),
            "recover" => {} // crashed engines are always restarted
            "resume" | "soak" if !words.is_empty() => return Err(format!("-{flag} takes no value")),
            "resume" => self.resume = true,
            "soak" => self.soak = true,
            "tournament" => match one_value(flag, words)? {
                "round-robin" => self.round_robin = true,
                other => return Err(format!("-tournament '{other}': only round-robin is supported")),
            },
            "debug" => {
                self.debug = Some(match pairs(flag, words)?.as_slice() {
                    [] => DebugTo::Stderr,
                    [(k, f)] if k == "file" && !f.is_empty() => DebugTo::File(f.clone()),
                    _ => return Err("-debug takes nothing or file=F".into()),
                })
            }
            "openings" => self.openings(words)?,
            "sprt" => self.sprt = Some(parse_sprt(words)?),
            "resign" => self.adjudication.resign = Some(parse_resign(words)?),
            "draw" => self.adjudication.draw = Some(parse_draw(words)?),
            other => return Err(format!("unknown flag '-{other}' (see --help)")),
        }
        Ok(())
    }

    /// `-openings file=F order=sequential|random start=N`.
    fn openings(&mut self, words: &[String]) -> Result<(), String> {
        for (k, v) in pairs("openings", words)? {
            match k.as_str() {
                "file" => self.opening_file = Some(v),
                "order" if v == "random" || v == "sequential" => self.order_random = v == "random",
                "start" => self.start = number("-openings start", &v)?,
                "format" | "policy" => {}
                _ => return Err(format!("-openings: unknown setting '{k}={v}'")),
            }
        }
        Ok(())
    }

    /// The opening list: the file's or the built-in set, in the order asked for (`seed`'s).
    fn load_openings(&self, seed: u64) -> Result<Vec<Opening>, String> {
        let mut openings = load_openings(self.opening_file.as_deref())?;
        if self.order_random {
            if self.shard.is_some() && self.srand.is_none() {
                return Err("-shard with order=random needs -srand, so every shard draws the same order".into());
            }
            if self.resume && self.srand.is_none() {
                return Err("-resume with order=random needs the -srand of the stopped match".into());
            }
            match_order(&mut openings, seed);
        }
        let skip = (self.start.max(1) - 1) % openings.len();
        openings.rotate_left(skip);
        Ok(openings)
    }

    /// The complete configuration, or what is missing or wrong.
    fn finish(self) -> Result<MatchConfig, String> {
        match self.drafts.len() {
            0 | 1 => return Err(format!("need two -engine flags, got {} (see --help)", self.drafts.len())),
            2 => {}
            n if !self.round_robin => {
                return Err(format!("{n} engines need -tournament round-robin (a match is two engines)"))
            }
            _ => {}
        }
        let mut engines = Vec::new();
        for (i, d) in self.drafts.iter().enumerate() {
            let mut e = d.with_defaults(&self.each).finish(i)?;
            // Names key the results (tallies, PGN): make them unique.
            let base = e.name.clone();
            let mut k = 2;
            while engines.iter().any(|o: &EngineConfig| o.name == e.name) {
                e.name = format!("{base}-{k}");
                k += 1;
            }
            engines.push(e);
        }
        if self.games == 0 || self.rounds == 0 || self.concurrency == 0 || self.repeat == 0 {
            return Err("-games, -rounds, -concurrency and -repeat must be at least 1".into());
        }
        if self.resume && self.pgnout.is_none() {
            return Err("-resume needs the -pgnout FILE of the stopped match".into());
        }
        let seed = self.srand.unwrap_or_else(|| {
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64)
        });
        Ok(MatchConfig {
            openings: self.load_openings(seed)?,
            engines,
            games: self.games,
            rounds: self.rounds,
            concurrency: self.concurrency,
            repeat: self.repeat,
            pgnout: self.pgnout,
            resume: self.resume,
            soak: self.soak,
            seed,
            sprt: self.sprt,
            adjudication: self.adjudication,
            rating_interval: self.interval,
            event: self.event,
            live: false,
            shard: self.shard,
            debug: self.debug,
        })
    }
}

/// `-shard K/N`: the K-th (1-based) of N slices.
fn parse_shard(v: &str) -> Result<(usize, usize), String> {
    match v.split_once('/').map(|(k, n)| (k.parse::<usize>(), n.parse::<usize>())) {
        Some((Ok(k), Ok(n))) if (1..=n).contains(&k) => Ok((k, n)),
        _ => Err(format!("-shard '{v}': expected K/N with 1 <= K <= N")),
    }
}

/// `-sprt elo0=E elo1=E alpha=A beta=B [model=pentanomial|trinomial]`.
pub(super) fn parse_sprt(words: &[String]) -> Result<Sprt, String> {
    let mut s = Sprt { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05, model: SprtModel::Pentanomial };
    for (k, v) in pairs("sprt", words)? {
        if k == "model" {
            s.model = match v.as_str() {
                "pentanomial" => SprtModel::Pentanomial,
                "trinomial" => SprtModel::Trinomial,
                _ => return Err(format!("-sprt model: '{v}' is not pentanomial or trinomial")),
            };
            continue;
        }
        let x: f64 = number(&format!("-sprt {k}"), &v)?;
        match k.as_str() {
            "elo0" => s.elo0 = x,
            "elo1" => s.elo1 = x,
            "alpha" => s.alpha = x,
            "beta" => s.beta = x,
            _ => return Err(format!("-sprt: unknown setting '{k}'")),
        }
    }
    let ok = |p: f64| p > 0.0 && p < 0.5;
    if s.elo1 <= s.elo0 || !ok(s.alpha) || !ok(s.beta) {
        return Err("-sprt: need elo0 < elo1 and 0 < alpha, beta < 0.5".into());
    }
    Ok(s)
}

/// `-resign movecount=N score=CP`.
fn parse_resign(words: &[String]) -> Result<ResignRule, String> {
    let mut r = ResignRule { movecount: 3, score: 1000 };
    for (k, v) in pairs("resign", words)? {
        match k.as_str() {
            "movecount" => r.movecount = number("-resign movecount", &v)?,
            "score" => r.score = number("-resign score", &v)?,
            _ => return Err(format!("-resign: unknown setting '{k}'")),
        }
    }
    Ok(r)
}

/// `-draw movenumber=N movecount=N score=CP`.
fn parse_draw(words: &[String]) -> Result<DrawRule, String> {
    let mut r = DrawRule { movenumber: 0, movecount: 8, score: 10 };
    for (k, v) in pairs("draw", words)? {
        match k.as_str() {
            "movenumber" => r.movenumber = number("-draw movenumber", &v)?,
            "movecount" => r.movecount = number("-draw movecount", &v)?,
            "score" => r.score = number("-draw score", &v)?,
            _ => return Err(format!("-draw: unknown setting '{k}'")),
        }
    }
    Ok(r)
}

/// Parses the whole command line into a match configuration.
pub fn parse(args: &[String]) -> Result<MatchConfig, String> {
    let mut flags = Flags::default();
    for (flag, words) in groups(args)? {
        flags.apply(&flag, &words)?;
    }
    flags.finish()
}

#[cfg(test)]
mod tests {
    use super::super::engine_draft::parse_tc;
    use super::*;
    use crate::matches::engine::{Limit, Proto};
    use crate::matches::ranks::Ranks;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_the_issue_example() {
        let cfg = parse(&words(
            "-engine cmd=./a name=A proto=ucci option.hashsize=64 -engine cmd=fairy-stockfish name=FSF proto=ucci \
             -each tc=10+0.1 -games 2 -rounds 100 -concurrency 2 -repeat -pgnout games.pgn \
             -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 -resign movecount=5 score=800 \
             -draw movenumber=40 movecount=8 score=10",
        ))
        .unwrap();
        assert_eq!(cfg.engines[0].name, "A");
        assert_eq!(cfg.engines[0].options, vec![("hashsize".to_string(), "64".to_string())]);
        assert_eq!(cfg.engines[1].limit, Limit::Clock { moves: 0, base_ms: 10_000, inc_ms: 100 });
        assert_eq!((cfg.games, cfg.rounds, cfg.concurrency, cfg.repeat), (2, 100, 2, 2));
        let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05, model: SprtModel::Pentanomial };
        assert_eq!(cfg.sprt, Some(sprt));
        let tri = parse_sprt(&words("elo0=-5 elo1=0 model=trinomial")).unwrap();
        assert_eq!(tri, Sprt { elo0: -5.0, elo1: 0.0, model: SprtModel::Trinomial, ..sprt });
        assert_eq!(
            parse_sprt(&words("model=binomial")),
            Err("-sprt model: 'binomial' is not pentanomial or trinomial".to_string())
        );
        assert_eq!(cfg.adjudication.resign, Some(ResignRule { movecount: 5, score: 800 }));
        assert_eq!(cfg.adjudication.draw, Some(DrawRule { movenumber: 40, movecount: 8, score: 10 }));
        assert!(cfg.openings.len() >= 50);
        assert!(!cfg.resume && !cfg.soak);
        let more = parse(&words("-engine cmd=a st=1 -engine cmd=b st=1 -pgnout g.pgn -resume -soak -srand 9")).unwrap();
        assert!(more.resume && more.soak && more.seed == 9);
    }

    #[test]
    fn time_controls_and_engine_settings() {
        assert_eq!(parse_tc("40/60").unwrap(), Limit::Clock { moves: 40, base_ms: 60_000, inc_ms: 0 });
        assert_eq!(parse_tc("1:30+0.5").unwrap(), Limit::Clock { moves: 0, base_ms: 90_000, inc_ms: 500 });
        assert_eq!(parse_tc("0"), Err("tc '0' gives no time".to_string()));
        assert_eq!(parse_tc("x+1"), Err("tc: 'x' is not a valid number".to_string()));
        assert_eq!(parse_tc("-5"), Err("tc: '-5' is out of range".to_string()));
        let cfg = parse(&words(
            "-engine cmd=/bin/e arg=-v arg=x st=0.5 timemargin=50 -engine cmd=/bin/e nodes=100 proto=uci",
        ))
        .unwrap();
        assert_eq!(cfg.engines[0].args, vec!["-v", "x"]);
        assert_eq!(cfg.engines[0].limit, Limit::MoveTime(500));
        assert_eq!(cfg.engines[0].margin_ms, 50);
        assert_eq!(cfg.engines[1].proto, Proto::Uci);
        assert_eq!((cfg.engines[0].name.as_str(), cfg.engines[1].name.as_str()), ("e", "e-2"));
    }

    #[test]
    fn bad_command_lines_give_one_line_errors() {
        for bad in [
            "-engine cmd=a tc=1",
            "-engine cmd=a -engine cmd=b",
            "-engine cmd=a tc=1 depth=3 -engine cmd=b tc=1",
            "-engine cmd=a tc=1 -engine cmd=b tc=1 -games x",
            "-engine cmd=a tc=1 -engine cmd=b tc=1 -frobnicate",
            "-engine cmd=a tc=1 proto=winboard -engine cmd=b tc=1",
            "-engine cmd=a nodes=5 proto=xboard -engine cmd=b tc=1",
            "-engine cmd=a tc=1 proto=xboard ponder -engine cmd=b tc=1",
            "-engine cmd=a depth=5 ponder -engine cmd=b tc=1",
            "-engine cmd=a -engine cmd=b tc=1 -each nodes=5 ponder",
            "-engine cmd=a tc=1 ponder=yes -engine cmd=b tc=1",
            "-engine cmd=a tc=1 latency=-5 -engine cmd=b tc=1",
            "-engine cmd=a tc=1 ranks=2 -engine cmd=b tc=1",
            "-engine cmd=a tc=1 -engine cmd=b tc=1 -engine cmd=c tc=1",
            "-engine cmd=a tc=1 -engine cmd=b tc=1 -engine cmd=c tc=1 -tournament gauntlet",
            "-engine cmd=a tc=1 -engine cmd=b tc=1 -debug file=",
            "-engine cmd=a tc=1 -engine cmd=b tc=1 -debug x",
            "-engine cmd=a tc=1 -engine cmd=b tc=1 -sprt elo0=10 elo1=0",
            "-engine cmd=a tc=1 -engine cmd=b tc=1 -openings file=/nonexistent/x",
            "-engine cmd=a tc=1 -engine cmd=b tc=1 -shard 3/2",
            "-engine cmd=a tc=1 -engine cmd=b tc=1 -shard 0/2",
            "-engine cmd=a tc=1 -engine cmd=b tc=1 -shard 1",
            "-engine cmd=a tc=1 -engine cmd=b tc=1 -shard 1/2 -openings order=random",
            "stray -engine cmd=a tc=1",
            "-engine cmd=a tc=1 -engine cmd=b tc=1 -resume",
            "-engine cmd=a tc=1 -engine cmd=b tc=1 -pgnout x.pgn -resume yes",
            "-engine cmd=a tc=1 -engine cmd=b tc=1 -pgnout x.pgn -resume -openings order=random",
            "-engine cmd=a tc=1 -engine cmd=b tc=1 -soak 1",
        ] {
            assert!(parse(&words(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn ponder_and_latency_settings() {
        let cfg = parse(&words(
            "-engine cmd=a latency=50 -engine cmd=b ponder=0 proto=uci -each tc=10+0.1 ponder latency=20",
        ))
        .unwrap();
        let [a, b] = [&cfg.engines[0], &cfg.engines[1]];
        assert_eq!((a.ponder, a.latency_ms, b.ponder, b.latency_ms), (true, 50, false, 20));
        let note = ponder_note(&cfg.engines, 3).unwrap();
        assert!(note.starts_with("Note: a ponders: both engines of a game then think at once"), "{note}");
        assert!(note.contains("(-concurrency 3; at most "), "{note}");
        let off = parse(&words("-engine cmd=a st=1 -engine cmd=b st=1")).unwrap();
        assert_eq!((off.engines[0].ponder, off.engines[0].latency_ms), (false, 0));
        assert_eq!(ponder_note(&off.engines, 1), None);
    }

    #[test]
    fn round_robins_xboard_ranks_and_debug() {
        let cfg = parse(&words(
            "-engine cmd=/bin/e proto=xboard depth=3 -engine cmd=/bin/e proto=uci ranks=1 -engine cmd=/bin/e \
             -each st=1 -tournament round-robin -debug file=/tmp/x.log",
        ))
        .unwrap();
        let names: Vec<&str> = cfg.engines.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["e", "e-2", "e-3"]);
        assert_eq!((cfg.engines[0].proto, cfg.engines[0].limit), (Proto::Xboard, Limit::Depth(3)));
        assert_eq!((cfg.engines[1].ranks, cfg.engines[2].ranks), (Some(Ranks::FromOne), None));
        assert_eq!(cfg.total_games(), 3);
        assert_eq!(cfg.debug, Some(DebugTo::File("/tmp/x.log".into())));
        let two = parse(&words("-engine cmd=a st=1 -engine cmd=b st=1 -debug")).unwrap();
        assert_eq!(two.debug, Some(DebugTo::Stderr));
    }
}
