//! The two evaluators behind one interface: which one a search uses (`Evaluator`) and the
//! state a search thread keeps for it (`EvalState`), moved only where moves are made and unmade.

use super::nnue::{Accumulator, Network};
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

/// A search thread's evaluator state: for a network, one accumulator per ply of the path
/// from the root (allocated once per search, nothing per node).
pub struct EvalState<'a> {
    net: Option<&'a Network>,
    stack: Vec<Accumulator>,
    top: usize,
}

impl<'a> EvalState<'a> {
    /// The state at `root` for paths of at most `max_height` moves.
    pub fn new(evaluator: &'a Evaluator, root: &Position, max_height: usize) -> EvalState<'a> {
        match evaluator {
            Evaluator::Hand => EvalState { net: None, stack: Vec::new(), top: 0 },
            Evaluator::Network(net) => {
                let stack = vec![net.refresh(root); max_height + 1];
                EvalState { net: Some(net), stack, top: 0 }
            }
        }
    }

    /// Before `m` is made in `pos`.
    #[inline]
    pub fn push_move(&mut self, pos: &Position, m: Move) {
        if let Some(net) = self.net {
            let (done, rest) = self.stack.split_at_mut(self.top + 1);
            net.update(&done[self.top], &mut rest[0], pos, m);
            self.top += 1;
        }
    }

    /// Before a null move: the pieces stay, so the accumulator does too.
    #[inline]
    pub fn push_null(&mut self) {
        if self.net.is_some() {
            let (done, rest) = self.stack.split_at_mut(self.top + 1);
            rest[0].v = done[self.top].v;
            self.top += 1;
        }
    }

    /// After a move or null move is unmade.
    #[inline]
    pub fn pop(&mut self) {
        if self.net.is_some() {
            self.top -= 1;
        }
    }

    /// The evaluation of `pos`, the position at the top of the path, from the side to move's view.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        match self.net {
            None => super::evaluate(pos),
            Some(net) => net.evaluate(&self.stack[self.top], pos.side_to_move()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::testing::random_games;
    use crate::eval::nnue::tests::random_net;

    #[test]
    fn the_stack_follows_moves_null_moves_and_unmaking() {
        // Walk down a random path with moves and null moves, then back up: at every step the
        // incremental evaluation equals the network's evaluation from scratch.
        let evaluator = Evaluator::Network(Arc::new(random_net(21)));
        let net = evaluator.network().unwrap().clone();
        random_games(9, 12, 60, |root, _, _, _| {
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
                assert_eq!(state.evaluate(&pos), net.evaluate_position(&pos), "{}", pos.to_fen());
            }
            while let Some((m, u)) = undo.pop() {
                if m == Move::NULL {
                    pos.unmake_null(u);
                } else {
                    pos.unmake_move(m, u);
                }
                state.pop();
                assert_eq!(state.evaluate(&pos), net.evaluate_position(&pos), "{}", pos.to_fen());
            }
            assert!(pos == *root);
        });
    }

    #[test]
    fn the_hand_written_state_is_the_hand_written_evaluation() {
        let evaluator = Evaluator::Hand;
        let pos = Position::startpos();
        let state = EvalState::new(&evaluator, &pos, 4);
        assert_eq!(state.evaluate(&pos), crate::eval::evaluate(&pos));
    }
}
