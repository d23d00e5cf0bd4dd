//! UCCI 3.0 (the xqbase protocol): `ucci`/`ucciok`, `setoption <name> <value>` without
//! keywords, `go` times in seconds until `usemillisec` is on, `banmoves`, `probe`,
//! `nobestmove`, `bye`, and `bestmove ... draw|resign`.

use super::command::{bare, parse_go, parse_moves, parse_shared, Command, Go};
use super::options::{
    Key, OptionSet, Options, Spec, Style, GRADES, MAX_HASH_MB, MAX_MOVE_OVERHEAD_MS, MAX_THREADS, RANDOMNESS, STYLES,
};
use super::policy::Decision;
use super::words::{clip, Words};
use super::{info_line, Dialect, Replies, ENGINE_AUTHOR, ENGINE_NAME};
use crate::board::Move;
use crate::search::{Bound, Info, ProbeInfo, Score};

/// The UCCI dialect.
pub struct Ucci;

/// UCCI's mate score: a mate in `p` plies is reported as `±(UCCI_MATE - p)`.
pub const UCCI_MATE: i32 = 10000;

/// `go time` above this many seconds while times are seconds gets a warning naming
/// `usemillisec` (a GUI counting milliseconds without having turned it on).
pub const ABSURD_SECONDS: u64 = 3600;

/// Advertised: the options that do something. Unlisted: UCCI 3.0's other standard options,
/// accepted and kept without effect (see `docs/protocol.md`), so a GUI shows no dead controls.
const OPTIONS: OptionSet = OptionSet {
    style: Style::Ucci,
    advertised: &[
        Spec::check(Key::UseMillisec, "usemillisec"),
        Spec::check(Key::Batch, "batch"),
        Spec::check(Key::Debug, "debug"),
        Spec::check(Key::Ponder, "ponder"),
        Spec::spin(Key::Hash, "hashsize", 0, MAX_HASH_MB).zero_is_default(),
        Spec::spin(Key::Threads, "threads", 0, MAX_THREADS).zero_is_default(),
        Spec::spin(Key::MoveOverhead, "moveoverhead", 0, MAX_MOVE_OVERHEAD_MS),
        Spec::combo(Key::Pruning, "pruning", GRADES),
        Spec::combo(Key::Randomness, "randomness", RANDOMNESS),
        Spec::button(Key::ClearHash, "newgame"),
        Spec::check(Key::UseBook, "usebook"),
        Spec::string(Key::BookFiles, "bookfiles"),
        Spec::check(Key::UseNnue, "usennue"),
        Spec::string(Key::EvalFile, "evalfile"),
    ],
    unlisted: &[
        Spec::check(Key::UseHash, "usehash"),
        Spec::combo(Key::Idle, "idle", GRADES),
        Spec::combo(Key::Knowledge, "knowledge", GRADES),
        Spec::combo(Key::Style, "style", STYLES),
        Spec::check(Key::Promotion, "promotion"),
    ],
    // The spec: options the engine never advertised are accepted silently.
    unknown_is_error: false,
};

/// A score as UCCI prints it: centipawns, or `±(10000 − plies)` for mates.
pub fn ucci_score(s: Score) -> i32 {
    match s {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => UCCI_MATE - (2 * n - 1),
        Score::Mate(n) => -(UCCI_MATE - 2 * n.abs()),
    }
}

/// UCCI's own `go` words; times are in the unit `usemillisec` chose.
fn go_word(go: &mut Go, word: &str, w: &mut Words, unit: u64) -> Result<bool, String> {
    match word {
        "draw" => go.draw_offer = true,
        "time" => {
            let raw = w.peek().unwrap_or_default();
            let ms = w.time(word, unit)?;
            if unit == 1000 && ms > ABSURD_SECONDS * 1000 {
                go.notes.push(format!(
                    "warning: go time {} is read as seconds (usemillisec is off), over an hour; a GUI \
                     counting milliseconds should send 'setoption usemillisec true'",
                    clip(raw)
                ));
            }
            go.own_time_ms = Some(ms);
        }
        "increment" => go.own_inc_ms = Some(w.time(word, unit)?),
        // Checked, then ignored: the engine plans with its own clock only.
        "opptime" | "oppincrement" => {
            w.time(word, unit)?;
        }
        "oppmovestogo" => {
            w.count(word)?;
        }
        _ => return Ok(false),
    }
    Ok(true)
}

impl Replies for Ucci {
    fn options(&self) -> &'static OptionSet {
        &OPTIONS
    }

    fn handshake(&self) -> Vec<String> {
        let ids = [
            format!("id name {ENGINE_NAME}"),
            format!("id version {}", env!("CARGO_PKG_VERSION")),
            format!("id copyright {ENGINE_AUTHOR}, MIT licence"),
            format!("id author {ENGINE_AUTHOR}"),
        ];
        let options = OPTIONS.advertise();
        ids.into_iter().chain(options).chain(["ucciok".to_string()]).collect()
    }

    fn info(&self, i: &Info) -> Option<String> {
        let (score, time, nodes, nps, hashfull) = (ucci_score(i.score), i.time_ms, i.nodes, i.nps, i.hashfull);
        Some(info_line(i, format_args!("score {score} time {time} nodes {nodes} nps {nps} hashfull {hashfull}")))
    }

    fn currmove(&self, _depth: u32, mv: Move, number: u32) -> Option<String> {
        Some(format!("info currmove {mv} currmovenumber {number}"))
    }

    fn bestmove(&self, d: &Decision) -> Vec<String> {
        let Some(best) = d.best else { return vec!["nobestmove".to_string()] };
        let ponder = d.ponder_move.map_or(String::new(), |p| format!(" ponder {p}"));
        let flag = match (d.draw, d.resign) {
            (true, _) => " draw",
            (false, true) => " resign",
            (false, false) => "",
        };
        vec![format!("bestmove {best}{ponder}{flag}")]
    }

    fn stray_stop(&self) -> Option<String> {
        Some("nobestmove".to_string())
    }

    fn bye(&self) -> Option<String> {
        Some("bye".to_string())
    }

    fn pophash(&self, p: Option<&ProbeInfo>) -> Option<String> {
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
        Some(s)
    }
}

