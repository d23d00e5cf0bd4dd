//! Chuhe (楚河): a xiangqi engine.
//!
//! Layers, each using only those before it: [`board`] (position, moves, legal generation),
//! [`rules`] (game record and verdicts), [`eval`], [`search`], [`bench`](mod@bench) (the
//! search's signature, which both [`protocol`] and `chuhe bench` run); the tools in [`cli`] on
//! top, with [`datagen`] (self-play training data and its file format) and [`tune`] (fits the
//! evaluation to it); [`book`] holds the opening books the protocol loop consults before
//! searching; [`notation`] reads and writes moves as players write them (ICCS, WXF, Chinese)
//! for the tools.

/// An enum with `ALL`, every value in declaration order, written once (the values are listed
/// in one place only, so a new one cannot be left out of `ALL`).
macro_rules! coded_enum {
    ($(#[$meta:meta])* $vis:vis enum $name:ident {
        $($(#[$vmeta:meta])* $value:ident $(= $code:literal)?,)*
    }) => {
        $(#[$meta])*
        $vis enum $name {
            $($(#[$vmeta])* $value $(= $code)?,)*
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: [$name; [$($name::$value),*].len()] = [$($name::$value),*];
        }
    };
}

pub mod analysis;
pub mod bench;
pub mod board;
pub mod book;
pub mod bytes;
pub mod cli;
pub mod datagen;
pub mod eval;
pub mod fit;
pub mod lines;
pub mod matches;
pub mod memory;
pub mod notation;
pub mod perft;
pub mod picture;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod train;
pub mod tune;
