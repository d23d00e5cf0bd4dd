//! Games lost by an engine's own fault (a crash, a stall, an illegal or missing move, a time
//! forfeit), counted per engine for the `Faults:` line of `chuhe match` and `chuhe stats`.

use super::game::Termination;
use crate::rules::GameResult;

/// One engine's games lost by a fault, by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Faults {
    /// Crashed or exited (`abandoned`).
    pub disconnects: u32,
    /// Stopped answering (`stalled connection`).
    pub stalls: u32,
    /// Illegal or missing moves, refused legal ones (`illegal move`).
    pub illegal: u32,
    /// Lost on time (`time forfeit`).
    pub time: u32,
}

impl Faults {
    /// Counts a game that ended by `termination`, if that is a fault.
    pub fn add(&mut self, termination: Termination) {
        match termination {
            Termination::Disconnect => self.disconnects += 1,
            Termination::Stall => self.stalls += 1,
            Termination::IllegalMove => self.illegal += 1,
            Termination::TimeForfeit => self.time += 1,
            _ => {}
        }
    }

    /// Games lost by any fault.
    pub fn total(&self) -> u32 {
        self.disconnects + self.stalls + self.illegal + self.time
    }
}

/// Which of Red (0) and Black (1) a game's fault is charged to: the loser, when it ended by
/// a fault; `None` otherwise.
pub fn at_fault(result: GameResult, termination: Termination) -> Option<usize> {
    let fault = matches!(
        termination,
        Termination::Disconnect | Termination::Stall | Termination::IllegalMove | Termination::TimeForfeit
    );
    match result {
        GameResult::RedWins if fault => Some(1),
        GameResult::BlackWins if fault => Some(0),
        _ => None,
    }
}

/// `Faults: A 2 (disconnects 1, stalls 1, illegal moves 0, time losses 0); B 0`.
pub fn faults_line(names: &[&str], faults: &[Faults]) -> String {
    let parts: Vec<String> = names
        .iter()
        .zip(faults)
        .map(|(n, f)| match f.total() {
            0 => format!("{n} 0"),
            t => format!(
                "{n} {t} (disconnects {}, stalls {}, illegal moves {}, time losses {})",
                f.disconnects, f.stalls, f.illegal, f.time
            ),
        })
        .collect();
    format!("Faults: {}", parts.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faults_are_charged_to_the_loser_and_named_by_kind() {
        assert_eq!(at_fault(GameResult::RedWins, Termination::Stall), Some(1));
        assert_eq!(at_fault(GameResult::BlackWins, Termination::TimeForfeit), Some(0));
        assert_eq!(at_fault(GameResult::RedWins, Termination::Rules), None);
        assert_eq!(at_fault(GameResult::Draw, Termination::Disconnect), None);
        let mut a = Faults::default();
        for t in [Termination::Disconnect, Termination::Stall, Termination::Rules, Termination::Adjudication] {
            a.add(t);
        }
        assert_eq!(
            faults_line(&["A", "B"], &[a, Faults::default()]),
            "Faults: A 2 (disconnects 1, stalls 1, illegal moves 0, time losses 0); B 0"
        );
    }
}
