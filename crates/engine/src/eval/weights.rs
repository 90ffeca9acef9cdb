//! The evaluation's weights, one middlegame/endgame pair per feature of [`super::features`].
//!
//! Written by `vizier tune` (see the README); edit by hand only to seed a new feature.
//! Last run: 20803 games, 1544313 positions, K = 0.004958, 400 epochs at rate 1, l2 0.00000001: error 0.092444 -> 0.091637 (held-out games: 0.093765 -> 0.093294).

use super::Pair;
use super::features::COUNT;

/// The weights in use.
#[rustfmt::skip]
pub const WEIGHTS: [Pair; COUNT] = [
    // material (P N B R Q)
    Pair(76, 96), Pair(337, 241), Pair(362, 252), Pair(503, 511), Pair(1018, 994),
    // pawn squares
    Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0),
    Pair(-17, 14), Pair(-2, 18), Pair(-3, 12), Pair(-9, 21), Pair(-9, 1), Pair(17, 20), Pair(22, 12), Pair(-8, 8),
    Pair(-10, 11), Pair(-14, 32), Pair(-10, 5), Pair(-6, 18), Pair(-10, 19), Pair(2, 20), Pair(9, 12), Pair(12, -4),
    Pair(-13, 28), Pair(-21, 37), Pair(17, 10), Pair(15, 16), Pair(6, 10), Pair(8, 13), Pair(-9, 17), Pair(-7, 7),
    Pair(3, 29), Pair(-11, 7), Pair(9, 14), Pair(24, 11), Pair(23, 3), Pair(2, 9), Pair(4, 29), Pair(35, -3),
    Pair(9, 29), Pair(48, 52), Pair(7, 53), Pair(42, 10), Pair(17, 29), Pair(42, 18), Pair(15, 37), Pair(69, 13),
    Pair(35, 39), Pair(12, 16), Pair(25, 39), Pair(29, 32), Pair(26, 52), Pair(20, 54), Pair(22, 45), Pair(12, 9),
    Pair(21, 42), Pair(21, 42), Pair(21, 42), Pair(21, 42), Pair(21, 42), Pair(21, 42), Pair(21, 42), Pair(21, 42),
    // knight squares
    Pair(-11, -5), Pair(-8, -5), Pair(-9, 1), Pair(-13, -16), Pair(17, 15), Pair(33, -6), Pair(0, 14), Pair(3, -4),
    Pair(-16, -11), Pair(23, 8), Pair(15, 13), Pair(24, 4), Pair(31, 2), Pair(37, -19), Pair(8, 3), Pair(-1, 10),
    Pair(-11, -8), Pair(-10, 18), Pair(11, 11), Pair(32, 12), Pair(22, 21), Pair(23, 15), Pair(37, 25), Pair(21, 7),
    Pair(21, 13), Pair(33, 12), Pair(35, 35), Pair(38, 16), Pair(43, 23), Pair(37, 11), Pair(27, 5), Pair(14, -4),
    Pair(-13, 21), Pair(25, 28), Pair(43, 36), Pair(43, 31), Pair(31, 28), Pair(51, 29), Pair(15, 29), Pair(55, 9),
    Pair(18, 7), Pair(24, 21), Pair(27, 43), Pair(40, 35), Pair(42, 18), Pair(34, 15), Pair(28, 17), Pair(9, 5),
    Pair(3, 7), Pair(13, 6), Pair(32, 16), Pair(25, 18), Pair(22, 17), Pair(22, 20), Pair(16, 16), Pair(13, 4),
    Pair(-11, -8), Pair(6, 9), Pair(11, 2), Pair(15, 10), Pair(13, -5), Pair(9, 5), Pair(7, 8), Pair(-9, -10),
    // bishop squares
    Pair(12, 3), Pair(21, -5), Pair(5, 12), Pair(-7, -2), Pair(-3, 14), Pair(-2, 3), Pair(-7, 10), Pair(0, -10),
    Pair(8, -5), Pair(18, 7), Pair(-4, -4), Pair(17, 17), Pair(15, 17), Pair(13, 18), Pair(26, -13), Pair(3, -11),
    Pair(14, 2), Pair(11, 4), Pair(33, 14), Pair(17, 4), Pair(18, 21), Pair(18, -3), Pair(13, 16), Pair(-15, 27),
    Pair(-2, -3), Pair(34, 29), Pair(5, 8), Pair(38, 14), Pair(33, 11), Pair(7, 18), Pair(26, 8), Pair(23, 7),
    Pair(8, 6), Pair(2, 13), Pair(18, 22), Pair(34, 19), Pair(36, 24), Pair(26, 6), Pair(24, 20), Pair(21, 29),
    Pair(3, -7), Pair(5, 0), Pair(1, -3), Pair(18, 17), Pair(28, 14), Pair(29, 16), Pair(28, -9), Pair(0, 10),
    Pair(4, 2), Pair(0, 19), Pair(10, 5), Pair(15, 10), Pair(20, 19), Pair(18, 11), Pair(19, 5), Pair(-2, 12),
    Pair(-6, 2), Pair(5, 7), Pair(7, 0), Pair(10, -5), Pair(14, 3), Pair(12, 13), Pair(6, 9), Pair(-3, -3),
    // rook squares
    Pair(-1, 9), Pair(5, -9), Pair(17, -6), Pair(10, -4), Pair(21, -25), Pair(25, -18), Pair(-16, -14), Pair(-7, -11),
    Pair(-13, -30), Pair(-1, -11), Pair(13, -28), Pair(17, -26), Pair(8, -23), Pair(-15, -20), Pair(-30, 0), Pair(-59, -17),
    Pair(-29, 9), Pair(-3, -21), Pair(15, -23), Pair(-13, -4), Pair(-6, -2), Pair(-20, -14), Pair(11, -23), Pair(-32, -5),
    Pair(-11, 7), Pair(11, 12), Pair(2, 0), Pair(3, 1), Pair(11, 9), Pair(12, 14), Pair(11, 8), Pair(-12, 3),
    Pair(-14, 7), Pair(6, 27), Pair(17, 10), Pair(4, 11), Pair(23, 5), Pair(6, 12), Pair(25, 0), Pair(1, 1),
    Pair(4, 7), Pair(5, 22), Pair(15, 11), Pair(24, 18), Pair(3, 16), Pair(21, 21), Pair(15, 4), Pair(9, -1),
    Pair(-2, 21), Pair(1, 16), Pair(21, 20), Pair(25, 17), Pair(32, 23), Pair(13, 6), Pair(-3, 2), Pair(1, 14),
    Pair(7, 15), Pair(5, 24), Pair(5, 7), Pair(15, 23), Pair(3, 17), Pair(7, 21), Pair(-4, 14), Pair(2, 10),
    // queen squares
    Pair(-15, -4), Pair(6, -3), Pair(4, -8), Pair(11, -25), Pair(24, -5), Pair(-10, -2), Pair(-21, -4), Pair(-3, -2),
    Pair(-17, 0), Pair(6, 2), Pair(11, -6), Pair(17, 9), Pair(6, 2), Pair(-9, 5), Pair(-23, -2), Pair(11, 2),
    Pair(15, 6), Pair(5, -7), Pair(13, 13), Pair(9, 10), Pair(8, 5), Pair(19, 4), Pair(13, 14), Pair(33, 14),
    Pair(-15, 6), Pair(-9, 16), Pair(-7, 17), Pair(-10, 25), Pair(-5, 24), Pair(15, 16), Pair(-13, 15), Pair(-15, 15),
    Pair(0, 9), Pair(-12, 8), Pair(4, 26), Pair(9, 27), Pair(7, 27), Pair(21, 28), Pair(-2, 10), Pair(-7, 19),
    Pair(-10, 2), Pair(1, 7), Pair(18, 14), Pair(12, 24), Pair(9, 24), Pair(18, 23), Pair(19, 12), Pair(-1, 6),
    Pair(9, 5), Pair(3, 8), Pair(14, 19), Pair(1, 10), Pair(10, 19), Pair(11, 15), Pair(5, 11), Pair(19, 6),
    Pair(-7, -5), Pair(9, 8), Pair(1, 10), Pair(9, 16), Pair(7, 13), Pair(4, 8), Pair(6, 4), Pair(15, 7),
    // king squares
    Pair(-13, -9), Pair(44, 4), Pair(38, -7), Pair(-33, 18), Pair(-14, 19), Pair(-30, 20), Pair(3, 18), Pair(-20, -7),
    Pair(-12, 5), Pair(14, 34), Pair(-20, 19), Pair(-27, 40), Pair(-34, 34), Pair(-23, 34), Pair(3, 28), Pair(2, 16),
    Pair(-20, 1), Pair(-5, 13), Pair(-35, 33), Pair(-37, 40), Pair(-36, 35), Pair(-25, 43), Pair(-34, 33), Pair(-12, 18),
    Pair(-17, 13), Pair(-24, 40), Pair(-25, 30), Pair(-40, 39), Pair(-51, 37), Pair(-30, 41), Pair(-33, 28), Pair(-22, 3),
    Pair(-18, 16), Pair(-20, 41), Pair(-31, 44), Pair(-42, 48), Pair(-41, 41), Pair(-32, 40), Pair(-22, 26), Pair(-19, 19),
    Pair(-12, 18), Pair(-12, 47), Pair(-24, 48), Pair(-33, 37), Pair(-34, 44), Pair(-31, 4), Pair(-18, 18), Pair(-13, 21),
    Pair(-5, 7), Pair(-9, 35), Pair(-17, 33), Pair(-20, 47), Pair(-27, 28), Pair(-17, 26), Pair(-10, 25), Pair(-6, 15),
    Pair(0, -8), Pair(-5, 16), Pair(-11, 20), Pair(-17, 19), Pair(-21, 23), Pair(-11, 22), Pair(-5, 11), Pair(1, -9),
    // knight mobility
    Pair(-20, -7), Pair(-2, -24), Pair(12, -14), Pair(17, 6), Pair(24, 29), Pair(28, 30), Pair(27, 33), Pair(40, 19),
    Pair(38, 13),
    // bishop mobility
    Pair(-14, -18), Pair(5, -16), Pair(15, -8), Pair(25, 14), Pair(27, 41), Pair(30, 42), Pair(43, 43), Pair(39, 44),
    Pair(46, 49), Pair(43, 49), Pair(62, 43), Pair(49, 40), Pair(61, 41), Pair(53, 20),
    // rook mobility
    Pair(-18, -31), Pair(-11, -22), Pair(-9, -12), Pair(-1, 2), Pair(2, 16), Pair(4, 30), Pair(5, 36), Pair(13, 35),
    Pair(19, 47), Pair(24, 51), Pair(34, 51), Pair(47, 50), Pair(42, 56), Pair(20, 62), Pair(61, 22),
    // queen mobility
    Pair(-4, -1), Pair(-3, -3), Pair(2, -9), Pair(0, -6), Pair(-4, -11), Pair(0, -2), Pair(6, -5), Pair(8, 3),
    Pair(9, 18), Pair(18, 37), Pair(15, 29), Pair(13, 41), Pair(15, 35), Pair(17, 45), Pair(20, 41), Pair(19, 51),
    Pair(29, 51), Pair(30, 53), Pair(31, 49), Pair(33, 49), Pair(29, 44), Pair(28, 33), Pair(23, 38), Pair(22, 21),
    Pair(24, 40), Pair(16, 18), Pair(26, 47), Pair(23, 43),
    // passed pawn by rank
    Pair(0, 0), Pair(-2, -8), Pair(-13, 17), Pair(-4, 48), Pair(25, 69), Pair(53, 92), Pair(108, 128), Pair(0, 0),
    // passed pawn, own king distance
    Pair(2, 18), Pair(-5, 48), Pair(-4, 15), Pair(14, -4), Pair(-12, -17), Pair(-6, -25), Pair(16, -23), Pair(2, 0),
    // passed pawn, enemy king distance
    Pair(-14, -28), Pair(30, -47), Pair(17, -31), Pair(3, -4), Pair(-2, 13), Pair(12, 42), Pair(-22, 39), Pair(-19, 32),
    // passed blocked, doubled, isolated, supported, phalanx
    Pair(-16, -18), Pair(-10, -17), Pair(-11, -7), Pair(13, 6), Pair(4, 6),
    // bishop pair
    Pair(31, 71),
    // rook on an open / half-open file
    Pair(58, -16), Pair(23, 5),
    // king shield pawn
    Pair(21, -4),
    // king attack by 1 piece, squares 0-15
    Pair(-37, 10), Pair(-12, 5), Pair(-17, 14), Pair(18, 10), Pair(60, -11), Pair(76, -36), Pair(71, -6), Pair(74, 10),
    Pair(72, 6), Pair(74, 1), Pair(80, 0), Pair(88, 0), Pair(96, 0), Pair(104, 0), Pair(112, 0), Pair(120, 0),
    // king attack by 2 pieces
    Pair(-37, 10), Pair(-35, 9), Pair(-2, 19), Pair(23, 3), Pair(61, -19), Pair(78, -36), Pair(73, -8), Pair(75, 10),
    Pair(73, 6), Pair(74, 1), Pair(80, 0), Pair(88, 0), Pair(96, 0), Pair(104, 0), Pair(112, 0), Pair(120, 0),
    // king attack by 3 pieces
    Pair(-37, 10), Pair(-35, 9), Pair(-21, 14), Pair(28, 9), Pair(63, -13), Pair(81, -30), Pair(73, -6), Pair(76, 12),
    Pair(73, 7), Pair(74, 1), Pair(80, 0), Pair(88, 0), Pair(96, 0), Pair(104, 0), Pair(112, 0), Pair(120, 0),
    // king attack by 4 or more pieces
    Pair(-37, 10), Pair(-35, 9), Pair(-21, 14), Pair(23, 6), Pair(61, -16), Pair(77, -32), Pair(72, -6), Pair(75, 10),
    Pair(73, 6), Pair(74, 1), Pair(80, 0), Pair(88, 0), Pair(96, 0), Pair(104, 0), Pair(112, 0), Pair(120, 0),
    // threat by pawn
    Pair(54, 25),
    // threat by minor, hanging piece, outpost, king on an open file
    Pair(45, 9), Pair(18, 13), Pair(35, 15), Pair(-20, -4),
    // free passed pawn by rank
    Pair(0, 0), Pair(9, 8), Pair(4, 0), Pair(-1, 18), Pair(0, 48), Pair(18, 78), Pair(11, 81), Pair(0, 0),
    // safe checks by knight, bishop, rook, queen
    Pair(42, -4), Pair(-2, 5), Pair(64, -11), Pair(36, -35),
    // tempo
    Pair(15, 2),
    // pawn storm by rank, free / blocked
    Pair(0, 0), Pair(-2, -2), Pair(-5, 1), Pair(11, -5), Pair(14, -4), Pair(0, -20), Pair(-5, -31), Pair(0, 0),
    Pair(0, 0), Pair(-7, -4), Pair(-15, -2), Pair(-13, -1), Pair(-14, -2), Pair(10, 5), Pair(0, 0), Pair(0, 0),
    // far shield pawn, backward pawn, rook on the seventh, threat by rook, weak king squares, bishop's pawns
    Pair(18, -5), Pair(-1, -20), Pair(3, 10), Pair(11, 4), Pair(24, -9), Pair(-4, -5),
];
