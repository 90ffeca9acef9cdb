//! The evaluation's weights, one middlegame/endgame pair per feature of [`super::features`].
//!
//! Written by `vizier tune` (see the README); edit by hand only to seed a new feature.
//! Last run: 17325 games, 1264135 positions, K = 0.004913, 400 epochs at rate 1, l2 0.00000001: error 0.092774 -> 0.092293 (held-out games: 0.094514 -> 0.094177).

use super::Pair;
use super::features::COUNT;

/// The weights in use.
#[rustfmt::skip]
pub const WEIGHTS: [Pair; COUNT] = [
    // material (P N B R Q)
    Pair(79, 94), Pair(329, 244), Pair(340, 256), Pair(501, 516), Pair(1005, 1003),
    // pawn squares
    Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0),
    Pair(-15, 7), Pair(2, 15), Pair(-5, 13), Pair(-10, 17), Pair(-10, -5), Pair(19, 17), Pair(21, 11), Pair(-10, 8),
    Pair(-11, 6), Pair(-15, 29), Pair(-16, 7), Pair(-7, 12), Pair(-7, 22), Pair(9, 21), Pair(7, 14), Pair(12, -1),
    Pair(-12, 23), Pair(-19, 29), Pair(17, 9), Pair(17, 15), Pair(7, 7), Pair(13, 16), Pair(-4, 11), Pair(-10, 8),
    Pair(5, 30), Pair(-11, 9), Pair(10, 14), Pair(27, 17), Pair(14, 5), Pair(6, 16), Pair(-2, 27), Pair(45, 0),
    Pair(10, 30), Pair(42, 62), Pair(13, 53), Pair(36, 9), Pair(17, 28), Pair(42, 22), Pair(14, 40), Pair(73, 26),
    Pair(32, 43), Pair(11, 15), Pair(24, 42), Pair(26, 33), Pair(23, 45), Pair(20, 51), Pair(22, 38), Pair(12, 18),
    Pair(21, 42), Pair(21, 42), Pair(21, 42), Pair(21, 42), Pair(21, 42), Pair(21, 42), Pair(21, 42), Pair(21, 42),
    // knight squares
    Pair(-8, -4), Pair(-14, -7), Pair(-4, -1), Pair(-9, -13), Pair(15, 14), Pair(31, -3), Pair(-3, 19), Pair(0, -4),
    Pair(-16, -8), Pair(19, 8), Pair(18, 14), Pair(25, 2), Pair(33, 3), Pair(43, -13), Pair(9, 3), Pair(-2, 8),
    Pair(-14, -7), Pair(-9, 13), Pair(7, 13), Pair(35, 10), Pair(25, 16), Pair(24, 18), Pair(40, 28), Pair(20, 9),
    Pair(20, 17), Pair(31, 12), Pair(36, 31), Pair(41, 18), Pair(42, 21), Pair(44, 11), Pair(26, 6), Pair(15, -3),
    Pair(-6, 18), Pair(17, 30), Pair(38, 31), Pair(38, 29), Pair(24, 26), Pair(48, 26), Pair(14, 27), Pair(50, 13),
    Pair(17, 8), Pair(30, 20), Pair(28, 41), Pair(40, 35), Pair(38, 17), Pair(33, 17), Pair(25, 17), Pair(8, 4),
    Pair(5, 5), Pair(12, 4), Pair(30, 15), Pair(25, 18), Pair(22, 17), Pair(22, 19), Pair(15, 15), Pair(13, 4),
    Pair(-8, -6), Pair(6, 7), Pair(11, 3), Pair(16, 10), Pair(15, 0), Pair(10, 6), Pair(7, 7), Pair(-7, -10),
    // bishop squares
    Pair(12, 3), Pair(17, -3), Pair(3, 16), Pair(-4, -3), Pair(3, 17), Pair(-3, 5), Pair(-6, 10), Pair(3, -8),
    Pair(10, -2), Pair(20, 8), Pair(-9, -6), Pair(18, 21), Pair(17, 19), Pair(7, 19), Pair(34, -11), Pair(4, -8),
    Pair(10, 0), Pair(21, 3), Pair(28, 14), Pair(14, 5), Pair(15, 20), Pair(17, -1), Pair(17, 16), Pair(-19, 23),
    Pair(1, -2), Pair(33, 36), Pair(11, 4), Pair(35, 16), Pair(33, 12), Pair(5, 14), Pair(26, 8), Pair(22, 8),
    Pair(12, 7), Pair(0, 14), Pair(14, 20), Pair(31, 16), Pair(32, 21), Pair(21, 7), Pair(20, 16), Pair(17, 27),
    Pair(1, -6), Pair(3, -1), Pair(2, -4), Pair(16, 13), Pair(23, 14), Pair(26, 12), Pair(29, -7), Pair(2, 8),
    Pair(5, 3), Pair(1, 17), Pair(10, 4), Pair(16, 10), Pair(20, 20), Pair(19, 10), Pair(18, 5), Pair(-1, 12),
    Pair(-4, 2), Pair(5, 5), Pair(7, 0), Pair(10, -3), Pair(14, 3), Pair(11, 12), Pair(6, 8), Pair(-3, -4),
    // rook squares
    Pair(-5, 11), Pair(7, -5), Pair(17, -5), Pair(10, -3), Pair(20, -18), Pair(29, -17), Pair(-13, -9), Pair(-4, -11),
    Pair(-19, -27), Pair(1, -9), Pair(11, -26), Pair(17, -22), Pair(8, -20), Pair(-12, -18), Pair(-24, 6), Pair(-48, -15),
    Pair(-26, 7), Pair(-2, -18), Pair(9, -23), Pair(-7, -2), Pair(-5, -3), Pair(-16, -11), Pair(9, -19), Pair(-28, -7),
    Pair(-13, 6), Pair(11, 9), Pair(2, -1), Pair(6, 0), Pair(10, 8), Pair(16, 14), Pair(8, 5), Pair(-8, -1),
    Pair(-11, 5), Pair(6, 27), Pair(15, 9), Pair(3, 9), Pair(20, 6), Pair(5, 11), Pair(20, 5), Pair(2, 0),
    Pair(-1, 2), Pair(5, 18), Pair(12, 9), Pair(21, 18), Pair(1, 11), Pair(18, 18), Pair(14, 3), Pair(8, -3),
    Pair(-2, 21), Pair(1, 17), Pair(18, 22), Pair(22, 19), Pair(28, 25), Pair(13, 6), Pair(0, 4), Pair(3, 13),
    Pair(5, 13), Pair(4, 20), Pair(4, 4), Pair(13, 21), Pair(2, 14), Pair(6, 19), Pair(-4, 11), Pair(2, 9),
    // queen squares
    Pair(-13, -3), Pair(1, -1), Pair(-2, -5), Pair(14, -21), Pair(32, 0), Pair(-7, 0), Pair(-16, -2), Pair(-3, -1),
    Pair(-18, 1), Pair(5, 4), Pair(7, -2), Pair(24, 12), Pair(-1, 7), Pair(-10, 6), Pair(-22, 0), Pair(9, 2),
    Pair(21, 8), Pair(10, -3), Pair(19, 14), Pair(9, 11), Pair(11, 9), Pair(15, 5), Pair(11, 12), Pair(31, 14),
    Pair(-18, 5), Pair(-5, 15), Pair(-8, 15), Pair(-10, 23), Pair(-4, 23), Pair(16, 17), Pair(-13, 14), Pair(-10, 15),
    Pair(-2, 8), Pair(-13, 9), Pair(5, 23), Pair(11, 27), Pair(8, 26), Pair(17, 25), Pair(-1, 10), Pair(-14, 16),
    Pair(-11, 2), Pair(2, 8), Pair(16, 13), Pair(10, 23), Pair(7, 22), Pair(15, 20), Pair(16, 11), Pair(-3, 5),
    Pair(9, 6), Pair(4, 8), Pair(13, 17), Pair(1, 10), Pair(8, 17), Pair(8, 13), Pair(5, 10), Pair(15, 5),
    Pair(-5, -4), Pair(8, 7), Pair(1, 9), Pair(8, 15), Pair(6, 12), Pair(4, 8), Pair(6, 4), Pair(13, 7),
    // king squares
    Pair(-8, -11), Pair(41, 5), Pair(28, -8), Pair(-36, 16), Pair(-13, 18), Pair(-27, 17), Pair(9, 16), Pair(-20, -9),
    Pair(-14, 7), Pair(16, 35), Pair(-17, 21), Pair(-30, 42), Pair(-36, 35), Pair(-24, 35), Pair(0, 24), Pair(-1, 14),
    Pair(-20, 3), Pair(-8, 15), Pair(-32, 31), Pair(-38, 41), Pair(-36, 34), Pair(-29, 42), Pair(-32, 31), Pair(-9, 18),
    Pair(-17, 15), Pair(-24, 41), Pair(-27, 32), Pair(-40, 37), Pair(-48, 37), Pair(-30, 41), Pair(-31, 28), Pair(-22, 3),
    Pair(-18, 18), Pair(-20, 44), Pair(-31, 45), Pair(-40, 48), Pair(-40, 42), Pair(-31, 40), Pair(-22, 27), Pair(-19, 19),
    Pair(-12, 16), Pair(-12, 48), Pair(-23, 46), Pair(-32, 37), Pair(-32, 45), Pair(-29, 8), Pair(-18, 21), Pair(-12, 21),
    Pair(-5, 8), Pair(-10, 30), Pair(-17, 32), Pair(-20, 47), Pair(-26, 31), Pair(-17, 26), Pair(-11, 22), Pair(-6, 13),
    Pair(0, -8), Pair(-5, 14), Pair(-11, 19), Pair(-17, 19), Pair(-20, 25), Pair(-11, 21), Pair(-5, 9), Pair(1, -6),
    // knight mobility
    Pair(-23, -5), Pair(-3, -20), Pair(13, -13), Pair(17, 7), Pair(24, 28), Pair(25, 31), Pair(26, 33), Pair(39, 18),
    Pair(37, 9),
    // bishop mobility
    Pair(-16, -12), Pair(7, -14), Pair(14, -8), Pair(23, 12), Pair(25, 36), Pair(26, 38), Pair(39, 39), Pair(38, 42),
    Pair(46, 45), Pair(38, 50), Pair(59, 43), Pair(49, 44), Pair(60, 45), Pair(55, 29),
    // rook mobility
    Pair(-18, -25), Pair(-11, -19), Pair(-10, -14), Pair(-1, -1), Pair(5, 15), Pair(8, 28), Pair(8, 36), Pair(15, 35),
    Pair(19, 49), Pair(23, 51), Pair(31, 52), Pair(45, 51), Pair(40, 54), Pair(24, 62), Pair(51, 22),
    // queen mobility
    Pair(-10, -1), Pair(-3, -2), Pair(2, -7), Pair(0, -3), Pair(-4, -8), Pair(2, 0), Pair(6, -2), Pair(7, 4),
    Pair(9, 19), Pair(18, 35), Pair(14, 27), Pair(11, 39), Pair(18, 34), Pair(19, 42), Pair(22, 38), Pair(19, 46),
    Pair(29, 48), Pair(28, 50), Pair(28, 46), Pair(30, 47), Pair(27, 43), Pair(26, 36), Pair(22, 38), Pair(22, 27),
    Pair(24, 42), Pair(18, 25), Pair(26, 48), Pair(24, 45),
    // passed pawn by rank
    Pair(0, 0), Pair(0, -6), Pair(-9, 18), Pair(-2, 47), Pair(28, 66), Pair(54, 93), Pair(96, 127), Pair(0, 0),
    // passed pawn, own king distance
    Pair(2, 16), Pair(-2, 47), Pair(1, 13), Pair(22, -7), Pair(-19, -16), Pair(-9, -24), Pair(14, -21), Pair(-2, 3),
    // passed pawn, enemy king distance
    Pair(-10, -35), Pair(21, -52), Pair(15, -28), Pair(4, 0), Pair(-2, 16), Pair(13, 47), Pair(-19, 37), Pair(-16, 31),
    // passed blocked, doubled, isolated, supported, phalanx
    Pair(-11, -22), Pair(-4, -17), Pair(-6, -6), Pair(14, 5), Pair(4, 10),
    // bishop pair
    Pair(36, 70),
    // rook on an open / half-open file
    Pair(61, -17), Pair(27, 3),
    // king shield pawn
    Pair(10, -2),
    // king attack
    Pair(-37, 10), Pair(-35, 9), Pair(-21, 14), Pair(23, 6), Pair(60, -16), Pair(76, -33), Pair(71, -6), Pair(74, 10),
    Pair(72, 6), Pair(74, 1), Pair(80, 0), Pair(88, 0), Pair(96, 0), Pair(104, 0), Pair(112, 0), Pair(120, 0),
    // threat by pawn
    Pair(53, 23),
    // threat by minor, hanging piece, outpost, king on an open file
    Pair(43, 9), Pair(19, 14), Pair(38, 12), Pair(-26, -3),
    // free passed pawn by rank
    Pair(0, 0), Pair(4, 6), Pair(5, -5), Pair(4, 20), Pair(5, 46), Pair(19, 73), Pair(10, 73), Pair(0, 0),
    // safe checks by knight, bishop, rook, queen
    Pair(34, -4), Pair(2, 8), Pair(50, -8), Pair(34, -40),
    // tempo
    Pair(16, 1),
];
