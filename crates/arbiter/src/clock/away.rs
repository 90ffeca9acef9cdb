//! Correspondence vacations: spans of time during which a side's clock does not run. A move
//! begun before or during a vacation is charged only the time outside it.

use crate::Millis;

/// Each side's vacations, `(from, until)`, in time order and not overlapping.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Away {
    spans: [Vec<(Millis, Millis)>; 2],
}

impl Away {
    /// Side `i` is away from `from` until `until`. A vacation still running at `from` ends
    /// there; `until <= from` only ends it.
    pub fn set(&mut self, i: usize, from: Millis, until: Millis) {
        let spans = &mut self.spans[i];
        spans.retain(|&(f, _)| f < from);
        if let Some(last) = spans.last_mut() {
            last.1 = last.1.min(from);
        }
        if until > from {
            spans.push((from, until));
        }
    }

    /// The vacation side `i` is on at `now`, if any: until when.
    pub fn until(&self, i: usize, now: Millis) -> Option<Millis> {
        (self.spans[i].iter())
            .find(|&&(f, u)| f <= now && now < u)
            .map(|&(_, u)| u)
    }

    /// The time side `i` is charged between `since` and `now`: all of it but the vacations.
    pub fn used(&self, i: usize, since: Millis, now: Millis) -> Millis {
        let away: Millis = (self.spans[i].iter())
            .map(|&(f, u)| u.min(now).saturating_sub(f.max(since)))
            .sum();
        now.saturating_sub(since).saturating_sub(away)
    }

    /// When side `i`, its clock started at `since` with `budget` to spend, runs out.
    pub fn runs_out(&self, i: usize, since: Millis, budget: Millis) -> Millis {
        let mut at = since;
        let mut left = budget;
        for &(f, u) in &self.spans[i] {
            if u <= at {
                continue;
            }
            if f > at {
                if at + left <= f {
                    return at + left;
                }
                left -= f - at;
            }
            at = u;
        }
        at + left
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: Millis = 86_400_000;

    #[test]
    fn time_on_vacation_is_not_charged() {
        let mut a = Away::default();
        a.set(0, 2 * DAY, 5 * DAY);
        // A move begun on day 1: days 2 to 5 are not charged.
        assert_eq!(a.used(0, DAY, 6 * DAY), 2 * DAY);
        assert_eq!(a.used(0, DAY, 3 * DAY), DAY);
        // Begun during the vacation: nothing until it ends.
        assert_eq!(a.used(0, 3 * DAY, 4 * DAY), 0);
        assert_eq!(a.used(0, 3 * DAY, 6 * DAY), DAY);
        // The other side's clock is not stopped.
        assert_eq!(a.used(1, DAY, 6 * DAY), 5 * DAY);
    }

    #[test]
    fn the_clock_runs_out_later_by_the_vacation() {
        let mut a = Away::default();
        a.set(0, 2 * DAY, 5 * DAY);
        // Three days from day 1: one before the vacation, two after it.
        assert_eq!(a.runs_out(0, DAY, 3 * DAY), 7 * DAY);
        // Half a day from day 1: out before the vacation begins.
        assert_eq!(a.runs_out(0, DAY, DAY / 2), DAY + DAY / 2);
        // Begun on day 3: the days start when the vacation ends.
        assert_eq!(a.runs_out(0, 3 * DAY, 3 * DAY), 8 * DAY);
        assert_eq!(a.runs_out(1, DAY, 3 * DAY), 4 * DAY);
    }

    #[test]
    fn a_vacation_ended_early_stops_at_that_time() {
        let mut a = Away::default();
        a.set(0, 2 * DAY, 9 * DAY);
        assert_eq!(a.until(0, 3 * DAY), Some(9 * DAY));
        a.set(0, 4 * DAY, 4 * DAY);
        assert_eq!(a.until(0, 4 * DAY), None);
        assert_eq!(a.used(0, DAY, 6 * DAY), 3 * DAY);
        // A second vacation later.
        a.set(0, 7 * DAY, 8 * DAY);
        assert_eq!(a.used(0, DAY, 10 * DAY), 6 * DAY);
    }
}
