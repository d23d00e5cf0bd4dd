//! The evaluation's weights, (midgame, endgame) in centipawns; layout and meaning in
//! `params.rs`. Written by `chuhe tune` (docs/training.md):
//! positions 864789 training + 93267 validation, K 531.8, lambda 0.5, 800 epochs at rate 1;
//! loss training 0.018481 -> 0.017966, validation 0.019821 -> 0.019439 (fitted; 0.017996 and 0.019500 as written).

use super::pair::{ranks, S};

/// Material by kind: king, advisor, elephant, horse, rook, cannon, pawn.
#[rustfmt::skip]
pub(super) const MATERIAL: [S; 7] = [
    S(0, 0), S(232, 58), S(217, 57), S(714, 310), S(1460, 835), S(733, 275), S(137, 122),
];

/// King by point; rows are ranks from the owner's back rank, columns the a/i..e files.
#[rustfmt::skip]
pub(super) const KING_SQUARES: [S; 50] = ranks([
    S(0, 0), S(0, 0), S(0, 0), S(53, -13), S(107, -21), // rank 0
    S(0, 0), S(0, 0), S(0, 0), S(-111, 7), S(-14, -9), // rank 1
    S(0, 0), S(0, 0), S(0, 0), S(-312, 27), S(-238, 8), // rank 2
]);

/// Advisor by point (as the king's table).
#[rustfmt::skip]
pub(super) const ADVISOR_SQUARES: [S; 50] = ranks([
    S(0, 0), S(0, 0), S(0, 0), S(-19, 3), S(0, 0), // rank 0
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(52, -4), // rank 1
    S(0, 0), S(0, 0), S(0, 0), S(-79, 2), S(0, 0), // rank 2
]);

/// Elephant by point (as the king's table).
#[rustfmt::skip]
pub(super) const ELEPHANT_SQUARES: [S; 50] = ranks([
    S(0, 0), S(0, 0), S(-9, 4), S(0, 0), S(0, 0), // rank 0
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 1
    S(-53, -5), S(0, 0), S(0, 0), S(0, 0), S(38, -4), // rank 2
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 3
    S(0, 0), S(0, 0), S(-49, -2), S(0, 0), S(0, 0), // rank 4
]);

/// Horse by point (as the king's table).
#[rustfmt::skip]
pub(super) const HORSE_SQUARES: [S; 50] = [
    S(-52, -57), S(-94, -32), S(-9, 85), S(-32, 62), S(3, 30), // rank 0
    S(-90, -151), S(-7, -30), S(-70, -34), S(-47, 18), S(-28, -47), // rank 1
    S(-34, -16), S(-81, 37), S(-41, 13), S(85, 7), S(64, 12), // rank 2
    S(-60, 30), S(9, -22), S(-10, 11), S(-4, 22), S(80, 23), // rank 3
    S(-54, 32), S(2, 9), S(82, 23), S(38, 27), S(130, 0), // rank 4
    S(39, 24), S(93, -12), S(-178, 28), S(43, -10), S(51, -3), // rank 5
    S(-15, 18), S(260, -29), S(-63, 11), S(135, -29), S(-90, 27), // rank 6
    S(159, 67), S(124, 4), S(-29, 14), S(58, -29), S(12, 8), // rank 7
    S(64, -10), S(-33, 20), S(142, -52), S(59, -63), S(165, -85), // rank 8
    S(63, 57), S(108, -72), S(-15, 19), S(-166, -14), S(-27, -52), // rank 9
];

/// Rook by point (as the king's table).
#[rustfmt::skip]
pub(super) const ROOK_SQUARES: [S; 50] = [
    S(33, 3), S(81, -24), S(77, -58), S(-113, -19), S(-134, -110), // rank 0
    S(44, 43), S(61, 35), S(60, 48), S(-117, 38), S(-156, 13), // rank 1
    S(45, 74), S(89, 24), S(107, 51), S(-79, 33), S(-74, -7), // rank 2
    S(85, 14), S(94, 38), S(166, 4), S(-62, -17), S(-1, -39), // rank 3
    S(64, 60), S(109, 28), S(106, 35), S(-45, 16), S(-53, -1), // rank 4
    S(-116, 1), S(-94, -16), S(-45, -3), S(-50, 7), S(-34, -19), // rank 5
    S(-76, -1), S(-45, -20), S(-6, -26), S(-40, -4), S(-24, -2), // rank 6
    S(-72, 4), S(-71, -10), S(-47, -16), S(-35, 11), S(-75, 6), // rank 7
    S(-77, -32), S(-29, -70), S(-34, -33), S(-37, -25), S(-54, -19), // rank 8
    S(-112, -42), S(-82, -21), S(-7, -75), S(-36, -58), S(-54, -67), // rank 9
];

