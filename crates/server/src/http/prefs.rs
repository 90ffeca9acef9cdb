//! An account's preferences as the web app sets them: language, sound, and how the board
//! looks and behaves. Every field has a closed set of values: anything else is refused.

use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Default)]
pub(super) struct Prefs {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sound: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardPrefs>,
}

/// How the board looks and behaves for the account, as the web app's preferences dialog sets
/// it. Every field has a closed set of values: anything else is refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct BoardPrefs {
    auto_flip: bool,
    notation: Notation,
    confirm_move: bool,
    auto_queen: bool,
    board_theme: BoardTheme,
    piece_set: PieceSet,
    big_coords: bool,
    voice: Voice,
    blindfold: Blindfold,
    human_pace: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Notation {
    San,
    Figurine,
    Zh,
    De,
    Fr,
    Es,
    It,
    Nl,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum BoardTheme {
    Brown,
    Blue,
    Green,
    Contrast,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum PieceSet {
    Cburnett,
    Figurine,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Voice {
    Off,
    En,
    Zh,
    De,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Blindfold {
    Off,
    Pieces,
    Board,
}
