//! The friend's arrival: the invite token from the link takes the open seat of a waiting
//! friend game, and the game begins.

use vizier_arbiter::{Game, GameResult};
use vizier_rules::Reason;

use super::GameEvent;
use super::Round;
use crate::ids::PlayerId;
use crate::refusal::{Refusal, Why};
use vizier_store::record::Seat;

impl Round {
    /// The creator withdraws a waiting invite: the game ends, aborted, before it began.
    pub(super) async fn withdraw_invite(
        &mut self,
        player: Option<&PlayerId>,
    ) -> Result<(), Refusal> {
        let creator = player.is_some_and(|p| self.seats.iter().any(|s| s.is(p)));
        if !creator {
            return Err(Refusal::new(
                Why::Spectator,
                "only the game's creator may withdraw its invite",
            ));
        }
        if self.invite_ended.is_some() {
            return Err(Refusal::new(Why::GameOver, "the game is over"));
        }
        if let Err(e) = self.end_waiting(Reason::Aborted).await {
            tracing::error!(game = %self.table.id, "invite not withdrawn: {e}");
            return Err(Refusal::new(
                Why::Storage,
                "could not withdraw the invite; try again",
            ));
        }
        Ok(())
    }

    /// Ends a game nobody joined, without a result, for `reason` (stored before it is told).
    pub(super) async fn end_waiting(
        &mut self,
        reason: Reason,
    ) -> Result<(), vizier_store::StoreError> {
        let ended = (
            GameResult::NoResult.pgn(),
            reason.code(),
            self.hub.now() as i64,
        );
        self.hub
            .store
            .append(self.table.id.as_str(), &[], Some(ended))
            .await?;
        self.invite_ended = Some(reason);
        self.invite = None;
        self.version += 1;
        self.events.push(GameEvent::InviteEnded { reason });
        self.publish(true);
        Ok(())
    }

    /// `player` takes the open seat with `invite`; the acknowledgement for message `id`.
    pub(super) async fn join(
        &mut self,
        player: Option<&PlayerId>,
        invite: &str,
    ) -> Result<(), Refusal> {
        let Some(player) = player else {
            return Err(Refusal::new(
                Why::NoPlayer,
                "your browser did not send its player cookie; reload the page",
            ));
        };
        if self.game.is_some() || self.invite.as_deref() != Some(invite) {
            return Err(Refusal::new(
                Why::BadInvite,
                "this invite has already been used or is wrong",
            ));
        }
        let open = self
            .seats
            .iter()
            .position(|s| *s == Seat::Open)
            .expect("a waiting game has an open seat");
        if self.seats[1 - open].is(player) {
            return Err(Refusal::new(
                Why::OwnInvite,
                "send this link to your friend: you cannot play both sides online",
            ));
        }
        if self.table.rated
            && !self
                .hub
                .store
                .is_user(player.as_str())
                .await
                .unwrap_or(false)
        {
            return Err(Refusal::new(
                Why::RatedNeedsAccount,
                "this game is rated: sign in to play it",
            ));
        }
        // Taking the seat starts a game for the joiner: the policy counts it as theirs.
        let joiner = crate::policy::Party::new(player, self.address_of(player));
        if let Err(e) = self.hub.admit(&[joiner], false).await {
            if e.is_limit() {
                return Err(Refusal::new(Why::TooManyGames, e.to_string()));
            }
            tracing::error!(game = %self.table.id, "{e}");
            return Err(Refusal::new(Why::Storage, "could not join; try again"));
        }
        let now = self.hub.now();
        let mut seats = self.seats.clone();
        seats[open] = Seat::Player(player.clone());
        let mut game = Game::new(self.table.setup.clone(), now)
            .expect("the setup was accepted when the game was created");
        game.ask_for_proofs();
        if let Err(e) = self
            .hub
            .store
            .seat(
                self.table.id.as_str(),
                &seats[0].to_text(),
                &seats[1].to_text(),
                now as i64,
            )
            .await
        {
            tracing::error!(game = %self.table.id, "{e}");
            return Err(Refusal::new(Why::Storage, "could not join; try again"));
        }
        if let Err(e) = self.hub.store_start_ending(&self.table.id, &game).await {
            tracing::error!(game = %self.table.id, "{e}");
            return Err(Refusal::new(Why::Storage, "could not join; try again"));
        }
        self.seats = seats;
        self.invite = None;
        self.started_at = Some(now);
        self.game = Some(game);
        self.version += 1;
        self.update_gone(now);
        self.load_players().await;
        self.events.push(GameEvent::Started);
        self.publish(true);
        Ok(())
    }
}
