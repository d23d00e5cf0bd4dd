//! The diagnostic commands: `perft`, `d`, `eval`, `bench` and `compiler` (`flip` is one line
//! in `Session::execute`).

use super::Session;
use crate::board::{Color, Move};
use crate::eval::{self, nnue::Network};
use crate::perft::divide;
use crate::protocol::command::BenchArgs;
use std::time::Instant;

/// Largest `go perft` depth (perft runs on the loop's thread; 6 plies take about a minute).
pub const MAX_PERFT_DEPTH: u32 = 6;

impl Session {
    pub(super) fn perft(&mut self, depth: u32) -> Result<(), String> {
        if depth > MAX_PERFT_DEPTH {
            return Err(format!("perft: depth {depth} too large (at most {MAX_PERFT_DEPTH})"));
        }
        self.require_idle("perft")?;
        let mut pos = self.game.position().clone();
        let t = Instant::now();
        let mut lines = Vec::new();
        let mut total = 1;
        if depth > 0 {
            let split = divide(&mut pos, depth);
            total = split.iter().map(|x| x.1).sum();
            lines.extend(split.iter().map(|(m, n)| format!("{m}: {n}")));
        }
        let ms = t.elapsed().as_millis() as u64;
        let nps = total * 1000 / ms.max(1);
        if self.replies.pikafish_shapes() {
            // Pikafish: a blank line, the total, a blank line; the time after, for people.
            lines.extend(["".to_string(), format!("Nodes searched: {total}"), "".to_string()]);
            lines.push(self.replies.message(&format!("perft depth {depth} time {ms} ms nps {nps}")));
        } else {
            lines.push(format!("nodes {total} time {ms} nps {nps}"));
        }
        self.out.lines(&lines);
        Ok(())
    }

    /// `bench`: the search of `chuhe bench` with the session's evaluation, one `info string`
    /// per position, then Pikafish's closing block. Runs on the loop's thread.
    pub(super) fn bench(&mut self, a: BenchArgs) -> Result<(), String> {
        self.require_idle("bench")?;
        let setup = crate::bench::Setup {
            depth: a.depth,
            hash_mb: a.hash_mb as usize,
            threads: a.threads as usize,
            evaluator: self.evaluator(),
        };
        let count = crate::bench::POSITIONS.len();
        let (out, replies) = (self.out.clone(), self.replies.clone());
        let (nodes, ms) = crate::bench::bench(&setup, |i, _, r, ms| {
            let best = r.best.map_or("(none)".to_string(), |m| m.to_string());
            out.line(&replies.message(&format!(
                "bench position {}/{count} depth {} nodes {} time {ms} bestmove {best}",
                i + 1,
                a.depth,
                r.nodes
            )));
        })?;
        self.out.lines(&crate::bench::closing_block(nodes, ms));
        Ok(())
    }

    pub(super) fn display(&self) {
        if self.replies.pikafish_shapes() {
            return self.display_pikafish();
        }
        let pos = self.game.position();
        let mut lines: Vec<String> = pos.pretty().lines().map(str::to_string).collect();
        lines.push(format!("fen {}", pos.to_fen()));
        lines.push(format!("key {:016x}", pos.key()));
        lines.push(format!(
            "side to move {}{}",
            pos.side_to_move().name(),
            if pos.in_check() { " (in check)" } else { "" }
        ));
        lines.push(format!("moves since the FEN {}", self.game.moves().len()));
        let banned: Vec<String> = self.banned.iter().map(Move::to_string).collect();
        lines.push(format!("banmoves {}", if banned.is_empty() { "(none)".to_string() } else { banned.join(" ") }));
        self.out.lines(&lines);
    }

    /// `d` in Pikafish's shape: the board in a grid, `Fen:`, `Key:`, `Checkers:`; then the
    /// side to move and the moves since the FEN as an `info string`.
    fn display_pikafish(&self) {
        let pos = self.game.position();
        const RULE: &str = " +---+---+---+---+---+---+---+---+---+";
        let mut lines = vec![String::new(), RULE.to_string()];
        for r in (0..10u8).rev() {
            let mut row = String::new();
            for f in 0..9u8 {
                row.push_str(" | ");
                row.push(pos.piece_at(crate::board::Square::new(f, r)).map_or(' ', |p| p.letter()));
            }
            lines.push(format!("{row} | {r}"));
            lines.push(RULE.to_string());
        }
        lines.push("   a   b   c   d   e   f   g   h   i".to_string());
        lines.push(String::new());
        lines.push(format!("Fen: {}", pos.to_fen()));
        lines.push(format!("Key: {:016X}", pos.key()));
        let checkers: Vec<String> = pos.checkers().iter().map(|s| s.to_string()).collect();
        lines.push(format!("Checkers: {}", checkers.join(" ")));
        lines.push(self.replies.message(&format!(
            "side to move {}{}, moves since the FEN {}",
            pos.side_to_move().name(),
            if pos.in_check() { " (in check)" } else { "" },
            self.game.moves().len()
        )));
        self.out.lines(&lines);
    }

