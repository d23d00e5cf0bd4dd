//! Building verdicts with their one-line reasons, and the judge's JSON form of a verdict.

use super::{Game, GameResult, IllegalMove, Rule, Verdict};
use crate::board::Color;
use std::fmt::Write;

impl Rule {
    /// Stable snake-case name, as in the judge's JSON (`perpetual_check`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Rule::Checkmate => "checkmate",
            Rule::Stalemate => "stalemate",
            Rule::PerpetualCheck => "perpetual_check",
            Rule::PerpetualChase => "perpetual_chase",
            Rule::Repetition => "repetition",
            Rule::MoveLimit => "move_limit",
            Rule::InsufficientMaterial => "insufficient_material",
            Rule::IllegalMove => "illegal_move",
        }
    }

    /// Words for a reason line.
    fn words(self) -> &'static str {
        match self {
            Rule::Checkmate => "checkmate",
            Rule::Stalemate => "stalemate (no legal move)",
            Rule::PerpetualCheck => "perpetual check",
            Rule::PerpetualChase => "perpetual chase",
            Rule::Repetition => "repetition",
            Rule::MoveLimit => "60-move rule (120 plies without capture)",
            Rule::InsufficientMaterial => "insufficient material",
            Rule::IllegalMove => "illegal move",
        }
    }
}

fn plies(cycle: Option<(usize, usize)>) -> String {
    cycle.map_or(String::new(), |(a, b)| format!(", plies {a}-{b}"))
}

impl Verdict {
    /// `loser` loses by `rule` (with the repetition cycle, if any).
    pub fn loss(rule: Rule, loser: Color, cycle: Option<(usize, usize)>) -> Verdict {
        let reason = format!("{} loses: {}{}", loser.name(), rule.words(), plies(cycle));
        Verdict { result: GameResult::loss_for(loser), rule, loser: Some(loser), cycle, reason }
    }

    /// A draw by `rule` (the 60-move rule or insufficient material).
    pub fn draw(rule: Rule) -> Verdict {
        let reason = format!("Draw: {}", rule.words());
        Verdict { result: GameResult::Draw, rule, loser: None, cycle: None, reason }
    }

    /// A drawn repetition; `kind` says whether both sides checked perpetually
    /// (`PerpetualCheck`), both chased (`PerpetualChase`), or neither (`Repetition`).
    pub fn repetition_draw(kind: Rule, cycle: (usize, usize)) -> Verdict {
        let how = match kind {
            Rule::PerpetualCheck => " (both sides check perpetually)",
            Rule::PerpetualChase => " (both sides chase perpetually)",
            _ => "",
        };
        let reason = format!("Draw: repetition{how}{}", plies(Some(cycle)));
        Verdict { result: GameResult::Draw, rule: Rule::Repetition, loser: None, cycle: Some(cycle), reason }
    }

    /// The side that played an illegal move loses.
    pub fn illegal(m: &IllegalMove) -> Verdict {
        let reason = format!("{} loses: illegal move {} at ply {}", m.side.name(), m.mv, m.ply);
        Verdict {
            result: GameResult::loss_for(m.side),
            rule: Rule::IllegalMove,
            loser: Some(m.side),
            cycle: None,
            reason,
        }
    }
}

/// `s` as a JSON string literal, quotes included.
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn color_json(c: Option<Color>) -> String {
    c.map_or("null".to_string(), |c| json_string(&c.name().to_ascii_lowercase()))
}

impl Game {
    /// One JSON object describing the game's state: the verdict (or `*` while it goes on),
    /// the losing side, the rule, and for a repetition every cycle move's classification.
    /// `illegal` is the move that ended the game, if it ended on an illegal move.
    pub fn verdict_json(&self, verdict: Option<&Verdict>, illegal: Option<&IllegalMove>) -> String {
        let mut o = String::from("{");
        let (result, reason) = match verdict {
            Some(v) => (v.result.to_string(), v.reason.clone()),
            None => ("*".to_string(), "game goes on".to_string()),
        };
        let _ = write!(o, "\"result\":{},\"reason\":{}", json_string(&result), json_string(&reason));
        let rule = verdict.map_or("null".to_string(), |v| json_string(v.rule.name()));
        let _ = write!(o, ",\"rule\":{rule},\"side\":{}", color_json(verdict.and_then(|v| v.loser)));
        let _ = write!(o, ",\"plies\":{}", self.moves().len());
        if let Some(m) = illegal {
            let _ = write!(o, ",\"illegal_move\":{{\"move\":\"{}\",\"ply\":{}}}", m.mv, m.ply);
        }
        match verdict.and_then(|v| v.cycle) {
            None => o.push_str(",\"cycle\":null"),
            Some((first, last)) => {
                let _ = write!(o, ",\"cycle\":{{\"first\":{first},\"last\":{last},\"moves\":[");
                for (i, cm) in self.cycle_moves(first, last).iter().enumerate() {
                    if i > 0 {
                        o.push(',');
                    }
                    let class = if cm.class.is_check() {
                        "check"
                    } else if cm.class.is_chase() {
                        "chase"
                    } else {
                        "idle"
                    };
                    let _ = write!(
                        o,
                        "{{\"ply\":{},\"move\":\"{}\",\"side\":{},\"class\":\"{class}\",\"chased\":[",
                        cm.ply,
                        cm.mv,
                        color_json(Some(cm.side))
                    );
                    for (j, (kind, sq)) in cm.chased.iter().enumerate() {
                        if j > 0 {
                            o.push(',');
                        }
                        let _ = write!(o, "{{\"piece\":\"{}\",\"square\":\"{sq}\"}}", kind.name());
                    }
                    o.push_str("]}");
                }
                o.push_str("]}");
            }
        }
        o.push('}');
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(json_string("a\"b\\c\nd\u{1}"), "\"a\\\"b\\\\c\\nd\\u0001\"");
        assert_eq!(json_string("楚河"), "\"楚河\"");
    }

    #[test]
    fn reasons_name_rule_side_and_plies() {
        let v = Verdict::loss(Rule::PerpetualCheck, Color::Red, Some((41, 48)));
        assert_eq!(v.reason, "Red loses: perpetual check, plies 41-48");
        assert_eq!(v.result, GameResult::BlackWins);
        assert_eq!(format!("{} {{{}}}", v.result, v.reason), "0-1 {Red loses: perpetual check, plies 41-48}");
        assert_eq!(Verdict::draw(Rule::InsufficientMaterial).reason, "Draw: insufficient material");
        let mutual = Verdict::repetition_draw(Rule::PerpetualCheck, (5, 12));
        assert_eq!((mutual.result, mutual.rule, mutual.loser), (GameResult::Draw, Rule::Repetition, None));
        assert_eq!(mutual.reason, "Draw: repetition (both sides check perpetually), plies 5-12");
    }
}
