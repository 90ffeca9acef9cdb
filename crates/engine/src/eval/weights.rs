//! The evaluation's weights, one middlegame/endgame pair per feature of [`super::features`].
//!
//! Written by `vizier tune` (see the README); edit by hand only to seed a new feature.
//! Last run: 4026 games, 284169 positions, K = 0.005208, 400 epochs at rate 1, l2 0.00000001: error 0.104997 -> 0.100092 (held-out games: 0.110553 -> 0.108224).

use super::Pair;
use super::features::COUNT;

/// The weights in use.
#[rustfmt::skip]
pub const WEIGHTS: [Pair; COUNT] = [
    // material (P N B R Q)
    Pair(66, 112), Pair(314, 275), Pair(313, 295), Pair(478, 550), Pair(957, 1009),
    // pawn squares
    Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0),
    Pair(-10, -5), Pair(12, 2), Pair(5, 12), Pair(-4, 17), Pair(-1, -3), Pair(4, 6), Pair(10, 8), Pair(-12, 6),
    Pair(-7, 0), Pair(-23, 15), Pair(-12, 16), Pair(-11, 12), Pair(9, 18), Pair(10, 10), Pair(-8, 2), Pair(-9, 3),
    Pair(-5, 24), Pair(-1, 20), Pair(20, 10), Pair(22, 8), Pair(15, 22), Pair(6, -2), Pair(1, -1), Pair(-13, 3),
    Pair(17, 34), Pair(20, 23), Pair(21, 45), Pair(8, 16), Pair(7, 45), Pair(6, 10), Pair(23, 25), Pair(38, 12),
    Pair(3, 34), Pair(26, 51), Pair(24, 51), Pair(23, 11), Pair(23, 40), Pair(33, 41), Pair(2, 33), Pair(42, 31),
    Pair(26, 48), Pair(13, 25), Pair(20, 39), Pair(23, 36), Pair(18, 40), Pair(18, 43), Pair(20, 30), Pair(18, 37),
    Pair(21, 42), Pair(21, 42), Pair(21, 42), Pair(21, 42), Pair(21, 42), Pair(21, 42), Pair(21, 42), Pair(21, 42),
    // knight squares
    Pair(-1, 3), Pair(-27, -2), Pair(9, 2), Pair(4, -3), Pair(20, 15), Pair(19, 2), Pair(-10, 21), Pair(-3, -6),
    Pair(-15, -2), Pair(14, 5), Pair(18, 6), Pair(22, 3), Pair(22, 2), Pair(33, 4), Pair(12, 7), Pair(5, 4),
    Pair(-14, -7), Pair(-2, 7), Pair(0, 25), Pair(25, 10), Pair(36, 17), Pair(20, 17), Pair(35, 11), Pair(7, 3),
    Pair(17, 31), Pair(28, 6), Pair(53, 31), Pair(48, 14), Pair(33, 21), Pair(45, 8), Pair(18, 13), Pair(17, 8),
    Pair(17, 19), Pair(9, 23), Pair(38, 27), Pair(42, 15), Pair(26, 20), Pair(45, 25), Pair(23, 17), Pair(27, 19),
    Pair(16, 12), Pair(29, 16), Pair(33, 33), Pair(39, 34), Pair(32, 18), Pair(31, 26), Pair(28, 13), Pair(8, 9),
    Pair(13, 3), Pair(14, 9), Pair(27, 12), Pair(25, 17), Pair(26, 26), Pair(19, 16), Pair(12, 13), Pair(12, 7),
    Pair(-3, -2), Pair(5, 3), Pair(12, 6), Pair(17, 9), Pair(19, 13), Pair(11, 6), Pair(7, 7), Pair(-4, -7),
    // bishop squares
    Pair(10, -2), Pair(3, 1), Pair(13, 22), Pair(7, 2), Pair(18, 18), Pair(-2, 12), Pair(-5, 10), Pair(-4, -4),
    Pair(5, 1), Pair(36, 16), Pair(0, 1), Pair(30, 21), Pair(21, 6), Pair(-3, 22), Pair(36, -17), Pair(-7, 0),
    Pair(10, -1), Pair(19, 5), Pair(14, 6), Pair(-4, 3), Pair(16, 37), Pair(3, 14), Pair(11, 16), Pair(-16, 6),
    Pair(10, 5), Pair(27, 31), Pair(16, 14), Pair(31, 12), Pair(36, 9), Pair(0, 6), Pair(19, 11), Pair(6, 2),
    Pair(15, 10), Pair(7, 24), Pair(17, 20), Pair(20, 13), Pair(28, 2), Pair(15, 1), Pair(7, 10), Pair(16, 24),
    Pair(-3, 0), Pair(10, 16), Pair(14, 1), Pair(18, 7), Pair(21, 20), Pair(20, 6), Pair(42, 7), Pair(13, 13),
    Pair(6, 2), Pair(-2, 5), Pair(10, 2), Pair(18, 13), Pair(17, 16), Pair(17, 5), Pair(15, 5), Pair(5, 11),
    Pair(2, 4), Pair(3, 2), Pair(7, 2), Pair(12, 6), Pair(15, 11), Pair(10, 10), Pair(4, 6), Pair(-6, -6),
    // rook squares
    Pair(-21, 11), Pair(-13, 1), Pair(1, -6), Pair(14, -5), Pair(5, -18), Pair(22, -8), Pair(-10, 6), Pair(4, 4),
    Pair(-35, -19), Pair(9, -4), Pair(15, -7), Pair(12, -9), Pair(9, -7), Pair(1, -11), Pair(-21, 0), Pair(0, -2),
    Pair(6, 2), Pair(1, -3), Pair(6, -13), Pair(11, 5), Pair(-5, -4), Pair(-16, 0), Pair(-8, -4), Pair(-2, -1),
    Pair(-10, 5), Pair(10, 6), Pair(8, 6), Pair(17, 8), Pair(13, 17), Pair(21, 12), Pair(-8, 4), Pair(2, 1),
    Pair(-1, 9), Pair(5, 18), Pair(16, 5), Pair(-3, 1), Pair(13, 18), Pair(-1, 8), Pair(12, 29), Pair(12, 4),
    Pair(-3, 0), Pair(6, 13), Pair(6, 8), Pair(11, 10), Pair(0, 3), Pair(9, 8), Pair(7, 1), Pair(10, -4),
    Pair(-5, 19), Pair(-4, 5), Pair(8, 14), Pair(8, 10), Pair(17, 27), Pair(9, -3), Pair(4, 3), Pair(6, 2),
    Pair(-3, 5), Pair(2, 6), Pair(2, -1), Pair(8, 15), Pair(0, 6), Pair(2, 3), Pair(-6, -5), Pair(0, -1),
    // queen squares
    Pair(-6, -1), Pair(-2, 0), Pair(-2, 4), Pair(19, -6), Pair(13, 9), Pair(-3, 6), Pair(-5, 1), Pair(-6, -2),
    Pair(-13, 4), Pair(0, 4), Pair(11, 0), Pair(32, 19), Pair(-1, 19), Pair(-9, 8), Pair(-14, 3), Pair(11, 4),
    Pair(17, 9), Pair(5, 8), Pair(12, 16), Pair(18, 12), Pair(17, 15), Pair(0, 10), Pair(4, 7), Pair(21, 11),
    Pair(4, 3), Pair(6, 14), Pair(-12, 14), Pair(-8, 17), Pair(-1, 19), Pair(11, 20), Pair(2, 13), Pair(0, 13),
    Pair(-4, 6), Pair(-14, 11), Pair(3, 17), Pair(8, 24), Pair(9, 22), Pair(8, 18), Pair(1, 13), Pair(-21, 10),
    Pair(-5, 5), Pair(3, 9), Pair(9, 10), Pair(9, 17), Pair(3, 16), Pair(7, 15), Pair(4, 7), Pair(-5, 3),
    Pair(-3, 4), Pair(3, 5), Pair(9, 10), Pair(2, 10), Pair(5, 13), Pair(1, 8), Pair(4, 7), Pair(5, 3),
    Pair(4, 2), Pair(4, 4), Pair(1, 6), Pair(4, 12), Pair(6, 12), Pair(3, 7), Pair(6, 3), Pair(9, 5),
    // king squares
    Pair(6, 0), Pair(32, 6), Pair(0, -7), Pair(-45, 12), Pair(-24, 28), Pair(-25, 15), Pair(15, 16), Pair(3, -18),
    Pair(-10, 23), Pair(5, 20), Pair(-23, 17), Pair(-36, 32), Pair(-34, 34), Pair(-25, 27), Pair(-14, 15), Pair(-6, 1),
    Pair(-18, 11), Pair(-16, 20), Pair(-32, 22), Pair(-32, 47), Pair(-35, 30), Pair(-33, 31), Pair(-17, 23), Pair(-6, 26),
    Pair(-17, 23), Pair(-23, 36), Pair(-30, 31), Pair(-40, 32), Pair(-41, 34), Pair(-31, 37), Pair(-25, 28), Pair(-21, 15),
    Pair(-15, 29), Pair(-21, 41), Pair(-31, 41), Pair(-39, 34), Pair(-37, 45), Pair(-30, 41), Pair(-20, 40), Pair(-19, 22),
    Pair(-11, 21), Pair(-13, 37), Pair(-23, 39), Pair(-30, 38), Pair(-32, 34), Pair(-22, 47), Pair(-17, 38), Pair(-10, 24),
    Pair(-5, 10), Pair(-11, 21), Pair(-16, 33), Pair(-22, 41), Pair(-24, 37), Pair(-17, 28), Pair(-11, 20), Pair(-6, 9),
    Pair(0, -2), Pair(-5, 10), Pair(-11, 20), Pair(-17, 24), Pair(-18, 27), Pair(-11, 19), Pair(-5, 9), Pair(0, -4),
    // knight mobility
    Pair(-36, -2), Pair(5, -4), Pair(14, -4), Pair(14, 10), Pair(19, 26), Pair(19, 23), Pair(23, 31), Pair(39, 27),
    Pair(41, 12),
    // bishop mobility
    Pair(-23, 1), Pair(6, -10), Pair(10, 1), Pair(11, 24), Pair(20, 28), Pair(19, 34), Pair(38, 29), Pair(45, 29),
    Pair(59, 47), Pair(36, 47), Pair(47, 49), Pair(51, 54), Pair(59, 55), Pair(58, 42),
    // rook mobility
    Pair(-23, -4), Pair(-11, -12), Pair(-13, -1), Pair(1, -2), Pair(10, 17), Pair(19, 27), Pair(12, 32), Pair(16, 25),
    Pair(22, 48), Pair(24, 46), Pair(23, 48), Pair(35, 56), Pair(33, 48), Pair(28, 60), Pair(31, 43),
    // queen mobility
    Pair(-8, 0), Pair(-3, 1), Pair(-6, -1), Pair(0, 5), Pair(2, -1), Pair(-3, 6), Pair(0, 7), Pair(5, 11),
    Pair(-1, 19), Pair(10, 23), Pair(11, 21), Pair(18, 30), Pair(17, 25), Pair(23, 35), Pair(27, 31), Pair(19, 36),
    Pair(25, 37), Pair(19, 39), Pair(18, 35), Pair(22, 41), Pair(21, 38), Pair(23, 43), Pair(20, 41), Pair(24, 46),
    Pair(24, 47), Pair(24, 46), Pair(26, 51), Pair(26, 52),
    // passed pawn by rank
    Pair(0, 0), Pair(6, -4), Pair(0, 3), Pair(5, 34), Pair(21, 66), Pair(48, 96), Pair(82, 139), Pair(0, 0),
    // passed pawn, own king distance
    Pair(5, 16), Pair(8, 42), Pair(9, 9), Pair(24, -8), Pair(-17, -14), Pair(-18, -26), Pair(-1, -18), Pair(-8, 2),
    // passed pawn, enemy king distance
    Pair(-2, -20), Pair(-8, -35), Pair(0, -20), Pair(16, -6), Pair(7, 5), Pair(13, 34), Pair(-9, 31), Pair(-16, 16),
    // passed blocked, doubled, isolated, supported, phalanx
    Pair(-4, -7), Pair(-3, -27), Pair(3, -10), Pair(12, 5), Pair(6, 14),
    // bishop pair
    Pair(45, 58),
    // rook on an open / half-open file
    Pair(40, -8), Pair(27, 9),
    // king shield pawn
    Pair(14, 0),
    // king attack
    Pair(-6, -3), Pair(-14, 2), Pair(-3, 5), Pair(15, 18), Pair(53, 2), Pair(55, -17), Pair(56, -11), Pair(64, 3),
    Pair(67, 2), Pair(72, -1), Pair(80, 0), Pair(88, 0), Pair(96, 0), Pair(104, 0), Pair(112, 0), Pair(120, 0),
    // threat by pawn
    Pair(33, 15),
    // threat by minor, hanging piece, outpost, king on an open file
    Pair(27, 5), Pair(17, 13), Pair(35, 6), Pair(-11, 3),
    // free passed pawn by rank
    Pair(0, 0), Pair(-7, -4), Pair(3, -13), Pair(14, 18), Pair(11, 21), Pair(10, 39), Pair(4, 44), Pair(0, 0),
    // tempo
    Pair(12, 0),
];
