//! The UCI dialect of xiangqi GUIs (Pikafish style): `uci`/`uciok`, `setoption name .. value ..`,
//! `wtime/btime` clocks in ms (`w` = Red), `searchmoves`, `mate`, `movetime`, MultiPV, and
//! `bestmove (none)` when there is no move.

use super::command::{clip, parse_position, Command, Go, Words};
use super::options::{Key, Kind, Options, Spec, MAX_HASH_MB, MAX_MOVE_OVERHEAD_MS, MAX_MULTIPV, MAX_THREADS};
use super::policy::Decision;
use super::{Dialect, ENGINE_AUTHOR, ENGINE_NAME};
use crate::board::Move;
use crate::search::{Bound, Info, ProbeInfo, Score};

/// The UCI dialect.
pub struct Uci;

const OPTIONS: &[Spec] = &[
    Spec { key: Key::Hash, name: "Hash", kind: Kind::Spin { min: 1, max: MAX_HASH_MB }, zero_is_default: false },
    Spec { key: Key::Threads, name: "Threads", kind: Kind::Spin { min: 1, max: MAX_THREADS }, zero_is_default: false },
    Spec { key: Key::ClearHash, name: "Clear Hash", kind: Kind::Button, zero_is_default: false },
    Spec { key: Key::Ponder, name: "Ponder", kind: Kind::Check, zero_is_default: false },
    Spec { key: Key::MultiPv, name: "MultiPV", kind: Kind::Spin { min: 1, max: MAX_MULTIPV }, zero_is_default: false },
    Spec {
        key: Key::MoveOverhead,
        name: "Move Overhead",
        kind: Kind::Spin { min: 0, max: MAX_MOVE_OVERHEAD_MS },
        zero_is_default: false,
    },
];

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

fn small(v: u64) -> u32 {
    v.min(u32::MAX as u64) as u32
}

fn parse_go(w: &mut Words) -> Result<Command, String> {
    let mut go = Go::default();
    let mut limited = false;
    while let Some(word) = w.next_word() {
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
            "ponder" => go.ponder = true,
            "infinite" => go.infinite = true,
            "wtime" => go.side_time_ms[0] = Some(w.time(word, 1)?),
            "btime" => go.side_time_ms[1] = Some(w.time(word, 1)?),
            "winc" => go.side_inc_ms[0] = Some(w.time(word, 1)?),
            "binc" => go.side_inc_ms[1] = Some(w.time(word, 1)?),
            "movestogo" => go.movestogo = Some(small(w.count(word)?)),
            "depth" => go.depth = Some(small(w.count(word)?)),
            "nodes" => go.nodes = Some(w.count(word)?),
            "mate" => go.mate = Some(small(w.count(word)?)),
            "movetime" => go.movetime_ms = Some(w.time(word, 1)?),
            "perft" => return Ok(Command::Perft(small(w.count(word)?))),
            other => return Err(format!("go: unknown word '{}'", clip(other))),
        }
        limited |= ["wtime", "btime", "depth", "nodes", "mate", "movetime"].contains(&word);
    }
    if !limited {
        go.infinite = true;
    }
    Ok(Command::Go(go))
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

