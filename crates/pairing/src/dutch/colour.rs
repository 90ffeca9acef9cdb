//! Who gets White (C.04.3 5.2): both preferences; else the stronger (the wider difference
//! when both are absolute); else alternate from the last round the two had different
//! colours; else the higher-ranked player's preference; else the initial colour to the
//! higher-ranked player if their pairing number is odd.

use super::Context;
use crate::Colour;

/// The colour of `a` against `b`.
pub fn allocate(ctx: &Context<'_>, a: usize, b: usize) -> Colour {
    let (pa, pb) = (&ctx.profiles[a], &ctx.profiles[b]);
    if let Some(c) = by_preferences(ctx, a, b) {
        return c;
    }
    let field = ctx.field;
    let a_higher = (ctx.score(a), core::cmp::Reverse(field.players[a].rank))
        > (ctx.score(b), core::cmp::Reverse(field.players[b].rank));
    let (higher, hp) = if a_higher { (a, pa) } else { (b, pb) };
    let higher_colour = match hp.preference {
        Some(c) => c,
        None => {
            // Ranks count from 0: an even index is an odd pairing number.
            if field.players[higher].rank.is_multiple_of(2) {
                field.initial_colour
            } else {
                field.initial_colour.flip()
            }
        }
    };
    if a_higher {
        higher_colour
    } else {
        higher_colour.flip()
    }
}

/// The colour of `a` by 5.2.1–5.2.3, when those decide.
fn by_preferences(ctx: &Context<'_>, a: usize, b: usize) -> Option<Colour> {
    let (pa, pb) = (&ctx.profiles[a], &ctx.profiles[b]);
    if pa.preference != pb.preference || pa.preference.is_none() || pb.preference.is_none() {
        return match (pa.preference, pb.preference) {
            (Some(c), _) => Some(c),
            (None, Some(c)) => Some(c.flip()),
            (None, None) => None,
        };
    }
    if pa.absolute() && (pa.imbalance > pb.imbalance || !pb.absolute()) {
        return pa.preference;
    }
    if pb.absolute() && (pb.imbalance > pa.imbalance || !pa.absolute()) {
        return pb.preference.map(Colour::flip);
    }
    if pa.strong && !pb.strong {
        return pa.preference;
    }
    if pb.strong && !pa.strong {
        return pb.preference.map(Colour::flip);
    }
    // The latest round, counting back over played games, where their colours differed.
    let colours = |i: usize| -> Vec<Colour> {
        ctx.field.players[i]
            .matches
            .iter()
            .rev()
            .filter(|m| m.played)
            .filter_map(|m| m.colour)
            .collect()
    };
    let (ca, cb) = (colours(a), colours(b));
    ca.iter()
        .zip(&cb)
        .find(|(x, y)| x != y)
        .map(|(_, &theirs)| theirs)
}
