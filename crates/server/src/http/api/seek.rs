//! `POST /api/board/seek`: a Board-API client's seek in the lobby, as lichess has it — the
//! answer streams blank lines while the seek waits, closing the connection withdraws it, and
//! the server closes the stream once the seek is taken (the game's start comes down the event
//! stream).

use axum::Extension;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use tokio::sync::broadcast::error::RecvError;

use super::error;
use super::game::{Api, player_of};
use super::ndjson::{self, KEEP_ALIVE};
use crate::http::address::ClientAddress;
use crate::http::body::{Body, Fields, field_text};
use crate::http::{AppState, SignedIn};
use crate::lobby::model::{Member, SeekRequest};
use crate::lobby::state::{Event, Personal};

/// The seek a form asks for: `time` (minutes) and `increment` (seconds), `color`, `rated`,
/// `variant` and `ratingRange` (`1500-1800`).
fn seek_request(fields: &Fields) -> Result<SeekRequest, String> {
    let get = |k: &str| field_text(fields, k);
    if get("days").is_some() {
        return Err("correspondence seeks are not served: seek with a clock".into());
    }
    let minutes: f64 = get("time")
        .ok_or("time (minutes) is needed")?
        .parse()
        .map_err(|_| "time is a number of minutes")?;
    let increment: u64 = match get("increment") {
        None => 0,
        Some(i) => i.parse().map_err(|_| "increment is a number of seconds")?,
    };
    if !(0.0..=180.0).contains(&minutes) || increment > 180 {
        return Err("time is 0 to 180 minutes, increment 0 to 180 seconds".into());
    }
    let chess960 = match get("variant").as_deref() {
        None | Some("standard") => false,
        Some("chess960") => true,
        Some(other) => return Err(format!("variant {other} is not played here")),
    };
    let rating_range = match get("ratingRange") {
        None => None,
        Some(r) => {
            let (low, high) = r.split_once('-').ok_or("ratingRange is low-high")?;
            let read = |s: &str| {
                s.trim()
                    .parse::<i32>()
                    .map_err(|_| "ratingRange is low-high")
            };
            Some((read(low)?, read(high)?))
        }
    };
    Ok(SeekRequest {
        time_control: format!("{}+{increment}", (minutes * 60.0).round() as u64),
        rated: get("rated").is_some_and(|r| r == "true"),
        chess960,
        color: get("color"),
        rating_range,
    })
}

/// `POST /api/board/seek`.
pub(crate) async fn seek(
    State(state): State<AppState>,
    Extension(signed): Extension<SignedIn>,
    address: ClientAddress,
    body: Result<Body<Fields>, Response>,
) -> Response {
    let account = match player_of(signed, Api::Board) {
        Ok(a) => a,
        Err(r) => return r,
    };
    let fields = body.map(Body::into_value).unwrap_or_default();
    let req = match seek_request(&fields) {
        Ok(r) => r,
        Err(why) => return error(StatusCode::BAD_REQUEST, why),
    };
    let member = Member {
        player: account.id.clone(),
        name: Some(account.name.clone()),
        address: address.0,
    };
    // In the lobby while the seek waits: its seeks go with its last presence there.
    let joined = state.lobby.join(&member, true).await;
    let id = match state.lobby.seek(&member, req).await {
        Ok(id) => id,
        Err(e) => {
            state.lobby.leave(&member).await;
            return error(StatusCode::BAD_REQUEST, e.to_string());
        }
    };
    let (lines, response) = ndjson::stream();
    tokio::spawn(async move {
        let mut events = joined.events;
        let mut shutdown = state.shutdown.clone();
        let mut keep_alive = tokio::time::interval(KEEP_ALIVE);
        loop {
            let going_on = tokio::select! {
                event = events.recv() => match event {
                    Ok(Event::ToPlayer { player, message: Personal::Paired { .. } })
                        if player == member.player => false,
                    Ok(_) | Err(RecvError::Lagged(_)) => true,
                    Err(RecvError::Closed) => false,
                },
                _ = keep_alive.tick() => lines.keep_alive().await,
                () = lines.closed() => false,
                () = shutdown.stopping() => false,
            };
            if !going_on {
                break;
            }
        }
        // Taken, the seek is gone already; else the client left and withdraws it.
        let _ = state.lobby.cancel(&member, &id).await;
        state.lobby.leave(&member).await;
    });
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn form(pairs: &[(&str, &str)]) -> Fields {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), json!(v)))
            .collect()
    }

    #[test]
    fn a_seek_reads_lichess_fields() {
        let r = seek_request(&form(&[
            ("time", "3"),
            ("increment", "2"),
            ("ratingRange", "1400-1700"),
        ]))
        .unwrap();
        assert_eq!(r.time_control, "180+2");
        assert_eq!(r.rating_range, Some((1400, 1700)));
        assert_eq!(
            seek_request(&form(&[("time", "0.5")]))
                .unwrap()
                .time_control,
            "30+0"
        );
        assert!(seek_request(&form(&[("days", "2")])).is_err());
        assert!(seek_request(&form(&[("time", "3"), ("variant", "atomic")])).is_err());
        assert!(seek_request(&form(&[])).is_err());
    }
}
