//! # vizier-train
//!
//! The tools that make the engine's evaluation, apart from the engine that uses it: the Texel
//! tuner of the classical evaluation's weights ([`tune`]), self-play training positions
//! ([`datagen`], played through the engine's front door, [`vizier_engine::Player`]) and the
//! trainer of the neural evaluation ([`nnue`]). `vizier tune`, `vizier datagen` and
//! `vizier train` run them; `docs/engine.md` tells how they were used.

pub mod datagen;
pub mod nnue;
pub mod tune;
