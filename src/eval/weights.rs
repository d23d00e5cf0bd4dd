//! The evaluation's weights, (midgame, endgame) in centipawns; layout and meaning in
//! `params.rs`. Written by `chuhe tune` (docs/training.md):
//! positions 424883 training + 47336 validation, K 730.4, lambda 0.5, 600 epochs at rate 1;
//! loss training 0.020055 -> 0.016741, validation 0.019457 -> 0.016718 (fitted; 0.017372 and 0.017209 as written).

use super::params::S;

/// Material by kind: king, advisor, elephant, horse, rook, cannon, pawn.
#[rustfmt::skip]
pub(super) const MATERIAL: [S; 7] = [
    S(0, 0), S(251, 62), S(223, 71), S(634, 380), S(1254, 1018), S(665, 317), S(122, 123),
];

/// King by point; rows are ranks from the owner's back rank, columns the a/i..e files.
#[rustfmt::skip]
pub(super) const KING_SQUARES: [S; 50] = [
    S(0, 0), S(0, 0), S(0, 0), S(60, -17), S(104, -19), // rank 0
    S(0, 0), S(0, 0), S(0, 0), S(-109, 14), S(-52, 8), // rank 1
    S(0, 0), S(0, 0), S(0, 0), S(-293, 50), S(-183, -39), // rank 2
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 3
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 4
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 5
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 6
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 7
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 8
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 9
];

/// Advisor by point (as the king's table).
#[rustfmt::skip]
pub(super) const ADVISOR_SQUARES: [S; 50] = [
    S(0, 0), S(0, 0), S(0, 0), S(-18, -5), S(0, 0), // rank 0
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(45, 2), // rank 1
    S(0, 0), S(0, 0), S(0, 0), S(-82, 24), S(0, 0), // rank 2
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 3
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 4
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 5
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 6
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 7
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 8
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 9
];

/// Elephant by point (as the king's table).
#[rustfmt::skip]
pub(super) const ELEPHANT_SQUARES: [S; 50] = [
    S(0, 0), S(0, 0), S(-7, 2), S(0, 0), S(0, 0), // rank 0
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 1
    S(-63, 5), S(0, 0), S(0, 0), S(0, 0), S(29, -6), // rank 2
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 3
    S(0, 0), S(0, 0), S(-51, 16), S(0, 0), S(0, 0), // rank 4
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 5
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 6
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 7
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 8
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 9
];

/// Horse by point (as the king's table).
#[rustfmt::skip]
pub(super) const HORSE_SQUARES: [S; 50] = [
    S(29, 28), S(-92, -13), S(-45, 50), S(-4, 71), S(35, -1), // rank 0
    S(-106, -151), S(145, -114), S(-77, -66), S(-60, 34), S(-12, -74), // rank 1
    S(-47, -9), S(-68, 17), S(-41, 30), S(-2, 107), S(18, 81), // rank 2
    S(-15, 60), S(-6, -60), S(37, -30), S(-3, 11), S(103, -12), // rank 3
    S(-2, -30), S(49, -17), S(127, -14), S(30, 9), S(140, -37), // rank 4
    S(34, 33), S(142, -52), S(-150, 4), S(59, -18), S(47, -12), // rank 5
    S(-67, 77), S(233, -54), S(-11, -4), S(168, -34), S(-20, 8), // rank 6
    S(213, 22), S(199, -26), S(-12, 5), S(79, -29), S(-56, -17), // rank 7
    S(90, 39), S(-120, 65), S(79, -35), S(131, -69), S(112, -129), // rank 8
    S(48, 43), S(138, -121), S(-17, 120), S(-128, -51), S(33, 47), // rank 9
];

/// Rook by point (as the king's table).
#[rustfmt::skip]
pub(super) const ROOK_SQUARES: [S; 50] = [
    S(44, -2), S(68, -16), S(42, -48), S(-84, -23), S(-90, -104), // rank 0
    S(41, 24), S(28, 78), S(49, 22), S(-95, 19), S(-82, 52), // rank 1
    S(34, 83), S(90, 31), S(105, 74), S(-53, 23), S(-14, -48), // rank 2
    S(46, 40), S(65, 58), S(98, 76), S(-19, -34), S(-20, -25), // rank 3
    S(33, 72), S(90, 53), S(88, 58), S(-65, 31), S(-34, -1), // rank 4
    S(-93, -16), S(-68, -35), S(-87, 25), S(-27, 12), S(-20, -12), // rank 5
    S(-70, 5), S(-45, -10), S(8, -28), S(-29, 5), S(0, -8), // rank 6
    S(-68, -5), S(-71, -12), S(-19, -35), S(-36, 8), S(-37, 11), // rank 7
    S(-22, -43), S(-36, -12), S(25, -57), S(48, -91), S(6, -21), // rank 8
    S(-134, -24), S(-5, -71), S(-19, -34), S(-11, -46), S(9, -12), // rank 9
];

