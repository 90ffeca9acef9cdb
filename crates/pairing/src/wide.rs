//! Unsigned integers of a fixed number of 64-bit limbs: the edge weights of the Dutch
//! system's matchings, where each pairing criterion owns a field of bits and a tournament
//! of a few hundred players needs several hundred bits.

use core::cmp::Ordering;
use core::fmt;

/// What the weighted matching needs of a weight: wrapping arithmetic, halving and order.
pub trait Weight: Copy + Ord + fmt::Debug {
    /// How many bits the type holds.
    const BITS: u32;
    fn zero() -> Self;
    fn from_u64(value: u64) -> Self;
    fn wrapping_add(self, other: Self) -> Self;
    fn wrapping_sub(self, other: Self) -> Self;
    /// Shifts left by `bits`, dropping what leaves the top.
    fn shl(self, bits: u32) -> Self;
    /// Halves, rounding down.
    fn half(self) -> Self;
    fn is_zero(&self) -> bool;
    /// `1 << bit`.
    fn bit(bit: u32) -> Self {
        Self::from_u64(1).shl(bit)
    }
    /// `2^bits - 1`.
    fn ones(bits: u32) -> Self {
        Self::bit(bits).wrapping_sub(Self::from_u64(1))
    }
}

/// An unsigned integer of `N` little-endian 64-bit limbs.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Wide<const N: usize>([u64; N]);

impl<const N: usize> Ord for Wide<N> {
    fn cmp(&self, other: &Self) -> Ordering {
        for i in (0..N).rev() {
            match self.0[i].cmp(&other.0[i]) {
                Ordering::Equal => {}
                unequal => return unequal,
            }
        }
        Ordering::Equal
    }
}

impl<const N: usize> PartialOrd for Wide<N> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const N: usize> fmt::Debug for Wide<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "0x")?;
        let top = (0..N).rev().find(|&i| self.0[i] != 0).unwrap_or(0);
        write!(f, "{:x}", self.0[top])?;
        for i in (0..top).rev() {
            write!(f, "_{:016x}", self.0[i])?;
        }
        Ok(())
    }
}

impl<const N: usize> Weight for Wide<N> {
    const BITS: u32 = 64 * N as u32;

    fn zero() -> Self {
        Wide([0; N])
    }

    fn from_u64(value: u64) -> Self {
        let mut limbs = [0; N];
        limbs[0] = value;
        Wide(limbs)
    }

    fn wrapping_add(self, other: Self) -> Self {
        let mut out = [0; N];
        let mut carry = false;
        for (i, limb) in out.iter_mut().enumerate() {
            let (sum, c1) = self.0[i].overflowing_add(other.0[i]);
            let (sum, c2) = sum.overflowing_add(u64::from(carry));
            *limb = sum;
            carry = c1 || c2;
        }
        Wide(out)
    }

    fn wrapping_sub(self, other: Self) -> Self {
        let mut out = [0; N];
        let mut borrow = false;
        for (i, limb) in out.iter_mut().enumerate() {
            let (diff, b1) = self.0[i].overflowing_sub(other.0[i]);
            let (diff, b2) = diff.overflowing_sub(u64::from(borrow));
            *limb = diff;
            borrow = b1 || b2;
        }
        Wide(out)
    }

    fn shl(self, bits: u32) -> Self {
        let limbs = (bits / 64) as usize;
        let rest = bits % 64;
        let mut out = [0; N];
        for i in (limbs..N).rev() {
            let low = self.0[i - limbs];
            out[i] = low << rest;
            if rest > 0 && i > limbs {
                out[i] |= self.0[i - limbs - 1] >> (64 - rest);
            }
        }
        Wide(out)
    }

    fn half(self) -> Self {
        let mut out = [0; N];
        for (i, limb) in out.iter_mut().enumerate() {
            *limb = self.0[i] >> 1;
            if let Some(next) = self.0.get(i + 1) {
                *limb |= next << 63;
            }
        }
        Wide(out)
    }

    fn is_zero(&self) -> bool {
        self.0.iter().all(|&limb| limb == 0)
    }
}

/// Work generic over the weight type, to be run with the narrowest type that holds it.
pub trait WithWeight {
    type Output;
    fn run<W: Weight>(self) -> Self::Output;
}

/// Runs `task` with the narrowest weight type of at least `bits` bits; `None` beyond 4,096.
pub fn with_bits<T: WithWeight>(bits: u32, task: T) -> Option<T::Output> {
    Some(match bits.div_ceil(64) {
        0..=1 => task.run::<u64>(),
        2 => task.run::<Wide<2>>(),
        3 => task.run::<Wide<3>>(),
        4 => task.run::<Wide<4>>(),
        5 => task.run::<Wide<5>>(),
        6 => task.run::<Wide<6>>(),
        7 => task.run::<Wide<7>>(),
        8 => task.run::<Wide<8>>(),
        9 => task.run::<Wide<9>>(),
        10 => task.run::<Wide<10>>(),
        11 => task.run::<Wide<11>>(),
        12 => task.run::<Wide<12>>(),
        13 => task.run::<Wide<13>>(),
        14 => task.run::<Wide<14>>(),
        15 => task.run::<Wide<15>>(),
        16 => task.run::<Wide<16>>(),
        17..=24 => task.run::<Wide<24>>(),
        25..=32 => task.run::<Wide<32>>(),
        33..=64 => task.run::<Wide<64>>(),
        _ => return None,
    })
}

impl Weight for u64 {
    const BITS: u32 = 64;
    fn zero() -> Self {
        0
    }
    fn from_u64(value: u64) -> Self {
        value
    }
    fn wrapping_add(self, other: Self) -> Self {
        u64::wrapping_add(self, other)
    }
    fn wrapping_sub(self, other: Self) -> Self {
        u64::wrapping_sub(self, other)
    }
    fn shl(self, bits: u32) -> Self {
        self.checked_shl(bits).unwrap_or(0)
    }
    fn half(self) -> Self {
        self >> 1
    }
    fn is_zero(&self) -> bool {
        *self == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_carries_across_limbs() {
        let big = Wide::<3>::ones(100);
        let one = Wide::<3>::from_u64(1);
        assert_eq!(big.wrapping_add(one), Wide::<3>::bit(100));
        assert_eq!(Wide::<3>::bit(100).wrapping_sub(one), big);
        assert_eq!(Wide::<3>::bit(130).half(), Wide::<3>::bit(129));
        assert_eq!(Wide::<3>::from_u64(5).shl(64), Wide([0, 5, 0]));
        assert_eq!(Wide::<3>::from_u64(3).shl(63), Wide([1 << 63, 1, 0]));
        assert!(Wide::<3>::bit(64) > Wide::<3>::ones(64));
        let minus_two = Wide::<3>::zero().wrapping_sub(Wide::from_u64(2));
        assert_eq!(
            Wide::<3>::bit(70).wrapping_add(minus_two),
            Wide::<3>::bit(70).wrapping_sub(Wide::from_u64(2))
        );
    }
}
