//! The UCI dialect of xiangqi GUIs (Pikafish style): `uci`/`uciok`, `setoption name .. value ..`,
//! `wtime/btime` clocks in ms (`w` = Red), `searchmoves`, `mate`, `movetime`, MultiPV, and
//! `bestmove (none)` when there is no move; `UCI_Variant` (xiangqi only) and `UCI_ShowWDL`.

use super::command::{bare, parse_go, parse_shared, Command, Go};
use super::options::{
    OptionSet, Options, Style, BOOK_FILE, CLEAR_HASH, ELO, EVAL_FILE, HASH, LIMIT_STRENGTH, MOVE_OVERHEAD, MULTIPV,
    OWN_BOOK, PONDER, SHOW_WDL, SKILL_LEVEL, THREADS, USE_NNUE, VARIANT,
};
use super::policy::Decision;
use super::wdl::wdl;
use super::words::{clip, small, Words};
use super::{info_line, Dialect, Replies, ENGINE_AUTHOR, ENGINE_NAME};
use crate::board::Move;
use crate::search::{Bound, Info, ProbeInfo, Score};
use std::sync::atomic::{AtomicBool, Ordering};

/// The UCI dialect. `UCI_ShowWDL` lives here, read by the search thread as it reports (so it
/// may change during a search).
#[derive(Default)]
pub struct Uci {
    show_wdl: AtomicBool,
}

const OPTIONS: OptionSet = OptionSet {
    style: Style::Uci,
    advertised: &[
        HASH,
        THREADS,
        CLEAR_HASH,
        PONDER,
        MULTIPV,
        MOVE_OVERHEAD,
        VARIANT,
        SHOW_WDL,
        SKILL_LEVEL,
        LIMIT_STRENGTH,
        ELO,
        OWN_BOOK,
        BOOK_FILE,
        USE_NNUE,
        EVAL_FILE,
    ],
    unlisted: &[],
    unknown_is_error: true,
};

/// The words of `go`; `searchmoves` takes moves up to the next one.
const GO_WORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

/// UCI's own `go` words; times are milliseconds, clocks by colour (`w` = Red).
fn go_word(go: &mut Go, word: &str, w: &mut Words) -> Result<bool, String> {
    match word {
        "searchmoves" => {
            let mut index = 0;
            while let Some(m) = w.peek().filter(|x| !GO_WORDS.contains(x)) {
                index += 1;
                w.next_word();
                let mv = Move::parse(m)
                    .map_err(|_| format!("go: malformed move '{}' (searchmoves move {index})", clip(m)))?;
                go.searchmoves.push(mv);
            }
        }
        "wtime" => go.side_time_ms[0] = Some(w.time(word, 1)?),
        "btime" => go.side_time_ms[1] = Some(w.time(word, 1)?),
        "winc" => go.side_inc_ms[0] = Some(w.time(word, 1)?),
        "binc" => go.side_inc_ms[1] = Some(w.time(word, 1)?),
        "mate" => go.mate = Some(small(w.count(word)?)),
        "movetime" => go.movetime_ms = Some(w.time(word, 1)?),
        _ => return Ok(false),
    }
    Ok(true)
}

fn parse_setoption(w: &mut Words) -> Result<Command, String> {
    if w.next_word() != Some("name") {
        return Err("setoption: expected 'setoption name <name> [value <value>]'".to_string());
    }
    let mut name = Vec::new();
    while let Some(x) = w.peek().filter(|x| *x != "value") {
        name.push(x);
        w.next_word();
    }
    if name.is_empty() {
        return Err("setoption: missing option name".to_string());
    }
    let value = match w.next_word() {
        Some(_) => Some(w.rest()).filter(|v| !v.is_empty()),
        None => None,
    };
    Ok(Command::SetOption { name: name.join(" "), value })
}

impl Replies for Uci {
    fn options(&self) -> &'static OptionSet {
        &OPTIONS
    }

    fn handshake(&self) -> Vec<String> {
        let ids = [format!("id name {ENGINE_NAME}"), format!("id author {ENGINE_AUTHOR}")];
        let options = OPTIONS.advertise();
        ids.into_iter().chain(options).chain(["uciok".to_string()]).collect()
    }

    fn options_changed(&self, opts: &Options) {
        self.show_wdl.store(opts.show_wdl, Ordering::SeqCst);
    }

    fn info(&self, i: &Info) -> Option<String> {
        let mut score = match i.score {
            Score::Cp(cp) => format!("cp {cp}"),
            Score::Mate(n) => format!("mate {n}"),
        };
        // Where Stockfish puts it: after the score, before a bound.
        if self.show_wdl.load(Ordering::SeqCst) {
            let [w, d, l] = wdl(i.score);
            score.push_str(&format!(" wdl {w} {d} {l}"));
        }
        let bound = match i.bound {
            Bound::Exact => "",
            Bound::Lower => " lowerbound",
            Bound::Upper => " upperbound",
        };
        let (multipv, nodes, nps, hashfull, time) = (i.multipv.max(1), i.nodes, i.nps, i.hashfull, i.time_ms);
        Some(info_line(
            i,
            format_args!(
                "multipv {multipv} score {score}{bound} nodes {nodes} nps {nps} hashfull {hashfull} time {time}"
            ),
        ))
    }

    fn currmove(&self, depth: u32, mv: Move, number: u32) -> Option<String> {
        Some(format!("info depth {depth} currmove {mv} currmovenumber {number}"))
    }

    fn bestmove(&self, d: &Decision) -> Vec<String> {
        vec![match (d.best, d.ponder_move) {
            (None, _) => "bestmove (none)".to_string(),
            (Some(b), None) => format!("bestmove {b}"),
            (Some(b), Some(p)) => format!("bestmove {b} ponder {p}"),
        }]
    }

    fn pikafish_shapes(&self) -> bool {
        true
    }

    fn no_legal_move(&self) -> Vec<String> {
        vec!["info depth 0 score mate 0".to_string()]
    }

    fn pophash(&self, p: Option<&ProbeInfo>) -> Option<String> {
        Some(match p {
            None => "info string pophash: not in the hash table".to_string(),
            Some(p) => format!(
                "info string pophash bestmove {} score {} bound {:?} depth {}",
                p.mv.map_or("(none)".to_string(), |m| m.to_string()),
                p.score,
                p.bound,
                p.depth
            ),
        })
    }
}

