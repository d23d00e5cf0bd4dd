//! The two evaluators behind one interface: which one a search uses (`Evaluator`) and the
//! state a search thread keeps for it (`EvalState`), moved only where moves are made and unmade.

use super::nnue::{AccumulatorStack, Network};
use crate::board::{Move, Position};
use std::sync::Arc;

/// Which evaluation a search calls.
#[derive(Clone)]
pub enum Evaluator {
    /// The hand-written evaluation (`eval::evaluate`).
    Hand,
    /// A network (the embedded one or an `EvalFile`).
    Network(Arc<Network>),
}

impl std::fmt::Debug for Evaluator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Evaluator::Hand => write!(f, "hand-written"),
            Evaluator::Network(net) => write!(f, "network {:016x}", net.checksum()),
        }
    }
}

impl Default for Evaluator {
    /// The network when `NETWORK_BY_DEFAULT`, else the hand-written evaluation.
    fn default() -> Evaluator {
        if super::NETWORK_BY_DEFAULT {
            Evaluator::embedded()
        } else {
            Evaluator::Hand
        }
    }
}

impl Evaluator {
    /// The network built into the binary.
    pub fn embedded() -> Evaluator {
        Evaluator::Network(super::nnue::DEFAULT.clone())
    }

    /// The network, if this is one.
    pub fn network(&self) -> Option<&Arc<Network>> {
        match self {
            Evaluator::Hand => None,
            Evaluator::Network(net) => Some(net),
        }
    }
}

/// A search thread's evaluator state: for a network, its accumulators along the path from
/// the root, kept lazily (`nnue::AccumulatorStack`; allocated once per search, nothing per node).
pub struct EvalState<'a> {
    stack: Option<AccumulatorStack<'a>>,
}

impl<'a> EvalState<'a> {
    /// The state at `root` for paths of at most `max_height` moves.
    pub fn new(evaluator: &'a Evaluator, root: &Position, max_height: usize) -> EvalState<'a> {
        match evaluator {
            Evaluator::Hand => EvalState { stack: None },
            Evaluator::Network(net) => EvalState { stack: Some(AccumulatorStack::new(net, root, max_height)) },
        }
    }

    /// Before `m` is made in `pos`.
    #[inline]
    pub fn push_move(&mut self, pos: &Position, m: Move) {
        if let Some(stack) = &mut self.stack {
            stack.push_move(pos, m);
        }
    }

    /// Before a null move: the pieces stay, so the accumulator does too.
    #[inline]
    pub fn push_null(&mut self) {
        if let Some(stack) = &mut self.stack {
            stack.push_null();
        }
    }

    /// After a move or null move is unmade.
    #[inline]
    pub fn pop(&mut self) {
        if let Some(stack) = &mut self.stack {
            stack.pop();
        }
    }

    /// The evaluation of `pos`, the position at the top of the path, from the side to move's
    /// view (a network's accumulators are brought up to it here).
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        match &mut self.stack {
            None => super::evaluate(pos),
            Some(stack) => stack.evaluate(pos),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::testing::random_games;
    use crate::eval::nnue::tests::{random_arch_net, test_archs};

    #[test]
    fn the_stack_follows_moves_null_moves_and_unmaking() {
        // Walk down a random path with moves and null moves, then back up: at every step the
        // incremental evaluation equals the network's evaluation from scratch.
        // Evaluations are skipped at random, so the lazy updates catch up over several plies.
        for arch in test_archs() {
            let evaluator = Evaluator::Network(Arc::new(random_arch_net(arch, 21)));
            let net = evaluator.network().unwrap().clone();
            random_games(9, 6, 60, |root, _, _, _| {
                let mut pos = root.clone();
                let mut state = EvalState::new(&evaluator, &pos, 16);
                let mut undo = Vec::new();
                let mut rng = crate::board::zobrist::Rng::new(pos.key());
                for step in 0..12 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    if step % 5 == 3 && !pos.in_check() {
                        state.push_null();
                        undo.push((Move::NULL, pos.make_null()));
                    } else {
                        let m = moves[rng.below(moves.len())];
                        state.push_move(&pos, m);
                        undo.push((m, pos.make_move(m)));
                    }
                    if rng.below(3) > 0 {
                        assert_eq!(state.evaluate(&pos), net.evaluate_position(&pos), "{}", pos.to_fen());
                    }
                }
                while let Some((m, u)) = undo.pop() {
                    if m == Move::NULL {
                        pos.unmake_null(u);
                    } else {
                        pos.unmake_move(m, u);
                    }
                    state.pop();
                    if rng.below(2) == 0 {
                        assert_eq!(state.evaluate(&pos), net.evaluate_position(&pos), "{}", pos.to_fen());
                    }
                }
                assert!(pos == *root);
            });
        }
    }

    #[test]
    fn the_hand_written_state_is_the_hand_written_evaluation() {
        let evaluator = Evaluator::Hand;
        let pos = Position::startpos();
        let mut state = EvalState::new(&evaluator, &pos, 4);
        assert_eq!(state.evaluate(&pos), crate::eval::evaluate(&pos));
    }
}