/// Cannon by point (as the king's table).
#[rustfmt::skip]
pub(super) const CANNON_SQUARES: [S; 50] = [
    S(51, -2), S(-75, 18), S(98, -44), S(32, 12), S(-23, -16), // rank 0
    S(27, 13), S(-8, 9), S(32, 32), S(72, -59), S(45, -31), // rank 1
    S(23, 41), S(7, 19), S(75, -6), S(57, -3), S(48, -3), // rank 2
    S(11, 15), S(35, 29), S(60, -15), S(26, 13), S(17, -10), // rank 3
    S(0, 41), S(3, -10), S(27, 3), S(19, 20), S(19, -18), // rank 4
    S(12, 32), S(-82, 25), S(-80, 40), S(-31, 20), S(32, -26), // rank 5
    S(-64, 33), S(-25, 20), S(-5, -16), S(-36, 2), S(42, -31), // rank 6
    S(90, -36), S(-67, -34), S(-75, -26), S(-65, 18), S(-33, -45), // rank 7
    S(-56, -14), S(-69, -16), S(-91, 38), S(-77, -27), S(-65, 0), // rank 8
    S(8, -19), S(-30, -16), S(-49, 25), S(-167, 7), S(139, -94), // rank 9
];

/// Pawn by point (as the king's table): advancement across the river.
#[rustfmt::skip]
pub(super) const PAWN_SQUARES: [S; 50] = [
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 0
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 1
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 2
    S(-13, -21), S(0, 0), S(-67, 31), S(0, 0), S(13, 18), // rank 3
    S(27, -31), S(0, 0), S(-31, -3), S(0, 0), S(8, -12), // rank 4
    S(1, 43), S(125, -32), S(37, 32), S(82, 27), S(32, 66), // rank 5
    S(26, 22), S(164, -51), S(21, -16), S(55, 2), S(-15, 1), // rank 6
    S(-53, 98), S(168, 6), S(76, -14), S(205, -6), S(75, 21), // rank 7
    S(150, -22), S(181, 10), S(115, -22), S(246, -5), S(228, -41), // rank 8
    S(-75, -71), S(-2, -62), S(62, -51), S(109, 1), S(58, -49), // rank 9
];

/// Rook by the number of points it can move to (0..17).
#[rustfmt::skip]
pub(super) const ROOK_MOBILITY: [S; 18] = [
    S(-25, -69), S(-29, -146), S(-37, -72), S(-64, -27), S(-31, -97), S(-26, -15),
    S(-12, 2), S(-9, 11), S(-10, 35), S(13, -11), S(1, 17), S(-3, 41),
    S(21, 19), S(3, 24), S(35, 11), S(27, 0), S(46, 3), S(12, 19),
];

/// Rook on a file with no pawns / with only enemy pawns.
#[rustfmt::skip]
pub(super) const ROOK_FILES: [S; 2] = [
    S(44, 5), S(23, 53),
];

/// Horse by the number of points it can jump to (0..8).
#[rustfmt::skip]
pub(super) const HORSE_MOBILITY: [S; 9] = [
    S(-71, -101), S(-58, -37), S(-36, -1), S(-16, 11), S(-13, 10), S(-1, 23), S(24, 6), S(45, -7), S(54, -19),
];

/// Horse, per blocked leg.
#[rustfmt::skip]
pub(super) const HORSE_BLOCKED_LEG: [S; 1] = [
    S(-14, -13),
];

/// Cannon by the number of points it can move to without capturing (0..17).
#[rustfmt::skip]
pub(super) const CANNON_MOBILITY: [S; 18] = [
    S(-24, 48), S(-43, 12), S(-17, -24), S(-8, 21), S(-23, 5), S(-13, -1),
    S(-11, 18), S(-5, 9), S(-2, 6), S(7, 3), S(-3, 4), S(10, -8),
    S(27, -10), S(0, -21), S(5, -4), S(-4, -5), S(17, -22), S(68, -50),
];

/// Cannon on the enemy king's line with 0, 1 or 2 pieces between (1 is check: search's job).
#[rustfmt::skip]
pub(super) const CANNON_AIMED: [S; 3] = [
    S(79, -41), S(0, 0), S(7, 49),
];

/// Per attacker near the enemy palace: rook, horse, cannon, pawn; then the same with a rook.
#[rustfmt::skip]
pub(super) const KING_ATTACK: [S; 8] = [
    S(3, 1), S(128, -37), S(58, 14), S(131, -33),
    S(129, 64), S(61, 13), S(47, 45), S(109, -63),
];

/// The same, per advisor or elephant the defender has lost.
#[rustfmt::skip]
pub(super) const KING_ATTACK_PER_MISSING_GUARD: [S; 8] = [
    S(5, 2), S(124, -13), S(47, -8), S(156, 19),
    S(90, -38), S(47, 70), S(-7, -43), S(77, 62),
];

/// The side to move.
#[rustfmt::skip]
pub(super) const TEMPO: [S; 1] = [
    S(21, -3),
];