/// Cannon by point (as the king's table).
#[rustfmt::skip]
pub(super) const CANNON_SQUARES: [S; 50] = [
    S(-31, -13), S(-61, 3), S(17, -15), S(55, -13), S(27, -11), // rank 0
    S(60, -18), S(-16, 0), S(58, -10), S(22, -16), S(72, -15), // rank 1
    S(42, -30), S(2, 24), S(69, -16), S(56, -2), S(46, 4), // rank 2
    S(37, 7), S(11, 35), S(51, -10), S(21, 6), S(90, -23), // rank 3
    S(17, -6), S(-11, -11), S(14, -5), S(14, 9), S(57, 5), // rank 4
    S(6, -6), S(-71, 14), S(-54, 0), S(-43, 17), S(49, -20), // rank 5
    S(-28, 0), S(-37, 15), S(-6, -15), S(-32, -4), S(14, -5), // rank 6
    S(18, -31), S(-75, -16), S(-105, 35), S(-57, -6), S(-109, -4), // rank 7
    S(-38, -31), S(-96, 5), S(-123, 52), S(-73, -20), S(-112, -14), // rank 8
    S(4, -11), S(-70, 8), S(-125, 55), S(-226, 25), S(61, -96), // rank 9
];

/// Pawn by point (as the king's table): advancement across the river.
#[rustfmt::skip]
pub(super) const PAWN_SQUARES: [S; 50] = [
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 0
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 1
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 2
    S(-35, -10), S(0, 0), S(-62, 19), S(0, 0), S(7, 23), // rank 3
    S(-21, -12), S(0, 0), S(-12, -15), S(0, 0), S(8, -4), // rank 4
    S(15, 19), S(115, -13), S(63, 8), S(126, 4), S(87, 28), // rank 5
    S(50, 21), S(185, -29), S(-22, -4), S(-16, 14), S(-69, 15), // rank 6
    S(29, 62), S(194, -2), S(53, -22), S(179, 0), S(71, -13), // rank 7
    S(220, -37), S(315, -39), S(213, -58), S(383, -51), S(280, -39), // rank 8
    S(-64, -55), S(66, -65), S(129, -62), S(172, -63), S(84, -61), // rank 9
];

/// Rook by the number of points it can move to (0..17).
#[rustfmt::skip]
pub(super) const ROOK_MOBILITY: [S; 18] = [
    S(-119, -43), S(-28, -170), S(-51, -126), S(-53, -82), S(-29, -85), S(-24, -15),
    S(-19, 16), S(-7, 14), S(6, 24), S(3, 18), S(6, 25), S(10, 22),
    S(22, 22), S(1, 47), S(41, 22), S(26, 30), S(52, 18), S(0, 44),
];

/// Rook on a file with no pawns / with only enemy pawns.
#[rustfmt::skip]
pub(super) const ROOK_FILES: [S; 2] = [
    S(35, 16), S(15, 74),
];

/// Horse by the number of points it can jump to (0..8).
#[rustfmt::skip]
pub(super) const HORSE_MOBILITY: [S; 9] = [
    S(-73, -174), S(-57, -35), S(-35, -2), S(-17, 17), S(-2, 5), S(12, 10), S(24, 3), S(49, -3), S(40, -7),
];

/// Horse, per blocked leg.
#[rustfmt::skip]
pub(super) const HORSE_BLOCKED_LEG: [S; 1] = [
    S(-19, -10),
];

/// Cannon by the number of points it can move to without capturing (0..17).
#[rustfmt::skip]
pub(super) const CANNON_MOBILITY: [S; 18] = [
    S(23, 37), S(-52, 27), S(-29, -29), S(-10, -3), S(-19, 9), S(-14, 5),
    S(-8, 8), S(-1, 4), S(-4, 9), S(6, 0), S(5, 2), S(7, -6),
    S(17, -10), S(6, -9), S(13, 3), S(-2, -6), S(21, -9), S(57, -20),
];

/// Cannon on the enemy king's line with 0, 1 or 2 pieces between (1 is check: search's job).
#[rustfmt::skip]
pub(super) const CANNON_AIMED: [S; 3] = [
    S(107, -42), S(0, 0), S(28, 33),
];

/// Per attacker near the enemy palace: rook, horse, cannon, pawn; then the same with a rook.
#[rustfmt::skip]
pub(super) const KING_ATTACK: [S; 8] = [
    S(3, 1), S(170, -28), S(49, 0), S(156, -32),
    S(167, 45), S(103, 8), S(36, 24), S(170, -70),
];

/// The same, per advisor or elephant the defender has lost.
#[rustfmt::skip]
pub(super) const KING_ATTACK_PER_MISSING_GUARD: [S; 8] = [
    S(5, 2), S(39, 10), S(15, 9), S(129, 27),
    S(91, -32), S(-16, 117), S(29, -40), S(93, 59),
];

/// The side to move.
#[rustfmt::skip]
pub(super) const TEMPO: [S; 1] = [
    S(26, -5),
];
