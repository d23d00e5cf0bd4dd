//! UCCI 3.0 (the xqbase protocol): `ucci`/`ucciok`, `setoption <name> <value>` without
//! keywords, `go` times in seconds until `usemillisec` is on, `banmoves`, `probe`,
//! `nobestmove`, `bye`, and `bestmove ... draw|resign`.

use super::command::{clip, parse_moves, parse_position, Command, Go, Words};
use super::options::{Key, Kind, Options, Spec, MAX_HASH_MB, MAX_MOVE_OVERHEAD_MS, MAX_THREADS};
use super::policy::Decision;
use super::{Dialect, ENGINE_AUTHOR, ENGINE_NAME};
use crate::board::Move;
use crate::search::{Bound, Info, ProbeInfo, Score};

/// The UCCI dialect.
pub struct Ucci;

/// UCCI's mate score: a mate in `p` plies is reported as `±(UCCI_MATE - p)`.
pub const UCCI_MATE: i32 = 10000;

const OPTIONS: &[Spec] = &[
    Spec { key: Key::UseMillisec, name: "usemillisec", kind: Kind::Check, zero_is_default: false },
    Spec { key: Key::Hash, name: "hashsize", kind: Kind::Spin { min: 0, max: MAX_HASH_MB }, zero_is_default: true },
    Spec { key: Key::Threads, name: "threads", kind: Kind::Spin { min: 0, max: MAX_THREADS }, zero_is_default: true },
    Spec {
        key: Key::MoveOverhead,
        name: "moveoverhead",
        kind: Kind::Spin { min: 0, max: MAX_MOVE_OVERHEAD_MS },
        zero_is_default: false,
    },
    Spec { key: Key::ClearHash, name: "newgame", kind: Kind::Button, zero_is_default: false },
];

/// A score as UCCI prints it: centipawns, or `±(10000 − plies)` for mates.
pub fn ucci_score(s: Score) -> i32 {
    match s {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => UCCI_MATE - (2 * n - 1),
        Score::Mate(n) => -(UCCI_MATE - 2 * n.abs()),
    }
}

fn parse_go(w: &mut Words, opts: &Options) -> Result<Command, String> {
    let unit = opts.ucci_time_unit_ms();
    let mut go = Go::default();
    let mut limited = false;
    while let Some(word) = w.next_word() {
        match word {
            "ponder" => go.ponder = true,
            "draw" => go.draw_offer = true,
            "infinite" => go.infinite = true,
            "depth" => {
                go.depth = Some(w.count("depth")?.min(u32::MAX as u64) as u32);
                limited = true;
            }
            "nodes" => {
                go.nodes = Some(w.count("nodes")?);
                limited = true;
            }
            "time" => {
                go.own_time_ms = Some(w.time("time", unit)?);
                limited = true;
            }
            "movestogo" => go.movestogo = Some(w.count("movestogo")?.min(u32::MAX as u64) as u32),
            "increment" => go.own_inc_ms = Some(w.time("increment", unit)?),
            "opptime" | "oppincrement" => {
                w.time(word, unit)?;
            }
            "oppmovestogo" => {
                w.count(word)?;
            }
            "perft" => return Ok(Command::Perft(w.count("perft")?.min(u32::MAX as u64) as u32)),
            other => return Err(format!("go: unknown word '{}'", clip(other))),
        }
    }
    if go.ponder && go.draw_offer {
        return Err("go: 'ponder' and 'draw' exclude each other".to_string());
    }
    if !limited {
        go.infinite = true;
    }
    Ok(Command::Go(go))
}

