//! The search's parameters and switches as hidden options: never advertised, set by name in
//! every dialect, refused with one error line when wrong, and really used by the search.

mod common;

use common::*;

/// Nodes of a single-threaded `go depth 6` from the start on an empty table (deterministic for
/// a given search).
fn nodes_at_depth_6(e: &mut Engine, dialect: &str) -> String {
    e.ask(if dialect == "uci" { "ucinewgame" } else { "setoption newgame" });
    e.send("position startpos");
    e.send("go depth 6");
    let (_, info) = e.search_end();
    let last = info.iter().rev().find(|l| l.contains(" pv ")).expect("a pv line").clone();
    word_after(&last, "nodes").expect("nodes").to_string()
}

#[test]
fn uci_and_ucci_take_parameters_and_switches_unlisted() {
    for dialect in ["uci", "ucci"] {
        let (mut e, lines) = Engine::handshake(dialect);
        assert!(!lines.iter().any(|l| l.contains("rfp_margin") || l.contains("null_move")), "{lines:?}");
        let set = |name: &str, value: &str| {
            if dialect == "uci" {
                format!("setoption name {name} value {value}")
            } else {
                format!("setoption {name} {value}")
            }
        };
        let before = nodes_at_depth_6(&mut e, dialect);
        assert!(e.ask(&set("lmr_div_pct", "120")).is_empty());
        let tuned = nodes_at_depth_6(&mut e, dialect);
        assert_ne!(before, tuned, "{dialect}: the parameter changes the search");
        assert!(e.ask(&set("lmr_div_pct", "220")).is_empty());
        assert_eq!(nodes_at_depth_6(&mut e, dialect), before, "{dialect}: the default again");
        assert!(e.ask(&set("null_move", "false")).is_empty());
        for (bad, why) in [
            (set("rfp_margin", "1"), "rfp_margin must be from 20 to 300, not 1"),
            (set("rfp_margin", "ten"), "rfp_margin takes an integer, not 'ten'"),
            (set("null_move", "perhaps"), "null_move takes true or false, not 'perhaps'"),
        ] {
            let lines = e.ask(&bad);
            assert_eq!(lines, vec![format!("info string error: setoption: {why}")], "{dialect}: {bad}");
        }
    }
}

#[test]
fn xboard_takes_parameters_as_options() {
    let (mut e, features) = Engine::xboard_handshake();
    assert!(!features.iter().any(|l| l.contains("rfp_margin")), "{features:?}");
    e.send("option rfp_margin=100");
    e.send("option rfp_margin=1");
    e.send("ping 1");
    let lines = e.until(|l| l == "pong 1");
    assert_eq!(lines, vec!["Error (rfp_margin must be from 20 to 300, not 1): setoption", "pong 1"]);
}
