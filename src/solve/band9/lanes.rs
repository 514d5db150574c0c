//! The vector type of the 9×9 engine ([`Lanes`]): eight 32-bit lanes holding the band words of
//! two values, and its portable implementation on plain arrays ([`Portable`]). The x86-64
//! implementations (SSE2, AVX2) are in [`super::simd`]; the engine is generic over [`Lanes`]
//! and compiled once per implementation.
//!
//! Lanes 0–2 hold bands 0–2 of the first value, lanes 4–6 those of the second; lanes 3 and 7
//! are padding and stay zero. Every operation acts lane by lane, except the band rotations
//! ([`Lanes::rot1`], [`Lanes::rot2`]), which move words between the bands of one value, and
//! [`Lanes::swap_values`], which exchanges the two values.
//!
//! An implementation may need a CPU feature that the build's target does not guarantee: making
//! a first vector ([`Lanes::load`]) then takes a proof that the CPU has it ([`Lanes::Token`]),
//! and a vector is itself that proof, so the operations on vectors (and [`Lanes::splat`], a
//! method for that reason) need none.

/// Eight 32-bit lanes: two values × (three bands and a pad lane). See the module docs.
pub(super) trait Lanes: Copy {
    /// The proof that this CPU runs the implementation (see the module docs); `()` where every
    /// CPU of the target does.
    type Token: Copy;
    /// The lanes of `a`.
    fn load(cpu: Self::Token, a: &[u32; 8]) -> Self;
    /// Writes the lanes to `a`.
    fn store(self, a: &mut [u32; 8]);
    /// Every lane `x` (`self`'s lanes are not read: it is the proof).
    fn splat(self, x: u32) -> Self;
    /// `self & o`.
    fn and(self, o: Self) -> Self;
    /// `self | o`.
    fn or(self, o: Self) -> Self;
    /// `self ^ o`.
    fn xor(self, o: Self) -> Self;
    /// `self & !o`.
    fn andnot(self, o: Self) -> Self;
    /// Lane-wise wrapping addition.
    fn add(self, o: Self) -> Self;
    /// Lane-wise wrapping subtraction.
    fn sub(self, o: Self) -> Self;
    /// Lane-wise logical shift right by `N`.
    fn shr<const N: i32>(self) -> Self;
    /// Lane-wise shift left by `N`.
    fn shl<const N: i32>(self) -> Self;
    /// Band lane `b` of each value takes band lane `b + 1` (mod 3); pad lanes stay.
    fn rot1(self) -> Self;
    /// Band lane `b` of each value takes band lane `b + 2` (mod 3); pad lanes stay.
    fn rot2(self) -> Self;
    /// The two values' halves exchanged.
    fn swap_values(self) -> Self;
    /// Whether every lane is zero.
    fn is_zero(self) -> bool;
    /// Bit `l` set when lane `l` differs from `o`'s lane `l`.
    fn ne_mask(self, o: Self) -> u32;
}

/// The portable implementation: plain arrays (the compiler vectorizes part of it). It serves
/// targets other than x86-64, and the tests compare it with the vector implementations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Portable([u32; 8]);

impl Portable {
    #[inline(always)]
    fn map(self, f: impl Fn(u32) -> u32) -> Portable {
        let a = self.0;
        Portable([
            f(a[0]),
            f(a[1]),
            f(a[2]),
            f(a[3]),
            f(a[4]),
            f(a[5]),
            f(a[6]),
            f(a[7]),
        ])
    }

    #[inline(always)]
    fn zip(self, o: Portable, f: impl Fn(u32, u32) -> u32) -> Portable {
        let (a, b) = (self.0, o.0);
        Portable([
            f(a[0], b[0]),
            f(a[1], b[1]),
            f(a[2], b[2]),
            f(a[3], b[3]),
            f(a[4], b[4]),
            f(a[5], b[5]),
            f(a[6], b[6]),
            f(a[7], b[7]),
        ])
    }

    #[inline(always)]
    fn permute(self, p: [usize; 8]) -> Portable {
        let a = self.0;
        Portable([
            a[p[0]], a[p[1]], a[p[2]], a[p[3]], a[p[4]], a[p[5]], a[p[6]], a[p[7]],
        ])
    }
}

impl Lanes for Portable {
    /// None needed: plain arrays run everywhere.
    type Token = ();

    #[inline(always)]
    fn load(_: (), a: &[u32; 8]) -> Portable {
        Portable(*a)
    }

    #[inline(always)]
    fn store(self, a: &mut [u32; 8]) {
        *a = self.0;
    }

    #[inline(always)]
    fn splat(self, x: u32) -> Portable {
        Portable([x; 8])
    }

    #[inline(always)]
    fn and(self, o: Portable) -> Portable {
        self.zip(o, |a, b| a & b)
    }

    #[inline(always)]
    fn or(self, o: Portable) -> Portable {
        self.zip(o, |a, b| a | b)
    }

    #[inline(always)]
    fn xor(self, o: Portable) -> Portable {
        self.zip(o, |a, b| a ^ b)
    }

    #[inline(always)]
    fn andnot(self, o: Portable) -> Portable {
        self.zip(o, |a, b| a & !b)
    }

    #[inline(always)]
    fn add(self, o: Portable) -> Portable {
        self.zip(o, u32::wrapping_add)
    }

    #[inline(always)]
    fn sub(self, o: Portable) -> Portable {
        self.zip(o, u32::wrapping_sub)
    }

    #[inline(always)]
    fn shr<const N: i32>(self) -> Portable {
        self.map(|a| a >> N)
    }

    #[inline(always)]
    fn shl<const N: i32>(self) -> Portable {
        self.map(|a| a << N)
    }

    #[inline(always)]
    fn rot1(self) -> Portable {
        self.permute([1, 2, 0, 3, 5, 6, 4, 7])
    }

    #[inline(always)]
    fn rot2(self) -> Portable {
        self.permute([2, 0, 1, 3, 6, 4, 5, 7])
    }

    #[inline(always)]
    fn swap_values(self) -> Portable {
        self.permute([4, 5, 6, 7, 0, 1, 2, 3])
    }

    #[inline(always)]
    fn is_zero(self) -> bool {
        self.0.iter().all(|&x| x == 0)
    }

    #[inline(always)]
    fn ne_mask(self, o: Portable) -> u32 {
        let mut m = 0;
        for i in 0..8 {
            m |= u32::from(self.0[i] != o.0[i]) << i;
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotations_stay_within_a_value() {
        let x = Portable([1, 2, 3, 0, 4, 5, 6, 0]);
        assert_eq!(x.rot1(), Portable([2, 3, 1, 0, 5, 6, 4, 0]));
        assert_eq!(x.rot2(), Portable([3, 1, 2, 0, 6, 4, 5, 0]));
        assert_eq!(x.rot1().rot2(), x);
        assert_eq!(x.swap_values(), Portable([4, 5, 6, 0, 1, 2, 3, 0]));
        assert_eq!(x.ne_mask(x.rot1()), 0b0111_0111);
        assert!(x.xor(x).is_zero());
        assert_eq!(x.shl::<2>().shr::<1>(), x.add(x));
        assert_eq!(
            x.andnot(x.splat(1)).sub(x),
            Portable([!0, 0, !0, 0, 0, !0, 0, 0])
        );
    }
}
