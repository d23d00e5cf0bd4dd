//! The engine-vs-engine match runner behind `chuhe match`: engine processes over UCCI, UCI and
//! CECP, games checked by the shared `rules` module, concurrent scheduling of matches and
//! round-robins, statistics and PGN.

pub mod clock;
pub mod cpu;
pub mod engine;
pub mod faults;
pub mod game;
pub mod openings;
pub mod pgn;
pub mod plan;
pub mod ranks;
pub mod resume;
pub mod scheduler;
pub mod stats;
pub mod table;
pub mod text;