    pub(super) fn eval(&self) {
        let pos = self.game.position();
        let mut head = Vec::new();
        if self.replies.pikafish_shapes() {
            // Pikafish's closing lines, in pawns from Red's side (its "white side").
            let red = |v: i32| if pos.side_to_move() == Color::Red { v } else { -v };
            let pawns = |v: i32| format!("{:+.2}", f64::from(red(v)) / 100.0);
            head.push(String::new());
            if pos.in_check() {
                head.push("Final evaluation: none (in check)".to_string());
            } else {
                let net = self.current_network().evaluate_position(pos);
                let (used, which) =
                    if self.opts.use_nnue { (net, "network") } else { (eval::evaluate(pos), "hand-written") };
                head.push(format!("NNUE evaluation        {} (red side)", pawns(net)));
                head.push(format!("Final evaluation       {} (red side) [{which} evaluation]", pawns(used)));
            }
        }
        let terms = eval::breakdown(pos);
        let mut lines: Vec<String> =
            terms.iter().map(|t| format!("{:<16} {:+} (Red minus Black)", t.name, t.red_minus_black)).collect();
        let red: i32 = terms.iter().map(|t| t.red_minus_black).sum();
        lines.push(format!("{:<16} {red:+} (Red's view)", "total"));
        lines.push(format!(
            "{:<16} {:+} ({}'s view, side to move)",
            "evaluate",
            eval::evaluate(pos),
            pos.side_to_move().name()
        ));
        let net = self.current_network();
        lines.push(format!(
            "{:<16} {:+} ({}'s view; net {:016x} '{}', {}; {} inference)",
            "network",
            net.evaluate_position(pos),
            pos.side_to_move().name(),
            net.checksum(),
            net.description(),
            if self.opts.eval_file.is_empty() { "embedded".to_string() } else { self.opts.eval_file.clone() },
            Network::simd_path()
        ));
        lines.push(format!(
            "{:<16} {}",
            "in use",
            if self.opts.use_nnue { "network (UseNNUE on)" } else { "hand-written (UseNNUE off)" }
        ));
        if !head.is_empty() {
            // After Pikafish's lines Chuhe's own come as info strings, which UCI tools skip.
            lines = head.into_iter().chain(lines.iter().map(|l| self.replies.message(&format!("eval {l}")))).collect();
        }
        self.out.lines(&lines);
    }
}

/// `compiler`: how the binary was built, in Pikafish's four labelled lines between blank
/// lines (the build script records the compiler's version, the target and the profile).
pub fn compiler_lines() -> Vec<String> {
    let version = option_env!("CHUHE_RUSTC_VERSION").unwrap_or("rustc (version unknown)");
    let short: Vec<&str> = version.split_whitespace().take(2).collect();
    let os = match std::env::consts::OS {
        "linux" => "Linux",
        "macos" => "Apple",
        "windows" => "Microsoft Windows",
        other => other,
    };
    let mut settings = format!(
        "{}bit {} (opt-level {})",
        usize::BITS,
        option_env!("CHUHE_PROFILE").unwrap_or(if cfg!(debug_assertions) { "debug" } else { "release" }),
        option_env!("CHUHE_OPT_LEVEL").unwrap_or("?")
    );
    for (on, name) in [
        (cfg!(target_feature = "avx2"), " AVX2"),
        (cfg!(target_feature = "sse4.1"), " SSE41"),
        (cfg!(target_feature = "sse2"), " SSE2"),
        (cfg!(target_feature = "neon"), " NEON"),
        (cfg!(target_feature = "popcnt"), " POPCNT"),
    ] {
        if on {
            settings.push_str(name);
        }
    }
    settings.push_str(&format!("; network inference chosen at run time: {}", Network::simd_path()));
    let target = option_env!("CHUHE_TARGET").unwrap_or(std::env::consts::ARCH);
    vec![
        String::new(),
        format!("Compiled by                : {} on {os}", short.join(" ")),
        format!("Compilation architecture   : {target}"),
        format!("Compilation settings       : {settings}"),
        format!("Compiler __VERSION__ macro : {version}"),
        String::new(),
    ]
}
