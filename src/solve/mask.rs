//! Candidate sets as machine words: one bit per value, generic over `u16`, `u32`, `u64`, `u128`.
//!
//! The solvers are monomorphised over [`Mask`] so a 9×9 grid works in 16-bit words and a 64×64
//! grid in 64-bit words; [`dispatch_mask!`] picks the narrowest word for an order.
//!
//! # Complexity
//! Every operation is O(1) (one or two machine instructions).

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

/// A set of values `0..BITS` in one word.
pub(crate) trait Mask:
    Copy
    + Eq
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    /// The empty set.
    const ZERO: Self;
    /// Capacity in values.
    const BITS: usize;
    /// `{i}`.
    fn bit(i: usize) -> Self;
    /// `{0, …, n−1}`.
    fn below(n: usize) -> Self;
    /// Number of values.
    fn count(self) -> u32;
    /// The smallest value (the set must not be empty).
    fn lowest(self) -> usize;
    /// The set without its smallest value.
    fn without_lowest(self) -> Self;
    /// Whether exactly one value is present.
    #[inline]
    fn is_single(self) -> bool {
        self != Self::ZERO && self.without_lowest() == Self::ZERO
    }
}

macro_rules! impl_mask {
    ($($t:ty),*) => {$(
        impl Mask for $t {
            const ZERO: Self = 0;
            const BITS: usize = <$t>::BITS as usize;
            #[inline]
            fn bit(i: usize) -> Self {
                1 << i
            }
            #[inline]
            fn below(n: usize) -> Self {
                if n >= <Self as Mask>::BITS { <$t>::MAX } else { (1 << n) - 1 }
            }
            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
        }
    )*};
}

impl_mask!(u16, u32, u64, u128);

/// The values of a mask in increasing order.
#[inline]
pub(crate) fn values<M: Mask>(mut m: M) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != M::ZERO).then(|| {
            let v = m.lowest();
            m = m.without_lowest();
            v
        })
    })
}

/// Evaluates `$body` with `$m` bound to the narrowest mask type holding `$order` values
/// (`u16` up to 16, `u32` up to 32, `u64` up to 64, else `u128`).
macro_rules! dispatch_mask {
    ($order:expr, $m:ident => $body:expr) => {{
        let order = $order;
        if order <= 16 {
            type $m = u16;
            $body
        } else if order <= 32 {
            type $m = u32;
            $body
        } else if order <= 64 {
            type $m = u64;
            $body
        } else {
            type $m = u128;
            $body
        }
    }};
}
pub(crate) use dispatch_mask;

/// The largest order a word mask holds.
pub(crate) const MAX_MASK_ORDER: usize = 128;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_agree_across_widths() {
        assert_eq!(u16::below(9), 0x1ff);
        assert_eq!(u128::below(128), u128::MAX);
        assert!(u32::bit(5).is_single());
        assert!(!(u64::bit(5) | u64::bit(63)).is_single());
        assert_eq!(
            values(u128::bit(3) | u128::bit(127)).collect::<Vec<_>>(),
            vec![3, 127]
        );
        assert_eq!((u16::bit(4) | u16::bit(9)).lowest(), 4);
    }
}