impl Dialect for Ucci {
    fn parse(&self, line: &str, opts: &Options) -> Result<Command, String> {
        let (Some(cmd), mut w) = Words::command(line) else { return Ok(Command::Empty) };
        Ok(match cmd {
            "ucci" => bare(cmd, &w, Command::Hello)?,
            "setoption" => {
                let name = w.next_word().ok_or("setoption needs an option name")?.to_string();
                let value = Some(w.rest()).filter(|v| !v.is_empty());
                Command::SetOption { name, value }
            }
            "banmoves" => Command::BanMoves(
                parse_moves(std::iter::from_fn(|| w.next_word())).map_err(|e| format!("banmoves: {e}"))?,
            ),
            "go" => {
                let unit = opts.ucci_time_unit_ms();
                let c = parse_go(&mut w, |go, word, w| go_word(go, word, w, unit))?;
                if matches!(&c, Command::Go(g) if g.pondering && g.draw_offer) {
                    return Err("go: 'ponder' and 'draw' exclude each other".to_string());
                }
                c
            }
            "ponderhit" => match w.next_word() {
                None => Command::PonderHit { draw: false },
                Some("draw") => Command::PonderHit { draw: true },
                Some(x) => return Err(format!("ponderhit: unknown word '{}'", clip(x))),
            },
            "d" => bare(cmd, &w, Command::Display)?,
            "eval" => bare(cmd, &w, Command::Eval)?,
            _ => parse_shared(cmd, &mut w)?,
        })
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
        assert!(go("go ponder time -5", &o).unwrap().pondering);
        assert_eq!(go("go time -5", &o).unwrap().own_time_ms, Some(0));
        assert_eq!(go("go depth", &o).unwrap_err().to_string(), "'depth' needs a number");
        assert_eq!(go("go depth x", &o).unwrap_err().to_string(), "'depth' needs a non-negative integer, got 'x'");
        assert_eq!(
            go("go ponder draw depth 3", &o).unwrap_err().to_string(),
            "go: 'ponder' and 'draw' exclude each other"
        );
        assert_eq!(go("go fast", &o).unwrap_err().to_string(), "go: unknown word 'fast'");
        assert_eq!(Ucci.parse("go perft 3", &o), Ok(Command::Perft(3)));
    }

    #[test]
    fn a_time_that_looks_like_milliseconds_gets_a_note() {
        let mut o = Options::default();
        assert!(go("go time 3600 increment 5000", &o).unwrap().notes.is_empty());
        let g = go("go time 5000 increment 10", &o).unwrap();
        assert_eq!(g.own_time_ms, Some(5_000_000), "obeyed as given");
        assert_eq!(g.notes.len(), 1);
        assert!(
            g.notes[0].starts_with("warning: go time 5000 is read as seconds") && g.notes[0].contains("usemillisec")
        );
        o.use_millisec = true;
        assert!(go("go time 5000000", &o).unwrap().notes.is_empty());
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
        assert_eq!(Ucci.parse("ponderhit now", &o).unwrap_err().to_string(), "ponderhit: unknown word 'now'");
        assert_eq!(
            Ucci.parse("banmoves h2e2 h2", &o).unwrap_err().to_string(),
            "banmoves: malformed move 'h2' (move 2)"
        );
        assert!(Ucci.parse("frobnicate", &o).unwrap_err().contains("unknown command"));
        assert_eq!(Ucci.parse("isready now", &o).unwrap_err().to_string(), "isready: unexpected word 'now'");
    }

    #[test]
    fn replies() {
        assert_eq!(ucci_score(Score::Mate(1)), 9999);
        assert_eq!(ucci_score(Score::Mate(-1)), -9998);
        let h2e2 = Move::parse("h2e2").ok();
        let d = Decision { best: h2e2, ponder_move: Move::parse("h9g7").ok(), draw: false, resign: true };
        assert_eq!(Ucci.bestmove(&d), ["bestmove h2e2 ponder h9g7 resign"]);
        let draw = Decision { draw: true, ..d };
        assert_eq!(Ucci.bestmove(&draw), ["bestmove h2e2 ponder h9g7 draw"]);
        assert_eq!(
            Ucci.bestmove(&Decision { best: None, ponder_move: None, draw: false, resign: false }),
            ["nobestmove"]
        );
        let p = ProbeInfo { mv: h2e2, score: 35, bound: Bound::Lower, depth: 7 };
        assert_eq!(Ucci.pophash(Some(&p)).unwrap(), "pophash bestmove h2e2 lowerbound 35 depth 7");
        assert_eq!(Ucci.pophash(None).unwrap(), "pophash");
        let hs = Ucci.handshake();
        assert_eq!(hs.last().map(String::as_str), Some("ucciok"));
        assert!(hs.contains(&"option pruning type combo var none var small var medium var large default large".into()));
        assert!(hs.contains(
            &"option randomness type combo var none var tiny var small var medium var large var huge default none"
                .into()
        ));
        for unlisted in ["usehash", "idle", "knowledge", "style", "promotion"] {
            assert!(!hs.iter().any(|l| l.starts_with(&format!("option {unlisted} "))), "{unlisted}");
            assert!(OPTIONS.find(unlisted).is_some(), "{unlisted} is accepted");
        }
    }
}
