//! A game's id from the URL (`/game/{id}`, `/api/game/{id}/pgn`, …): one that cannot be a
//! game's id is no such game, before anything is looked up.

use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;
use axum::response::Response;
use vizier_play::ids::GameId;

/// The game named by the path's `{id}`.
pub(super) struct GamePath(pub GameId);

impl<S: Send + Sync> FromRequestParts<S> for GamePath {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<GamePath, Response> {
        let Path(id) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(|_| super::not_found())?;
        GameId::parse(&id)
            .map(GamePath)
            .ok_or_else(super::not_found)
    }
}
