//! Chuhe (楚河): a xiangqi engine.
//!
//! Layers, each using only those before it: [`board`] (position, moves, legal generation),
//! then the tools on top such as [`perft`].

pub mod board;
pub mod cli;
pub mod perft;
