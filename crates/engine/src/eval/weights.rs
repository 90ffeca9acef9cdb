//! The evaluation's weights, one middlegame/endgame pair per feature of [`super::features`].
//!
//! Written by `vizier tune` (see the README); edit by hand only to seed a new feature.
//! Last run: 7258 games, 584202 positions, K = 0.004666, 400 epochs at rate 1, l2 0.00000001: error 0.085408 -> 0.082874 (held-out games: 0.083730 -> 0.082459).

use super::Pair;
use super::features::COUNT;

/// The weights in use.
#[rustfmt::skip]
pub const WEIGHTS: [Pair; COUNT] = [
    // material (P N B R Q)
    Pair(81, 102), Pair(322, 254), Pair(327, 270), Pair(490, 522), Pair(992, 1011),
    // pawn squares
    Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0),
    Pair(-6, -4), Pair(2, 16), Pair(4, 16), Pair(-15, 19), Pair(-12, -8), Pair(19, 11), Pair(25, 7), Pair(-8, 8),
    Pair(-6, 1), Pair(-12, 21), Pair(-17, 17), Pair(-12, 9), Pair(-6, 25), Pair(11, 23), Pair(16, 14), Pair(20, 8),
    Pair(-9, 23), Pair(-23, 18), Pair(19, 9), Pair(18, 14), Pair(5, 3), Pair(9, 18), Pair(-4, 0), Pair(-8, 12),
    Pair(2, 32), Pair(-10, 19), Pair(12, 16), Pair(31, 23), Pair(17, 11), Pair(6, 17), Pair(-10, 20), Pair(47, 1),
    Pair(7, 34), Pair(32, 57), Pair(19, 56), Pair(32, 15), Pair(18, 29), Pair(40, 26), Pair(12, 39), Pair(60, 30),
    Pair(28, 40), Pair(11, 17), Pair(23, 48), Pair(24, 35), Pair(21, 42), Pair(19, 46), Pair(22, 38), Pair(14, 23),
    Pair(21, 42), Pair(21, 42), Pair(21, 42), Pair(21, 42), Pair(21, 42), Pair(21, 42), Pair(21, 42), Pair(21, 42),
    // knight squares
    Pair(-5, -2), Pair(-15, -9), Pair(4, 2), Pair(-4, -8), Pair(16, 14), Pair(26, -2), Pair(-4, 21), Pair(-2, -4),
    Pair(-14, -5), Pair(17, 6), Pair(17, 13), Pair(20, 3), Pair(25, 2), Pair(37, -6), Pair(11, 3), Pair(1, 6),
    Pair(-10, -3), Pair(-5, 13), Pair(7, 13), Pair(36, 11), Pair(30, 14), Pair(20, 18), Pair(43, 27), Pair(24, 10),
    Pair(17, 22), Pair(30, 11), Pair(35, 27), Pair(42, 21), Pair(43, 23), Pair(47, 9), Pair(25, 10), Pair(10, -2),
    Pair(3, 15), Pair(15, 28), Pair(34, 27), Pair(37, 25), Pair(20, 24), Pair(47, 22), Pair(14, 24), Pair(41, 16),
    Pair(16, 10), Pair(29, 19), Pair(28, 38), Pair(38, 32), Pair(36, 20), Pair(32, 20), Pair(28, 16), Pair(8, 5),
    Pair(7, 3), Pair(12, 4), Pair(27, 12), Pair(25, 18), Pair(23, 18), Pair(21, 18), Pair(14, 13), Pair(13, 6),
    Pair(-5, -4), Pair(6, 6), Pair(11, 4), Pair(17, 11), Pair(17, 5), Pair(11, 7), Pair(7, 7), Pair(-6, -9),
    // bishop squares
    Pair(10, 2), Pair(12, -1), Pair(6, 18), Pair(-3, -3), Pair(12, 18), Pair(-7, 8), Pair(-5, 9), Pair(2, -6),
    Pair(8, -1), Pair(21, 12), Pair(-8, -6), Pair(15, 20), Pair(11, 16), Pair(9, 18), Pair(26, -15), Pair(5, -4),
    Pair(8, 2), Pair(26, 4), Pair(26, 13), Pair(9, 7), Pair(19, 24), Pair(10, 1), Pair(18, 18), Pair(-13, 15),
    Pair(5, 2), Pair(29, 37), Pair(13, 4), Pair(36, 22), Pair(30, 10), Pair(7, 13), Pair(24, 9), Pair(18, 8),
    Pair(16, 9), Pair(0, 16), Pair(15, 20), Pair(24, 11), Pair(34, 21), Pair(19, 7), Pair(20, 13), Pair(14, 25),
    Pair(-1, -3), Pair(5, 2), Pair(4, -4), Pair(17, 12), Pair(20, 12), Pair(23, 10), Pair(32, -4), Pair(7, 7),
    Pair(6, 4), Pair(1, 12), Pair(12, 5), Pair(17, 10), Pair(20, 21), Pair(18, 9), Pair(17, 6), Pair(0, 11),
    Pair(-2, 2), Pair(5, 3), Pair(7, 0), Pair(11, 1), Pair(14, 4), Pair(10, 11), Pair(5, 6), Pair(-4, -5),
    // rook squares
    Pair(-6, 8), Pair(4, 0), Pair(16, -5), Pair(8, -2), Pair(17, -15), Pair(29, -16), Pair(-9, -2), Pair(-2, -7),
    Pair(-23, -21), Pair(1, -5), Pair(14, -20), Pair(15, -16), Pair(12, -15), Pair(-8, -17), Pair(-18, 11), Pair(-36, -12),
    Pair(-23, 4), Pair(-4, -14), Pair(2, -22), Pair(-1, 0), Pair(-6, -4), Pair(-12, -8), Pair(6, -12), Pair(-21, -8),
    Pair(-15, 7), Pair(10, 6), Pair(1, -1), Pair(9, 1), Pair(10, 12), Pair(21, 15), Pair(1, 1), Pair(-6, -3),
    Pair(-8, 3), Pair(4, 25), Pair(15, 8), Pair(3, 9), Pair(17, 10), Pair(5, 10), Pair(16, 13), Pair(5, 0),
    Pair(-4, -2), Pair(4, 14), Pair(9, 5), Pair(18, 17), Pair(1, 7), Pair(16, 17), Pair(12, 3), Pair(6, -4),
    Pair(-1, 20), Pair(0, 14), Pair(13, 18), Pair(17, 18), Pair(23, 26), Pair(12, 4), Pair(3, 6), Pair(3, 7),
    Pair(1, 8), Pair(3, 15), Pair(2, 0), Pair(11, 18), Pair(2, 12), Pair(5, 14), Pair(-3, 8), Pair(1, 6),
    // queen squares
    Pair(-11, -3), Pair(-1, 0), Pair(-9, -2), Pair(10, -14), Pair(28, 4), Pair(-3, 3), Pair(-10, 0), Pair(-3, -1),
    Pair(-15, 2), Pair(4, 5), Pair(10, 0), Pair(24, 15), Pair(-8, 10), Pair(-7, 7), Pair(-17, 2), Pair(7, 2),
    Pair(23, 9), Pair(13, 2), Pair(20, 15), Pair(10, 12), Pair(17, 13), Pair(10, 8), Pair(8, 11), Pair(26, 13),
    Pair(-19, 4), Pair(-3, 13), Pair(-7, 14), Pair(-4, 21), Pair(1, 21), Pair(13, 17), Pair(-8, 13), Pair(-9, 14),
    Pair(-3, 8), Pair(-12, 10), Pair(6, 20), Pair(13, 26), Pair(9, 24), Pair(14, 22), Pair(0, 10), Pair(-15, 13),
    Pair(-10, 3), Pair(2, 9), Pair(14, 12), Pair(10, 21), Pair(5, 19), Pair(11, 18), Pair(12, 10), Pair(-5, 4),
    Pair(7, 6), Pair(5, 7), Pair(11, 15), Pair(2, 10), Pair(7, 15), Pair(6, 11), Pair(6, 9), Pair(11, 4),
    Pair(-1, -2), Pair(6, 6), Pair(1, 8), Pair(6, 13), Pair(5, 11), Pair(4, 8), Pair(6, 4), Pair(11, 6),
    // king squares
    Pair(-4, -9), Pair(33, 7), Pair(11, -5), Pair(-34, 15), Pair(-6, 18), Pair(-20, 16), Pair(7, 11), Pair(-12, -5),
    Pair(-14, 10), Pair(16, 33), Pair(-18, 22), Pair(-33, 36), Pair(-35, 36), Pair(-32, 32), Pair(-2, 22), Pair(-4, 10),
    Pair(-18, 7), Pair(-11, 17), Pair(-29, 30), Pair(-39, 43), Pair(-36, 30), Pair(-32, 34), Pair(-30, 27), Pair(-7, 20),
    Pair(-17, 18), Pair(-23, 41), Pair(-28, 36), Pair(-40, 34), Pair(-44, 42), Pair(-30, 38), Pair(-29, 28), Pair(-22, 6),
    Pair(-18, 20), Pair(-20, 44), Pair(-31, 45), Pair(-38, 49), Pair(-39, 44), Pair(-30, 40), Pair(-22, 30), Pair(-19, 19),
    Pair(-12, 16), Pair(-13, 44), Pair(-23, 43), Pair(-31, 41), Pair(-31, 43), Pair(-27, 17), Pair(-18, 23), Pair(-11, 21),
    Pair(-5, 8), Pair(-11, 26), Pair(-17, 31), Pair(-21, 45), Pair(-25, 34), Pair(-17, 27), Pair(-11, 21), Pair(-6, 11),
    Pair(0, -7), Pair(-5, 13), Pair(-11, 19), Pair(-17, 21), Pair(-19, 26), Pair(-11, 20), Pair(-5, 9), Pair(1, -5),
    // knight mobility
    Pair(-23, -4), Pair(-1, -16), Pair(7, -9), Pair(17, 10), Pair(25, 28), Pair(23, 33), Pair(29, 32), Pair(34, 18),
    Pair(36, 6),
    // bishop mobility
    Pair(-19, -5), Pair(5, -12), Pair(15, 0), Pair(23, 11), Pair(22, 31), Pair(26, 37), Pair(36, 36), Pair(36, 38),
    Pair(48, 42), Pair(36, 49), Pair(56, 44), Pair(50, 46), Pair(59, 49), Pair(57, 39),
    // rook mobility
    Pair(-23, -19), Pair(-11, -16), Pair(-8, -13), Pair(1, -6), Pair(5, 12), Pair(7, 26), Pair(11, 36), Pair(14, 32),
    Pair(18, 50), Pair(23, 51), Pair(31, 53), Pair(42, 53), Pair(38, 55), Pair(28, 62), Pair(41, 26),
    // queen mobility
    Pair(-15, 0), Pair(-3, 0), Pair(-1, -4), Pair(-1, 1), Pair(-6, -5), Pair(1, 3), Pair(3, 1), Pair(4, 7),
    Pair(9, 20), Pair(18, 31), Pair(13, 24), Pair(14, 34), Pair(22, 32), Pair(22, 39), Pair(27, 36), Pair(21, 42),
    Pair(28, 44), Pair(26, 46), Pair(24, 42), Pair(26, 44), Pair(25, 42), Pair(25, 39), Pair(21, 39), Pair(22, 34),
    Pair(24, 44), Pair(20, 33), Pair(26, 49), Pair(25, 48),
    // passed pawn by rank
    Pair(0, 0), Pair(4, 0), Pair(-3, 11), Pair(3, 42), Pair(23, 58), Pair(52, 97), Pair(88, 131), Pair(0, 0),
    // passed pawn, own king distance
    Pair(2, 11), Pair(3, 43), Pair(3, 14), Pair(20, -10), Pair(-23, -17), Pair(-9, -26), Pair(14, -18), Pair(-3, 9),
    // passed pawn, enemy king distance
    Pair(-7, -34), Pair(9, -53), Pair(12, -28), Pair(4, 0), Pair(-3, 20), Pair(16, 49), Pair(-14, 29), Pair(-11, 27),
    // passed blocked, doubled, isolated, supported, phalanx
    Pair(-11, -26), Pair(-5, -22), Pair(-7, -6), Pair(13, 9), Pair(3, 10),
    // bishop pair
    Pair(33, 67),
    // rook on an open / half-open file
    Pair(58, -17), Pair(27, 1),
    // king shield pawn
    Pair(14, -5),
    // king attack
    Pair(-31, 10), Pair(-30, 9), Pair(-12, 10), Pair(30, 5), Pair(58, -14), Pair(66, -26), Pair(65, -6), Pair(70, 8),
    Pair(69, 4), Pair(73, 0), Pair(80, 0), Pair(88, 0), Pair(96, 0), Pair(104, 0), Pair(112, 0), Pair(120, 0),
    // threat by pawn
    Pair(45, 19),
    // threat by minor, hanging piece, outpost, king on an open file
    Pair(36, 8), Pair(19, 15), Pair(32, 16), Pair(-29, 0),
    // free passed pawn by rank
    Pair(0, 0), Pair(-1, 3), Pair(5, -8), Pair(7, 22), Pair(8, 43), Pair(17, 64), Pair(8, 59), Pair(0, 0),
    // safe checks by knight, bishop, rook, queen
    Pair(22, -3), Pair(1, 5), Pair(30, -1), Pair(31, -44),
    // tempo
    Pair(14, 1),
];
