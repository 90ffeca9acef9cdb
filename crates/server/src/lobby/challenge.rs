//! Challenges: one account invites another by name to a game (time control, colour, rated),
//! the other accepts or declines with a reason, as on lichess. A challenge is shared live
//! state of the lobby, told to both players' lobby sockets as it changes.

use vizier_arbiter::TimeControl;
use vizier_play::ids::PlayerId;

use super::Lobby;
use super::model::{
    Challenge, ChallengeClock, ChallengeRequest, ChallengeUser, DECLINE_REASONS, LobbyError,
    Member, Variant,
};
use super::state::{ChallengeRole, Personal};
use vizier_play::policy::Party;
use vizier_rating::Class;

/// Open challenges one player may have sent.
const OUTGOING: usize = 10;
impl Lobby {
    async fn user_of(&self, member: &Member, control: &TimeControl) -> Option<ChallengeUser> {
        let name = member.name.clone()?;
        let (rating, provisional) = self.rating(member, control).await;
        let title = match self.hub.store.user(member.player.as_str()).await {
            Ok(user) => user.and_then(|u| u.title),
            Err(e) => {
                tracing::warn!("a challenger's title: {e}");
                None
            }
        };
        Some(ChallengeUser {
            id: name.to_lowercase(),
            name,
            rating,
            provisional,
            title,
            player: member.player.clone(),
        })
    }

    /// `from` challenges the account `to` (its player id and name).
    pub async fn challenge(
        &self,
        from: &Member,
        to: &Member,
        req: ChallengeRequest,
    ) -> Result<Challenge, LobbyError> {
        let control = Lobby::control(&match req.days {
            Some(days) => format!("1/{}", u64::from(days) * 86_400),
            None if req.increment > 0 => format!("{}+{}", req.limit, req.increment),
            None => req.limit.to_string(),
        })?;
        if let Some(fen) = &req.fen {
            if req.rated || req.chess960 {
                return Err(LobbyError::Challenge(
                    "a game from a position is neither rated nor Chess960",
                ));
            }
            vizier_rules::Position::from_fen(fen)
                .map_err(|_| LobbyError::Challenge("the FEN is not a legal position"))?;
        }
        if from.player == to.player {
            return Err(LobbyError::Challenge("you cannot challenge yourself"));
        }
        let (Some(challenger), Some(dest_user)) = (
            self.user_of(from, &control).await,
            self.user_of(to, &control).await,
        ) else {
            return Err(LobbyError::RatedNeedsAccount);
        };
        let challenge = Challenge {
            id: vizier_play::ids::random_token(8),
            status: "created".into(),
            challenger,
            dest_user,
            variant: Variant {
                key: match (&req.fen, req.chess960) {
                    (Some(_), _) => "fromPosition",
                    (None, true) => "chess960",
                    (None, false) => "standard",
                },
            },
            rated: req.rated,
            speed: Class::of_control(&control)
                .map_or("unlimited", |c| c.key())
                .into(),
            time_control: match req.days {
                Some(days) => ChallengeClock {
                    kind: "correspondence",
                    limit: None,
                    increment: None,
                    days_per_turn: Some(days),
                    show: format!("{days}d"),
                },
                None => ChallengeClock {
                    kind: "clock",
                    limit: Some(req.limit),
                    increment: Some(req.increment),
                    days_per_turn: None,
                    show: super::tc_label(&control.to_pgn()),
                },
            },
            color: match req.color.as_str() {
                "white" | "black" => req.color.clone(),
                _ => "random".into(),
            },
            final_color: match super::colour(&req.color) {
                vizier_rules::Color::White => "white",
                vizier_rules::Color::Black => "black",
            },
            initial_fen: req.fen.clone(),
            decline_reason: None,
            game: None,
            created_at: self.hub.now(),
            control: control.to_pgn(),
            chess960: req.chess960,
            address: from.address.clone(),
        };
        self.shared
            .add_challenge(challenge.clone(), OUTGOING)
            .await?;
        let event = Personal::Challenge(Box::new(challenge.clone()));
        self.tell(&to.player, &event).await;
        self.tell(&from.player, &event).await;
        Ok(challenge)
    }

    /// The open challenges to and from `player`.
    pub async fn challenges_of(&self, player: &PlayerId) -> (Vec<Challenge>, Vec<Challenge>) {
        self.shared.challenges_of(player).await
    }

    async fn take_challenge(
        &self,
        id: &str,
        player: &PlayerId,
        side: ChallengeRole,
    ) -> Result<Challenge, LobbyError> {
        (self.shared.take_challenge(id, player, side).await)
            .ok_or(LobbyError::Challenge("no such challenge"))
    }

    /// The challenged player accepts: the game is created and both are told; the challenge
    /// as accepted, with its game.
    pub async fn accept_challenge(&self, by: &Member, id: &str) -> Result<Challenge, LobbyError> {
        let c = (self.take_challenge(id, &by.player, ChallengeRole::Challenged)).await?;
        let control = Lobby::control(&c.control)?;
        let color = super::colour(c.final_color);
        let challenger = Party::new(&c.challenger.player, c.address.as_deref());
        let mut setup = vizier_play::hub::online_setup(control, c.chess960, false);
        if let Some(fen) = &c.initial_fen {
            setup.start = vizier_arbiter::StartPosition::Fen(fen.clone());
        }
        let game = self
            .start(challenger, by.party(), color, setup, c.rated)
            .await?;
        let accepted = Challenge {
            status: "accepted".into(),
            game: Some(game.clone()),
            ..c
        };
        let event = Personal::Challenge(Box::new(accepted.clone()));
        self.tell(&accepted.challenger.player, &event).await;
        self.tell(&accepted.dest_user.player, &event).await;
        Ok(accepted)
    }

    /// The challenged player declines, with one of [`DECLINE_REASONS`].
    pub async fn decline_challenge(
        &self,
        by: &Member,
        id: &str,
        reason: &str,
    ) -> Result<(), LobbyError> {
        let reason = DECLINE_REASONS
            .iter()
            .find(|r| r.eq_ignore_ascii_case(reason))
            .unwrap_or(&"generic");
        let c = (self.take_challenge(id, &by.player, ChallengeRole::Challenged)).await?;
        let declined = Challenge {
            status: "declined".into(),
            decline_reason: Some((*reason).to_string()),
            ..c
        };
        let event = Personal::Challenge(Box::new(declined.clone()));
        self.tell(&declined.challenger.player, &event).await;
        self.tell(&declined.dest_user.player, &event).await;
        Ok(())
    }

    /// The challenger withdraws.
    pub async fn cancel_challenge(&self, by: &Member, id: &str) -> Result<(), LobbyError> {
        let c = (self.take_challenge(id, &by.player, ChallengeRole::Challenger)).await?;
        let canceled = Challenge {
            status: "canceled".into(),
            ..c
        };
        let event = Personal::Challenge(Box::new(canceled.clone()));
        self.tell(&canceled.challenger.player, &event).await;
        self.tell(&canceled.dest_user.player, &event).await;
        Ok(())
    }
}
