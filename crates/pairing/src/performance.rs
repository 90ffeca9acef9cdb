//! The FIDE rating tables (B.02, 8.1.1 and 8.1.2) and the performance figures built on
//! them: average rating of opponents, tournament performance rating, perfect performance.
//! Scores are in hundredths of a point (a win is 100), as the tables count percentages.

/// Rating differences up to which the stronger player's expected score is 50 %, 51 %, …,
/// 99 % (8.1.2); beyond the last bound it is 100 %.
const PD_BOUNDS: [u32; 50] = [
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68, 76, 83, 91, 98, 106, 113, 121, 129, 137, 145, 153, 162,
    170, 179, 188, 197, 206, 215, 225, 235, 245, 256, 267, 278, 290, 302, 315, 328, 344, 357, 374,
    391, 411, 432, 456, 484, 517, 559, 619, 735,
];

/// The rating difference for a percentage score of 50 % … 100 % (8.1.1); below 50 % it is
/// the same difference, negative.
const DP: [i32; 51] = [
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158,
    166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366,
    383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
];

/// The rating difference `dp` for a score of `percent` (0–100) of the maximum.
///
/// ```
/// use vizier_pairing::performance::dp;
/// assert_eq!(dp(100), 800);
/// assert_eq!(dp(75), 193);
/// assert_eq!(dp(25), -193);
/// ```
pub fn dp(percent: u32) -> i32 {
    let p = percent.min(100) as usize;
    if p >= 50 { DP[p - 50] } else { -DP[50 - p] }
}

/// The expected score, in percent, of a player rated `rating` against `opponent`.
///
/// ```
/// use vizier_pairing::performance::expected;
/// assert_eq!(expected(1800, 1800), 50);
/// assert_eq!(expected(2000, 1800), 76);
/// assert_eq!(expected(1800, 2000), 24);
/// ```
pub fn expected(rating: i32, opponent: i32) -> i32 {
    let difference = rating.abs_diff(opponent);
    let stronger = 50 + PD_BOUNDS.iter().take_while(|&&b| b < difference).count() as i32;
    if rating >= opponent {
        stronger
    } else {
        100 - stronger
    }
}

/// Rounds `num / den` (both non-negative, `den > 0`) half up.
pub(crate) fn round_half_up(num: i64, den: i64) -> i64 {
    (2 * num + den).div_euclid(2 * den)
}

/// The average of the opponents' ratings, rounded half up (`None` without opponents).
pub fn average_rating(ratings: &[u32]) -> Option<i32> {
    if ratings.is_empty() {
        return None;
    }
    let sum: i64 = ratings.iter().map(|&r| r as i64).sum();
    Some(round_half_up(sum, ratings.len() as i64) as i32)
}

/// The tournament performance rating: the average rating of the opponents plus `dp` of the
/// percentage scored, rounded to a whole percent (half up).
///
/// ```
/// use vizier_pairing::performance::performance;
/// // 2 of 3 (67 %) against an average of 2000: 2000 + 125.
/// assert_eq!(performance(200, &[1900, 2000, 2100]), Some(2125));
/// ```
pub fn performance(score: u32, ratings: &[u32]) -> Option<i32> {
    let average = average_rating(ratings)?;
    let percent = round_half_up(score as i64, ratings.len() as i64);
    Some(average + dp(percent as u32))
}

/// The perfect tournament performance: the lowest rating whose expected score against the
/// opponents is at least the score made (800 below the weakest opponent for no points).
///
/// ```
/// use vizier_pairing::performance::perfect_performance;
/// assert_eq!(perfect_performance(0, &[1900, 2000]), Some(1100));
/// // An even score against 2000s: 3 points lower still expects 50 % (the 0–3 band).
/// assert_eq!(perfect_performance(100, &[2000, 2000]), Some(1997));
/// ```
pub fn perfect_performance(score: u32, ratings: &[u32]) -> Option<i32> {
    let lowest = *ratings.iter().min()? as i32;
    let highest = *ratings.iter().max()? as i32;
    if score == 0 {
        return Some(lowest - 800);
    }
    let total = |rating: i32| -> u32 {
        ratings
            .iter()
            .map(|&r| expected(rating, r as i32) as u32)
            .sum()
    };
    if score > 100 * ratings.len() as u32 {
        return Some(highest + 800);
    }
    // `low` falls short of the score, `high` reaches it.
    let (mut low, mut high) = (lowest - 800, highest + 800);
    while high - low > 1 {
        let mid = low + (high - low) / 2;
        if total(mid) >= score {
            high = mid;
        } else {
            low = mid;
        }
    }
    Some(high)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_symmetric_and_monotone() {
        for p in 0..=100 {
            assert_eq!(dp(p), -dp(100 - p));
            if p > 0 {
                assert!(dp(p) > dp(p - 1));
            }
        }
        for d in 0..900 {
            assert_eq!(expected(2000 + d, 2000) + expected(2000, 2000 + d), 100);
        }
        // The table's bands (8.1.2), at their edges.
        assert_eq!(expected(2003, 2000), 50);
        assert_eq!(expected(2004, 2000), 51);
        assert_eq!(expected(2735, 2000), 99);
        assert_eq!(expected(2736, 2000), 100);
        assert_eq!(expected(2106, 2000), 64);
        assert_eq!(expected(2107, 2000), 65);
    }

    #[test]
    fn performance_figures() {
        assert_eq!(average_rating(&[2000, 2001]), Some(2001));
        assert_eq!(average_rating(&[]), None);
        assert_eq!(performance(100, &[2000, 2000]), Some(2000));
        assert_eq!(performance(0, &[2000]), Some(1200));
        // A perfect performance meets the score, a point lower does not.
        let opponents = [2150, 1980, 2310, 2045];
        let ptp = perfect_performance(250, &opponents).unwrap();
        let sum = |r: i32| {
            opponents
                .iter()
                .map(|&o| expected(r, o as i32))
                .sum::<i32>()
        };
        assert!(sum(ptp) >= 250 && sum(ptp - 1) < 250);
        assert_eq!(perfect_performance(400, &[2000; 4]), Some(2736));
    }
}