impl Dialect for Ucci {
    fn options(&self) -> &'static [Spec] {
        OPTIONS
    }

    fn unknown_option_is_error(&self) -> bool {
        false
    }

    fn parse(&self, line: &str, opts: &Options) -> Result<Command, String> {
        let mut w = Words::new(line);
        let Some(cmd) = w.next_word() else { return Ok(Command::Empty) };
        let c = match cmd {
            "ucci" => Command::Hello,
            "isready" => Command::IsReady,
            "setoption" => {
                let name = w.next_word().ok_or("setoption needs an option name")?.to_string();
                let value = Some(w.rest()).filter(|v| !v.is_empty());
                Command::SetOption { name, value }
            }
            "position" => Command::Position(parse_position(&mut w).map_err(|e| format!("position: {e}"))?),
            "banmoves" => Command::BanMoves(
                parse_moves(std::iter::from_fn(|| w.next_word())).map_err(|e| format!("banmoves: {e}"))?,
            ),
            "go" => parse_go(&mut w, opts)?,
            "ponderhit" => match w.next_word() {
                None => Command::PonderHit { draw: false },
                Some("draw") => Command::PonderHit { draw: true },
                Some(x) => return Err(format!("ponderhit: unknown word '{}'", clip(x))),
            },
            "stop" => Command::Stop,
            "probe" => Command::Probe(parse_position(&mut w).map_err(|e| format!("probe: {e}"))?),
            "quit" => Command::Quit,
            "d" => Command::Display,
            "eval" => Command::Eval,
            other => return Err(format!("unknown command '{}'", clip(other))),
        };
        match (&c, w.peek()) {
            (
                Command::Hello | Command::IsReady | Command::Stop | Command::Quit | Command::Display | Command::Eval,
                Some(x),
            ) => Err(format!("{cmd}: unexpected word '{}'", clip(x))),
            _ => Ok(c),
        }
    }

    fn handshake(&self) -> Vec<String> {
        let mut v = vec![
            format!("id name {ENGINE_NAME}"),
            format!("id version {}", env!("CARGO_PKG_VERSION")),
            format!("id copyright {ENGINE_AUTHOR}, MIT licence"),
            format!("id author {ENGINE_AUTHOR}"),
        ];
        for s in OPTIONS {
            v.push(match s.kind {
                Kind::Check => format!("option {} type check default {}", s.name, Options::default_text(s)),
                Kind::Spin { min, max } => {
                    format!("option {} type spin min {min} max {max} default {}", s.name, Options::default_text(s))
                }
                Kind::Button => format!("option {} type button", s.name),
            });
        }
        v.push("ucciok".to_string());
        v
    }

    fn info(&self, i: &Info) -> String {
        let mut s = format!(
            "info depth {} seldepth {} score {} time {} nodes {} nps {} hashfull {}",
            i.depth,
            i.seldepth,
            ucci_score(i.score),
            i.time_ms,
            i.nodes,
            i.nps,
            i.hashfull
        );
        if !i.pv.is_empty() {
            s.push_str(" pv");
            super::push_moves(&mut s, &i.pv);
        }
        s
    }

    fn currmove(&self, _depth: u32, mv: Move, number: u32) -> String {
        format!("info currmove {mv} currmovenumber {number}")
    }

    fn bestmove(&self, d: &Decision) -> String {
        let Some(best) = d.best else { return "nobestmove".to_string() };
        let mut s = format!("bestmove {best}");
        if let Some(p) = d.ponder {
            s.push_str(&format!(" ponder {p}"));
        }
        if d.draw {
            s.push_str(" draw");
        } else if d.resign {
            s.push_str(" resign");
        }
        s
    }

    fn stray_stop(&self) -> Option<String> {
        Some("nobestmove".to_string())
    }

    fn bye(&self) -> Option<String> {
        Some("bye".to_string())
    }

    fn pophash(&self, p: Option<&ProbeInfo>) -> String {
        let mut s = "pophash".to_string();
        if let Some(p) = p {
            if let Some(m) = p.mv {
                s.push_str(&format!(" bestmove {m}"));
            }
            let v = ucci_score(Score::from_internal(p.score));
            if matches!(p.bound, Bound::Exact | Bound::Lower) {
                s.push_str(&format!(" lowerbound {v} depth {}", p.depth));
            }
            if matches!(p.bound, Bound::Exact | Bound::Upper) {
                s.push_str(&format!(" upperbound {v} depth {}", p.depth));
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(line: &str, opts: &Options) -> Result<Go, String> {
        match Ucci.parse(line, opts)? {
            Command::Go(g) => Ok(g),
            c => Err(format!("not a go: {c:?}")),
        }
    }

    #[test]
    fn go_times_follow_usemillisec() {
        let mut o = Options::default();
        let g = go("go time 60 increment 1 opptime 50 oppincrement 1", &o).unwrap();
        assert_eq!((g.own_time_ms, g.own_inc_ms, g.infinite), (Some(60_000), Some(1000), false));
        o.use_millisec = true;
        let g = go("go draw time 60000 movestogo 20", &o).unwrap();
        assert_eq!((g.own_time_ms, g.movestogo, g.draw_offer), (Some(60_000), Some(20), true));
        assert!(go("go", &o).unwrap().infinite);
        assert!(go("go ponder time -5", &o).unwrap().ponder);
        assert_eq!(go("go time -5", &o).unwrap().own_time_ms, Some(0));
        assert!(go("go depth", &o).is_err());
        assert!(go("go depth x", &o).is_err());
        assert!(go("go ponder draw depth 3", &o).is_err());
        assert!(go("go fast", &o).is_err());
        assert_eq!(Ucci.parse("go perft 3", &o), Ok(Command::Perft(3)));
    }

    #[test]
    fn commands() {
        let o = Options::default();
        assert_eq!(Ucci.parse("", &o), Ok(Command::Empty));
        assert_eq!(Ucci.parse("   ", &o), Ok(Command::Empty));
        assert_eq!(
            Ucci.parse("setoption usemillisec true", &o),
            Ok(Command::SetOption { name: "usemillisec".into(), value: Some("true".into()) })
        );
        assert_eq!(Ucci.parse("setoption newgame", &o), Ok(Command::SetOption { name: "newgame".into(), value: None }));
        assert_eq!(Ucci.parse("ponderhit draw", &o), Ok(Command::PonderHit { draw: true }));
        assert!(Ucci.parse("ponderhit now", &o).is_err());
        assert!(Ucci.parse("banmoves h2e2 h2", &o).is_err());
        assert!(Ucci.parse("frobnicate", &o).unwrap_err().contains("unknown command"));
        assert!(Ucci.parse("isready now", &o).is_err());
    }

    #[test]
    fn replies() {
        assert_eq!(ucci_score(Score::Mate(1)), 9999);
        assert_eq!(ucci_score(Score::Mate(-1)), -9998);
        let h2e2 = Move::parse("h2e2").ok();
        let d = Decision { best: h2e2, ponder: Move::parse("h9g7").ok(), draw: false, resign: true };
        assert_eq!(Ucci.bestmove(&d), "bestmove h2e2 ponder h9g7 resign");
        assert_eq!(Ucci.bestmove(&Decision { best: None, ponder: None, draw: false, resign: false }), "nobestmove");
        let p = ProbeInfo { mv: h2e2, score: 35, bound: Bound::Lower, depth: 7 };
        assert_eq!(Ucci.pophash(Some(&p)), "pophash bestmove h2e2 lowerbound 35 depth 7");
        assert_eq!(Ucci.pophash(None), "pophash");
        assert_eq!(Ucci.handshake().last().map(String::as_str), Some("ucciok"));
    }
}
