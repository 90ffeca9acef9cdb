//! The evaluation's weights, one middlegame/endgame pair per feature of [`super::features`].
//!
//! Written by `vizier tune` (see docs/engine.md); edit by hand only to seed a new feature.
//! Last run: 21970 games, 1642308 positions, K = 0.005033, 400 epochs at rate 1, l2 0.00000001: error 0.091184 -> 0.090663 (held-out games: 0.092483 -> 0.092064).

use super::Pair;
use super::features::COUNT;

/// The weights in use.
#[rustfmt::skip]
pub const WEIGHTS: [Pair; COUNT] = [
    // material (P N B R Q)
    Pair(65, 83), Pair(328, 216), Pair(379, 241), Pair(497, 469), Pair(1037, 991),
    // pawn squares
    Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0),
    Pair(-17, 16), Pair(-4, 19), Pair(-2, 10), Pair(-9, 23), Pair(-7, 4), Pair(14, 20), Pair(23, 14), Pair(-8, 6),
    Pair(-12, 12), Pair(-15, 31), Pair(-6, 5), Pair(-4, 19), Pair(-8, 15), Pair(1, 17), Pair(10, 12), Pair(9, -6),
    Pair(-13, 30), Pair(-24, 40), Pair(19, 10), Pair(12, 14), Pair(4, 10), Pair(4, 11), Pair(-12, 20), Pair(-6, 8),
    Pair(1, 32), Pair(-13, 10), Pair(11, 14), Pair(22, 11), Pair(23, 1), Pair(0, 6), Pair(9, 28), Pair(33, -3),
    Pair(6, 27), Pair(52, 48), Pair(3, 55), Pair(45, 11), Pair(16, 29), Pair(42, 16), Pair(15, 35), Pair(65, 6),
    Pair(38, 36), Pair(13, 19), Pair(26, 38), Pair(31, 33), Pair(28, 59), Pair(20, 53), Pair(22, 51), Pair(12, -1),
    Pair(21, 42), Pair(21, 42), Pair(21, 42), Pair(21, 42), Pair(21, 42), Pair(21, 42), Pair(21, 42), Pair(21, 42),
    // knight squares
    Pair(-13, -6), Pair(-9, -5), Pair(-13, 3), Pair(-16, -18), Pair(17, 15), Pair(35, -9), Pair(-3, 9), Pair(5, -4),
    Pair(-17, -14), Pair(28, 8), Pair(11, 11), Pair(21, 7), Pair(29, 0), Pair(33, -23), Pair(6, 2), Pair(-3, 11),
    Pair(-8, -10), Pair(-11, 22), Pair(12, 8), Pair(28, 12), Pair(22, 23), Pair(22, 14), Pair(36, 23), Pair(20, 5),
    Pair(23, 8), Pair(35, 13), Pair(36, 35), Pair(37, 15), Pair(42, 25), Pair(36, 12), Pair(28, 5), Pair(12, -5),
    Pair(-17, 23), Pair(34, 24), Pair(46, 36), Pair(47, 32), Pair(34, 29), Pair(53, 30), Pair(16, 30), Pair(58, 5),
    Pair(19, 6), Pair(19, 20), Pair(26, 45), Pair(40, 35), Pair(46, 19), Pair(35, 14), Pair(29, 16), Pair(10, 7),
    Pair(2, 9), Pair(14, 6), Pair(34, 17), Pair(25, 18), Pair(22, 17), Pair(23, 21), Pair(17, 17), Pair(13, 4),
    Pair(-15, -10), Pair(6, 10), Pair(11, 1), Pair(14, 10), Pair(11, -9), Pair(8, 4), Pair(7, 9), Pair(-11, -11),
    // bishop squares
    Pair(13, 3), Pair(22, -7), Pair(5, 9), Pair(-8, -1), Pair(-7, 12), Pair(-5, 3), Pair(-8, 9), Pair(-2, -12),
    Pair(6, -8), Pair(17, 5), Pair(0, -1), Pair(18, 15), Pair(14, 17), Pair(16, 15), Pair(23, -15), Pair(2, -14),
    Pair(15, 2), Pair(4, 5), Pair(32, 15), Pair(16, 3), Pair(18, 21), Pair(20, -4), Pair(10, 16), Pair(-14, 30),
    Pair(-6, -6), Pair(36, 25), Pair(3, 12), Pair(39, 14), Pair(34, 10), Pair(11, 21), Pair(27, 7), Pair(22, 7),
    Pair(6, 6), Pair(9, 13), Pair(22, 23), Pair(35, 19), Pair(36, 24), Pair(31, 4), Pair(29, 23), Pair(26, 30),
    Pair(4, -8), Pair(5, 0), Pair(0, -1), Pair(21, 21), Pair(32, 15), Pair(31, 17), Pair(26, -10), Pair(-2, 11),
    Pair(3, 1), Pair(0, 22), Pair(11, 5), Pair(14, 8), Pair(20, 18), Pair(17, 11), Pair(20, 5), Pair(-2, 12),
    Pair(-7, 2), Pair(5, 8), Pair(7, -1), Pair(10, -8), Pair(14, 3), Pair(13, 15), Pair(6, 9), Pair(-2, -3),
    // rook squares
    Pair(-1, 3), Pair(4, -11), Pair(18, -7), Pair(11, -7), Pair(21, -27), Pair(24, -20), Pair(-17, -14), Pair(-10, -14),
    Pair(-10, -34), Pair(-1, -12), Pair(14, -30), Pair(18, -30), Pair(8, -25), Pair(-17, -21), Pair(-33, -4), Pair(-63, -19),
    Pair(-31, 11), Pair(-3, -20), Pair(19, -24), Pair(-17, -6), Pair(-7, -2), Pair(-24, -17), Pair(10, -28), Pair(-36, -4),
    Pair(-11, 7), Pair(11, 15), Pair(3, 0), Pair(1, 1), Pair(13, 10), Pair(9, 13), Pair(13, 9), Pair(-17, 4),
    Pair(-16, 9), Pair(5, 27), Pair(19, 9), Pair(5, 12), Pair(26, 3), Pair(6, 11), Pair(28, -5), Pair(-2, 2),
    Pair(7, 9), Pair(4, 24), Pair(15, 10), Pair(27, 17), Pair(5, 20), Pair(23, 21), Pair(15, 3), Pair(10, -1),
    Pair(-2, 21), Pair(1, 13), Pair(22, 16), Pair(28, 15), Pair(36, 21), Pair(13, 5), Pair(-6, 0), Pair(-1, 14),
    Pair(9, 16), Pair(5, 26), Pair(6, 9), Pair(16, 24), Pair(4, 20), Pair(7, 22), Pair(-5, 16), Pair(2, 10),
    // queen squares
    Pair(-16, -4), Pair(9, -6), Pair(8, -11), Pair(11, -27), Pair(20, -9), Pair(-13, -4), Pair(-26, -6), Pair(-3, -3),
    Pair(-17, 0), Pair(6, 0), Pair(12, -9), Pair(15, 7), Pair(8, -3), Pair(-7, 4), Pair(-23, -3), Pair(12, 2),
    Pair(12, 5), Pair(3, -9), Pair(10, 12), Pair(6, 9), Pair(7, 2), Pair(22, 2), Pair(14, 15), Pair(33, 14),
    Pair(-15, 7), Pair(-13, 17), Pair(-6, 18), Pair(-9, 27), Pair(-6, 25), Pair(12, 15), Pair(-13, 17), Pair(-17, 16),
    Pair(2, 11), Pair(-12, 8), Pair(4, 29), Pair(6, 28), Pair(6, 29), Pair(25, 31), Pair(-1, 10), Pair(-2, 22),
    Pair(-9, 2), Pair(0, 6), Pair(19, 15), Pair(13, 24), Pair(11, 26), Pair(21, 25), Pair(23, 13), Pair(0, 7),
    Pair(10, 4), Pair(3, 9), Pair(15, 21), Pair(2, 11), Pair(11, 21), Pair(14, 17), Pair(5, 12), Pair(23, 6),
    Pair(-8, -6), Pair(10, 9), Pair(1, 11), Pair(10, 17), Pair(8, 14), Pair(4, 8), Pair(6, 4), Pair(16, 7),
    // king squares
    Pair(-16, -5), Pair(46, 2), Pair(40, -8), Pair(-29, 17), Pair(-12, 17), Pair(-32, 23), Pair(1, 20), Pair(-20, -3),
    Pair(-9, 5), Pair(13, 31), Pair(-21, 18), Pair(-26, 39), Pair(-32, 34), Pair(-22, 33), Pair(2, 30), Pair(3, 18),
    Pair(-20, -1), Pair(-1, 13), Pair(-37, 34), Pair(-36, 39), Pair(-35, 35), Pair(-22, 42), Pair(-36, 34), Pair(-14, 18),
    Pair(-16, 12), Pair(-24, 40), Pair(-23, 29), Pair(-40, 40), Pair(-53, 38), Pair(-29, 43), Pair(-35, 30), Pair(-22, 3),
    Pair(-18, 14), Pair(-20, 36), Pair(-31, 44), Pair(-44, 47), Pair(-42, 42), Pair(-33, 43), Pair(-22, 26), Pair(-19, 20),
    Pair(-12, 19), Pair(-12, 43), Pair(-25, 50), Pair(-34, 37), Pair(-36, 43), Pair(-32, 4), Pair(-18, 13), Pair(-14, 21),
    Pair(-5, 7), Pair(-9, 37), Pair(-17, 34), Pair(-20, 45), Pair(-28, 26), Pair(-17, 27), Pair(-10, 28), Pair(-6, 17),
    Pair(0, -8), Pair(-5, 18), Pair(-11, 21), Pair(-17, 19), Pair(-22, 22), Pair(-11, 23), Pair(-5, 13), Pair(1, -13),
    // knight mobility
    Pair(-17, -9), Pair(-1, -29), Pair(11, -17), Pair(15, 3), Pair(22, 25), Pair(26, 27), Pair(25, 29), Pair(37, 17),
    Pair(37, 14),
    // bishop mobility
    Pair(-9, -23), Pair(6, -15), Pair(18, -4), Pair(27, 19), Pair(28, 44), Pair(31, 46), Pair(43, 46), Pair(39, 44),
    Pair(45, 50), Pair(46, 45), Pair(64, 40), Pair(49, 34), Pair(62, 36), Pair(52, 13),
    // rook mobility
    Pair(-18, -38), Pair(-11, -24), Pair(-10, -13), Pair(-2, 0), Pair(1, 15), Pair(2, 27), Pair(4, 32), Pair(11, 32),
    Pair(18, 43), Pair(23, 47), Pair(34, 46), Pair(47, 46), Pair(42, 55), Pair(17, 62), Pair(68, 20),
    // queen mobility
    Pair(-2, -1), Pair(-3, -4), Pair(3, -11), Pair(1, -9), Pair(-2, -14), Pair(1, -3), Pair(7, -7), Pair(9, 2),
    Pair(10, 18), Pair(18, 39), Pair(15, 32), Pair(14, 43), Pair(15, 36), Pair(17, 48), Pair(20, 44), Pair(19, 56),
    Pair(30, 54), Pair(31, 56), Pair(34, 52), Pair(36, 51), Pair(32, 44), Pair(30, 30), Pair(24, 38), Pair(22, 15),
    Pair(24, 38), Pair(14, 12), Pair(26, 46), Pair(22, 41),
    // passed pawn by rank
    Pair(0, 0), Pair(-3, -10), Pair(-12, 13), Pair(-8, 47), Pair(21, 71), Pair(48, 97), Pair(118, 129), Pair(0, 0),
    // passed pawn, own king distance
    Pair(0, 17), Pair(-11, 47), Pair(-8, 17), Pair(8, -2), Pair(-8, -18), Pair(-2, -25), Pair(20, -23), Pair(5, -1),
    // passed pawn, enemy king distance
    Pair(-19, -27), Pair(33, -44), Pair(15, -30), Pair(2, -5), Pair(-2, 11), Pair(14, 39), Pair(-21, 41), Pair(-20, 32),
    // passed blocked, doubled, isolated, supported, phalanx
    Pair(-17, -10), Pair(-9, -18), Pair(-10, -8), Pair(13, 4), Pair(3, 3),
    // bishop pair
    Pair(23, 82),
    // rook on an open / half-open file
    Pair(58, -15), Pair(21, 9),
    // king shield pawn
    Pair(23, -7),
    // king attack by 1 piece, squares 0-15
    Pair(-37, 10), Pair(-8, 2), Pair(-15, 13), Pair(13, 10), Pair(59, -10), Pair(77, -39), Pair(71, -6), Pair(74, 10),
    Pair(72, 6), Pair(74, 1), Pair(80, 0), Pair(88, 0), Pair(96, 0), Pair(104, 0), Pair(112, 0), Pair(120, 0),
    // king attack by 2 pieces
    Pair(-37, 10), Pair(-35, 9), Pair(5, 21), Pair(24, 0), Pair(62, -22), Pair(79, -40), Pair(75, -10), Pair(76, 10),
    Pair(74, 6), Pair(74, 1), Pair(80, 0), Pair(88, 0), Pair(96, 0), Pair(104, 0), Pair(112, 0), Pair(120, 0),
    // king attack by 3 pieces
    Pair(-37, 10), Pair(-35, 9), Pair(-21, 14), Pair(32, 12), Pair(65, -11), Pair(85, -27), Pair(74, -6), Pair(78, 14),
    Pair(74, 8), Pair(74, 1), Pair(80, 0), Pair(88, 0), Pair(96, 0), Pair(104, 0), Pair(112, 0), Pair(120, 0),
    // king attack by 4 or more pieces
    Pair(-37, 10), Pair(-35, 9), Pair(-21, 14), Pair(23, 6), Pair(62, -16), Pair(78, -31), Pair(73, -6), Pair(75, 10),
    Pair(73, 6), Pair(74, 1), Pair(80, 0), Pair(88, 0), Pair(96, 0), Pair(104, 0), Pair(112, 0), Pair(120, 0),
    // threat by pawn
    Pair(55, 26),
    // threat by minor, hanging piece, outpost, king on an open file
    Pair(45, 9), Pair(16, 16), Pair(30, 9), Pair(-15, -4),
    // free passed pawn by rank
    Pair(0, 0), Pair(11, 9), Pair(1, 2), Pair(-7, 20), Pair(-5, 48), Pair(15, 82), Pair(11, 87), Pair(0, 0),
    // safe checks by knight, bishop, rook, queen
    Pair(45, -6), Pair(-2, 0), Pair(74, -16), Pair(36, -34),
    // tempo
    Pair(16, 5),
    // pawn storm by rank, free / blocked
    Pair(0, 0), Pair(-1, -4), Pair(-5, 1), Pair(13, -7), Pair(18, -7), Pair(-1, -31), Pair(-9, -56), Pair(0, 0),
    Pair(0, 0), Pair(-11, -7), Pair(-24, 0), Pair(-17, 1), Pair(-20, -2), Pair(15, 8), Pair(0, 0), Pair(0, 0),
    // far shield pawn, backward pawn, rook on the seventh, threat by rook, weak king squares, bishop's pawns
    Pair(20, -8), Pair(-1, -23), Pair(3, 11), Pair(19, 7), Pair(25, -8), Pair(-5, 1),
    // threat by king, push threat, weak pawn, knight's pawns, rook's pawns, space, space behind pawns, minor behind a pawn
    Pair(6, -13), Pair(17, 5), Pair(15, 26), Pair(3, 11), Pair(-1, 23), Pair(2, -3), Pair(-1, 3), Pair(5, 17),
];