impl Dialect for Uci {
    fn options(&self) -> &'static [Spec] {
        OPTIONS
    }

    fn unknown_option_is_error(&self) -> bool {
        true
    }

    fn parse(&self, line: &str, _opts: &Options) -> Result<Command, String> {
        let mut w = Words::new(line);
        let Some(cmd) = w.next_word() else { return Ok(Command::Empty) };
        let c = match cmd {
            "uci" => Command::Hello,
            "isready" => Command::IsReady,
            "ucinewgame" => Command::NewGame,
            "setoption" => parse_setoption(&mut w)?,
            "position" => Command::Position(parse_position(&mut w).map_err(|e| format!("position: {e}"))?),
            "go" => parse_go(&mut w)?,
            "ponderhit" => Command::PonderHit { draw: false },
            "stop" => Command::Stop,
            "probe" => Command::Probe(parse_position(&mut w).map_err(|e| format!("probe: {e}"))?),
            "quit" => Command::Quit,
            "d" => Command::Display,
            "eval" => Command::Eval,
            other => return Err(format!("unknown command '{}'", clip(other))),
        };
        match (&c, w.peek()) {
            (
                Command::Hello | Command::IsReady | Command::Stop | Command::Quit | Command::PonderHit { .. },
                Some(x),
            ) => Err(format!("{cmd}: unexpected word '{}'", clip(x))),
            _ => Ok(c),
        }
    }

    fn handshake(&self) -> Vec<String> {
        let mut v = vec![format!("id name {ENGINE_NAME}"), format!("id author {ENGINE_AUTHOR}")];
        for s in OPTIONS {
            v.push(match s.kind {
                Kind::Check => format!("option name {} type check default {}", s.name, Options::default_text(s)),
                Kind::Spin { min, max } => {
                    format!("option name {} type spin default {} min {min} max {max}", s.name, Options::default_text(s))
                }
                Kind::Button => format!("option name {} type button", s.name),
            });
        }
        v.push("uciok".to_string());
        v
    }

    fn info(&self, i: &Info) -> String {
        let score = match i.score {
            Score::Cp(cp) => format!("cp {cp}"),
            Score::Mate(n) => format!("mate {n}"),
        };
        let bound = match i.bound {
            Bound::Exact => "",
            Bound::Lower => " lowerbound",
            Bound::Upper => " upperbound",
        };
        let mut s = format!(
            "info depth {} seldepth {} multipv {} score {score}{bound} nodes {} nps {} hashfull {} time {}",
            i.depth,
            i.seldepth,
            i.multipv.max(1),
            i.nodes,
            i.nps,
            i.hashfull,
            i.time_ms
        );
        if !i.pv.is_empty() {
            s.push_str(" pv");
            super::push_moves(&mut s, &i.pv);
        }
        s
    }

    fn currmove(&self, depth: u32, mv: Move, number: u32) -> String {
        format!("info depth {depth} currmove {mv} currmovenumber {number}")
    }

    fn bestmove(&self, d: &Decision) -> String {
        match (d.best, d.ponder) {
            (None, _) => "bestmove (none)".to_string(),
            (Some(b), None) => format!("bestmove {b}"),
            (Some(b), Some(p)) => format!("bestmove {b} ponder {p}"),
        }
    }

    fn stray_stop(&self) -> Option<String> {
        None
    }

    fn bye(&self) -> Option<String> {
        None
    }

    fn pophash(&self, p: Option<&ProbeInfo>) -> String {
        match p {
            None => "info string pophash: not in the hash table".to_string(),
            Some(p) => format!(
                "info string pophash bestmove {} score {} bound {:?} depth {}",
                p.mv.map_or("(none)".to_string(), |m| m.to_string()),
                p.score,
                p.bound,
                p.depth
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(line: &str) -> Result<Go, String> {
        match Uci.parse(line, &Options::default())? {
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
        assert!(go("go wtime").is_err());
        assert!(go("go nodes lots").is_err());
    }

    #[test]
    fn setoption_names_with_spaces() {
        let o = Options::default();
        assert_eq!(
            Uci.parse("setoption name Move Overhead value 100", &o),
            Ok(Command::SetOption { name: "Move Overhead".into(), value: Some("100".into()) })
        );
        assert_eq!(
            Uci.parse("setoption name Clear Hash", &o),
            Ok(Command::SetOption { name: "Clear Hash".into(), value: None })
        );
        assert!(Uci.parse("setoption Hash 3", &o).is_err());
        assert!(Uci.parse("setoption name", &o).is_err());
    }

    #[test]
    fn replies() {
        assert_eq!(Uci.bestmove(&Decision { best: None, ponder: None, draw: true, resign: true }), "bestmove (none)");
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
            Uci.info(&i),
            "info depth 3 seldepth 5 multipv 2 score mate -2 upperbound nodes 10 nps 100 hashfull 0 time 100 pv h2e2"
        );
    }
}
