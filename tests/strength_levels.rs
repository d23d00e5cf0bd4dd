//! Playing below full strength, against the real binary: UCI `Skill Level`, `UCI_LimitStrength`
//! with `UCI_Elo`, UCCI `randomness`, CECP `Skill Level`. Limits are depths, never times.

mod common;

use chuhe::board::Position;
use common::*;

/// The node count of the last line shown.
fn last_nodes(lines: &[String]) -> u64 {
    let last = lines.iter().rev().find(|l| l.starts_with("info depth") && l.contains(" pv ")).unwrap();
    word_after(last, "nodes").unwrap().parse().unwrap()
}

/// Skill 0's budget: the first iteration (which always completes) and a few nodes more; a
/// full-strength `go depth 8` from the start needs tens of thousands.
const SKILL_ZERO_NODES: u64 = 1000;

/// A search's deepest `depth`, the score of its first line at that depth (the best line), and
/// the move and score of the last line shown (the move played).
fn last_iteration(lines: &[String]) -> (u32, i32, (String, i32)) {
    let pv: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth") && l.contains(" pv ")).collect();
    let score = |l: &str| -> i32 {
        word_after(l, "cp").or_else(|| word_after(l, "score")).and_then(|s| s.parse().ok()).unwrap()
    };
    let depth: u32 = pv.iter().filter_map(|l| word_after(l, "depth")?.parse().ok()).max().unwrap();
    let first = pv.iter().find(|l| word_after(l, "depth") == Some(&depth.to_string())).unwrap();
    let last = pv.last().unwrap();
    (depth, score(first), (word_after(last, "pv").unwrap().to_string(), score(last)))
}

#[test]
fn uci_skill_level_caps_the_depth_and_varies_the_move() {
    let (mut e, hs) = Engine::handshake("uci");
    assert!(hs.contains(&"option name Skill Level type spin default 20 min 0 max 20".to_string()), "{hs:?}");
    assert!(hs.contains(&"option name UCI_LimitStrength type check default false".to_string()), "{hs:?}");
    assert!(hs.iter().any(|l| l.starts_with("option name UCI_Elo type spin default ")), "{hs:?}");
    // Full strength by default: one line, as deep as asked.
    e.send("position startpos");
    e.send("go depth 5");
    let (best, lines) = e.search_end();
    assert_eq!(last_iteration(&lines).0, 5, "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("multipv 2")), "{lines:?}");
    let full = best_of(&best);
    assert!(Position::startpos().is_legal(full));

    assert_eq!(e.ask("setoption name Skill Level value 0"), Vec::<String>::new());
    let mut seen = Vec::new();
    for _ in 0..30 {
        e.ask("ucinewgame");
        e.send("position startpos");
        e.send("go depth 12");
        let (best, lines) = e.search_end();
        let (depth, top, played) = last_iteration(&lines);
        assert!(depth <= 2 && last_nodes(&lines) <= SKILL_ZERO_NODES, "skill 0 searches almost nothing: {lines:?}");
        assert!(!lines.iter().any(|l| l.contains("multipv 2")), "only the lines the GUI asked for: {lines:?}");
        let m = best_of(&best);
        assert!(Position::startpos().is_legal(m));
        assert_eq!(played.0, m.to_string(), "the move played is the line shown: {lines:?}");
        assert!(top - played.1 <= 200, "within skill 0's spread: {played:?} vs {top}");
        seen.push(m);
    }
    seen.sort_by_key(|m| m.to_string());
    seen.dedup();
    assert!(seen.len() >= 2, "thirty weak searches all chose {seen:?}");

    // Out of range is clamped with a note; back to 20 is full strength again.
    let lines = e.ask("setoption name Skill Level value 99");
    assert!(lines.len() == 1 && lines[0].contains("out of range"), "{lines:?}");
    e.send("go depth 5");
    let (best, lines) = e.search_end();
    assert_eq!(last_iteration(&lines).0, 5);
    assert_eq!(best_of(&best), full, "full strength is deterministic");
    e.refused("setoption name Skill Level value weak");
}

#[test]
fn uci_elo_limits_strength_only_when_asked() {
    let mut e = Engine::handshake("uci").0;
    // UCI_Elo alone changes nothing.
    e.ask("setoption name UCI_Elo value 0");
    e.send("position startpos");
    e.send("go depth 4");
    assert_eq!(last_iteration(&e.search_end().1).0, 4);
    // With UCI_LimitStrength the lowest Elo is skill 0, whatever Skill Level says.
    e.ask("setoption name Skill Level value 20");
    e.ask("setoption name UCI_LimitStrength value true");
    e.send("go depth 8");
    let (best, lines) = e.search_end();
    assert!(last_iteration(&lines).0 <= 2 && last_nodes(&lines) <= SKILL_ZERO_NODES, "{lines:?}");
    assert!(Position::startpos().is_legal(best_of(&best)));
    e.ask("setoption name UCI_LimitStrength value false");
    e.send("go depth 4");
    assert_eq!(last_iteration(&e.search_end().1).0, 4);
    e.refused("setoption name UCI_LimitStrength value perhaps");
}

#[test]
fn ucci_randomness_picks_within_its_spread() {
    let (mut e, hs) = Engine::handshake("ucci");
    assert!(hs.contains(
        &"option randomness type combo var none var tiny var small var medium var large var huge default none"
            .to_string()
    ));
    assert_eq!(e.ask("setoption randomness huge"), Vec::<String>::new());
    for _ in 0..5 {
        e.send("position startpos moves h2e2 h9g7");
        e.send("go depth 4");
        let (best, lines) = e.search_end();
        let (depth, top, played) = last_iteration(&lines);
        assert_eq!(depth, 4, "randomness does not cap the depth: {lines:?}");
        assert_eq!(played.0, best_of(&best).to_string(), "the move played is the line shown: {lines:?}");
        assert!(top - played.1 <= 128, "within huge's spread: {played:?} vs {top}");
    }
    e.refused("setoption randomness wild");
}

#[test]
fn cecp_skill_level_is_an_option() {
    let (mut e, hs) = Engine::xboard_handshake();
    assert!(hs.contains(&"feature option=\"Skill Level -spin 20 0 20\"".to_string()), "{hs:?}");
    e.send("option Skill Level=0");
    e.send("new");
    e.send("variant xiangqi");
    e.send("sd 9");
    e.send("post");
    e.send("go");
    let lines = e.until(|l| l.starts_with("move "));
    let depths: Vec<u32> = lines.iter().filter_map(|l| l.split_whitespace().next()?.parse().ok()).collect();
    assert!(!depths.is_empty() && depths.iter().all(|&d| d <= 2), "{lines:?}");
}