impl Dialect for Uci {
    fn parse(&self, line: &str, _opts: &Options) -> Result<Command, String> {
        let (Some(cmd), mut w) = Words::command(line) else { return Ok(Command::Empty) };
        Ok(match cmd {
            "uci" => bare(cmd, &w, Command::Hello)?,
            "ucinewgame" => Command::NewGame,
            "setoption" => parse_setoption(&mut w)?,
            "go" => parse_go(&mut w, go_word)?,
            "ponderhit" => bare(cmd, &w, Command::PonderHit { draw: false })?,
            _ => parse_shared(cmd, &mut w)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(line: &str) -> Result<Go, String> {
        match Uci::default().parse(line, &Options::default())? {
            Command::Go(g) => Ok(g),
            c => Err(format!("not a go: {c:?}")),
        }
    }

    #[test]
    fn go_words() {
        let g = go("go wtime 60000 btime 30000 winc 1000 binc 500 movestogo 20").unwrap();
        assert_eq!(g.side_time_ms, [Some(60000), Some(30000)]);
        assert_eq!(g.side_inc_ms, [Some(1000), Some(500)]);
        assert!(!g.infinite);
        let g = go("go searchmoves h2e2 b2e2 depth 3").unwrap();
        assert_eq!(g.searchmoves.len(), 2);
        assert_eq!(g.depth, Some(3));
        assert!(go("go searchmoves h2e2 zz depth 3").unwrap_err().contains("'zz'"));
        assert!(go("go infinite").unwrap().infinite);
        assert!(go("go ponder").unwrap().infinite);
        assert_eq!(go("go movetime 10 mate 3").unwrap().mate, Some(3));
        assert_eq!(go("go wtime -100").unwrap().side_time_ms[0], Some(0));
        assert_eq!(go("go wtime").unwrap_err().to_string(), "'wtime' needs a time");
        assert_eq!(go("go nodes lots").unwrap_err().to_string(), "'nodes' needs a non-negative integer, got 'lots'");
    }

    #[test]
    fn the_book_answers_game_moves_only() {
        for line in ["go", "go wtime 1000 btime 1000", "go movetime 50", "go wtime 1000 btime 1000 depth 8"] {
            assert!(go(line).unwrap().wants_book(), "{line}");
        }
        for line in [
            "go infinite",
            "go ponder",
            "go ponder wtime 1000 btime 1000",
            "go depth 5",
            "go nodes 100",
            "go mate 2",
            "go searchmoves h2e2",
        ] {
            assert!(!go(line).unwrap().wants_book(), "{line}");
        }
        assert!(go("go").unwrap().infinite, "without a book a bare go still searches until stop");
    }

    #[test]
    fn setoption_names_with_spaces() {
        let o = Options::default();
        let uci = Uci::default();
        assert_eq!(
            uci.parse("setoption name Move Overhead value 100", &o),
            Ok(Command::SetOption { name: "Move Overhead".into(), value: Some("100".into()) })
        );
        assert_eq!(
            uci.parse("setoption name Clear Hash", &o),
            Ok(Command::SetOption { name: "Clear Hash".into(), value: None })
        );
        assert_eq!(
            uci.parse("setoption Hash 3", &o).unwrap_err().to_string(),
            "setoption: expected 'setoption name <name> [value <value>]'"
        );
        assert_eq!(uci.parse("setoption name", &o).unwrap_err().to_string(), "setoption: missing option name");
    }

    #[test]
    fn replies() {
        let uci = Uci::default();
        assert_eq!(
            uci.bestmove(&Decision { best: None, ponder_move: None, draw: true, resign: true }),
            ["bestmove (none)"]
        );
        let i = Info {
            depth: 3,
            seldepth: 5,
            multipv: 2,
            score: Score::Mate(-2),
            bound: Bound::Upper,
            nodes: 10,
            nps: 100,
            time_ms: 100,
            hashfull: 0,
            pv: vec![Move::parse("h2e2").unwrap()],
        };
        assert_eq!(
            uci.info(&i).unwrap(),
            "info depth 3 seldepth 5 multipv 2 score mate -2 upperbound nodes 10 nps 100 hashfull 0 time 100 pv h2e2"
        );
        uci.options_changed(&Options { show_wdl: true, ..Options::default() });
        assert_eq!(
            uci.info(&i).unwrap(),
            "info depth 3 seldepth 5 multipv 2 score mate -2 wdl 0 0 1000 upperbound nodes 10 nps 100 hashfull 0 \
             time 100 pv h2e2"
        );
        let even = Info { score: Score::Cp(0), bound: Bound::Exact, ..i };
        assert!(uci.info(&even).unwrap().contains(" score cp 0 wdl 119 762 119 nodes "));
    }
}
