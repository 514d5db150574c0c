//! The x86-64 vector implementations of [`Lanes`] and the choice among the implementations at
//! run time. This is the one module of the crate allowed `unsafe` (see the crate docs): SIMD
//! intrinsics are `unsafe` to call from code not compiled for their CPU feature, the unaligned
//! loads and stores go through pointers, and the engine compiled for AVX2 is `unsafe` to call.
//!
//! - [`Sse2`]: two 128-bit registers. SSE2 is part of every x86-64 target (a build without it
//!   stops at the assertion below), so its [`Lanes::Token`] is `()`.
//! - [`Avx2`]: one 256-bit register, used when the CPU reports AVX2 (and BMI1, LZCNT, POPCNT,
//!   which the scalar part of the engine then uses too); the engine is compiled a second time
//!   inside [`count_avx2`], a function with those features enabled, and every engine function
//!   is `#[inline(always)]` so that all of it is compiled with them.
//! - [`Portable`]: the plain-array implementation, for every other target and for the tests.
//!
//! # Soundness by construction
//! An AVX2 instruction is reachable only with an [`Avx2Token`], a proof that the CPU has the
//! features: its field is private to this module and only [`Avx2Token::detect`] makes one,
//! after the CPU reported them. Making a first [`Avx2`] vector ([`Lanes::load`]) takes a
//! token, every vector holds it, and every operation makes its result from a vector, so safe
//! code holding an [`Avx2`] has had the CPU checked; [`count_avx2`] takes a token too, and
//! [`SimdLevel::Avx2`] carries the one that [`levels`] got from the detection. The `unsafe`
//! blocks of [`Avx2`] rest on that type-level fact, not on where they are called from.
//! (`#[target_feature]` cannot mark the methods of a safe trait such as [`Lanes`], nor combine
//! with `#[inline(always)]` on stable Rust, so the methods themselves cannot carry the feature.)
//!
//! [`level`] picks the best implementation the CPU has, once per process. The environment
//! variable `SUDOKIT_SIMD` (`portable`, `sse2` or `avx2`) caps it, to measure what the vector
//! code gains; a level the CPU lacks falls back to the best one below it.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;
use std::sync::OnceLock;

use super::lanes::{Lanes, Portable};
use crate::grid::Grid;
use crate::search::{Budget, CountReport};

// Every x86-64 target has SSE2 (its ABI passes floats in SSE registers): the SSE2 intrinsics
// below need no run-time check, and this makes sure of it at compile time.
#[cfg(target_arch = "x86_64")]
const _: () = assert!(cfg!(target_feature = "sse2"), "x86-64 without SSE2");

/// An implementation of [`Lanes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum SimdLevel {
    /// Plain arrays.
    Portable,
    /// SSE2, 128-bit (every x86-64 CPU).
    #[cfg(target_arch = "x86_64")]
    Sse2,
    /// AVX2, 256-bit, with BMI1, LZCNT and POPCNT; with the proof that the CPU has them.
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2Token),
}

/// The proof that the CPU has AVX2, BMI1, LZCNT and POPCNT, the features [`count_avx2`]
/// enables. The field is private: only [`Avx2Token::detect`] makes one (see the module docs).
#[cfg(target_arch = "x86_64")]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Avx2Token(());

#[cfg(target_arch = "x86_64")]
impl Avx2Token {
    /// A token if the CPU reports every feature [`count_avx2`] enables (the standard library
    /// caches the answer).
    pub(super) fn detect() -> Option<Avx2Token> {
        let has = is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("lzcnt")
            && is_x86_feature_detected!("popcnt");
        has.then_some(Avx2Token(()))
    }
}

/// Every implementation this CPU can run, the portable one first.
pub(super) fn levels() -> Vec<SimdLevel> {
    let mut all = vec![SimdLevel::Portable];
    #[cfg(target_arch = "x86_64")]
    {
        all.push(SimdLevel::Sse2);
        if let Some(cpu) = Avx2Token::detect() {
            all.push(SimdLevel::Avx2(cpu));
        }
    }
    all
}

/// The implementation to run: the best this CPU has, capped by `SUDOKIT_SIMD` (see the module
/// docs). Decided once per process.
pub(super) fn level() -> SimdLevel {
    static LEVEL: OnceLock<SimdLevel> = OnceLock::new();
    *LEVEL.get_or_init(|| {
        let available = levels();
        let cap = std::env::var("SUDOKIT_SIMD").ok();
        available
            .iter()
            .rev()
            .copied()
            .find(|l| match cap.as_deref() {
                Some("portable") => *l == SimdLevel::Portable,
                #[cfg(target_arch = "x86_64")]
                Some("sse2") => *l <= SimdLevel::Sse2,
                _ => true,
            })
            .unwrap_or(SimdLevel::Portable)
    })
}

/// Counts the solutions of `puzzle` (which must [`fit`](super::fits)) up to `limit`, keeping the
/// first two; see [`crate::solve::Solver::count`]. Runs the best vector implementation of this
/// CPU. (The dispatch is the engine's entry, so that the engine never calls back into it.)
pub(crate) fn count_best(puzzle: &Grid, limit: u64, budget: &Budget) -> CountReport {
    count(level(), puzzle, limit, budget)
}

/// [`super::search::count_with`] on the implementation `level` (one of [`levels`]: an AVX2 level holds
/// the proof that the CPU runs it).
pub(super) fn count(level: SimdLevel, puzzle: &Grid, limit: u64, budget: &Budget) -> CountReport {
    match level {
        SimdLevel::Portable => super::search::count_with::<Portable>((), puzzle, limit, budget),
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Sse2 => super::search::count_with::<Sse2>((), puzzle, limit, budget),
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Avx2(cpu) => {
            // SAFETY: the token proves that the CPU has every feature `count_avx2` enables.
            unsafe { count_avx2(cpu, puzzle, limit, budget) }
        }
    }
}

/// The engine on [`Avx2`], compiled with the features that an [`Avx2Token`] proves.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,lzcnt,popcnt")]
fn count_avx2(cpu: Avx2Token, puzzle: &Grid, limit: u64, budget: &Budget) -> CountReport {
    super::search::count_with::<Avx2>(cpu, puzzle, limit, budget)
}

/// Two SSE2 registers: values `2c` and `2c + 1` of a chunk, one per register.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(super) struct Sse2(__m128i, __m128i);

#[cfg(target_arch = "x86_64")]
macro_rules! sse2_pair {
    ($self:ident, $o:ident, $f:ident) => {
        // SAFETY: SSE2 is part of the target (asserted at the top of the module).
        unsafe { Sse2($f($self.0, $o.0), $f($self.1, $o.1)) }
    };
}

#[cfg(target_arch = "x86_64")]
impl Lanes for Sse2 {
    /// None needed: the target has SSE2.
    type Token = ();

    #[inline(always)]
    fn load(_: (), a: &[u32; 8]) -> Sse2 {
        let p = a.as_ptr().cast::<__m128i>();
        // SAFETY: SSE2 is part of the target; the two unaligned 16-byte loads read `a`'s 32
        // bytes.
        unsafe { Sse2(_mm_loadu_si128(p), _mm_loadu_si128(p.add(1))) }
    }

    #[inline(always)]
    fn store(self, a: &mut [u32; 8]) {
        let p = a.as_mut_ptr().cast::<__m128i>();
        // SAFETY: SSE2 is part of the target; the two unaligned 16-byte stores write `a`'s 32
        // bytes.
        unsafe {
            _mm_storeu_si128(p, self.0);
            _mm_storeu_si128(p.add(1), self.1);
        }
    }

    #[inline(always)]
    fn splat(self, x: u32) -> Sse2 {
        // SAFETY: SSE2 is part of the target.
        unsafe { Sse2(_mm_set1_epi32(x as i32), _mm_set1_epi32(x as i32)) }
    }

    #[inline(always)]
    fn and(self, o: Sse2) -> Sse2 {
        sse2_pair!(self, o, _mm_and_si128)
    }

    #[inline(always)]
    fn or(self, o: Sse2) -> Sse2 {
        sse2_pair!(self, o, _mm_or_si128)
    }

    #[inline(always)]
    fn xor(self, o: Sse2) -> Sse2 {
        sse2_pair!(self, o, _mm_xor_si128)
    }

    #[inline(always)]
    fn andnot(self, o: Sse2) -> Sse2 {
        // SAFETY: SSE2 is part of the target. (`_mm_andnot_si128(a, b)` is `!a & b`.)
        unsafe { Sse2(_mm_andnot_si128(o.0, self.0), _mm_andnot_si128(o.1, self.1)) }
    }

    #[inline(always)]
    fn add(self, o: Sse2) -> Sse2 {
        sse2_pair!(self, o, _mm_add_epi32)
    }

    #[inline(always)]
    fn sub(self, o: Sse2) -> Sse2 {
        sse2_pair!(self, o, _mm_sub_epi32)
    }

    #[inline(always)]
    fn shr<const N: i32>(self) -> Sse2 {
        // SAFETY: SSE2 is part of the target.
        unsafe { Sse2(_mm_srli_epi32::<N>(self.0), _mm_srli_epi32::<N>(self.1)) }
    }

    #[inline(always)]
    fn shl<const N: i32>(self) -> Sse2 {
        // SAFETY: SSE2 is part of the target.
        unsafe { Sse2(_mm_slli_epi32::<N>(self.0), _mm_slli_epi32::<N>(self.1)) }
    }

    #[inline(always)]
    fn rot1(self) -> Sse2 {
        // SAFETY: SSE2 is part of the target. 0xc9 picks lanes 1, 2, 0, 3.
        unsafe {
            Sse2(
                _mm_shuffle_epi32::<0xc9>(self.0),
                _mm_shuffle_epi32::<0xc9>(self.1),
            )
        }
    }

    #[inline(always)]
    fn rot2(self) -> Sse2 {
        // SAFETY: SSE2 is part of the target. 0xd2 picks lanes 2, 0, 1, 3.
        unsafe {
            Sse2(
                _mm_shuffle_epi32::<0xd2>(self.0),
                _mm_shuffle_epi32::<0xd2>(self.1),
            )
        }
    }

    #[inline(always)]
    fn swap_values(self) -> Sse2 {
        Sse2(self.1, self.0)
    }

    #[inline(always)]
    fn is_zero(self) -> bool {
        // SAFETY: SSE2 is part of the target.
        unsafe {
            let zero = _mm_cmpeq_epi32(_mm_or_si128(self.0, self.1), _mm_setzero_si128());
            _mm_movemask_epi8(zero) == 0xffff
        }
    }

    #[inline(always)]
    fn ne_mask(self, o: Sse2) -> u32 {
        // SAFETY: SSE2 is part of the target.
        unsafe {
            let lo = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(self.0, o.0)));
            let hi = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(self.1, o.1)));
            !((lo | hi << 4) as u32) & 0xff
        }
    }
}

/// One AVX2 register, with the proof that the CPU has AVX2 (see the module docs): only
/// [`Lanes::load`] makes one from nothing, and it takes an [`Avx2Token`].
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(super) struct Avx2(__m256i, Avx2Token);

/// An [`Avx2`] from `$e`, intrinsic calls on registers (no memory), with the token of `$self`.
#[cfg(target_arch = "x86_64")]
macro_rules! avx2 {
    ($self:ident, $e:expr) => {
        Avx2(
            // SAFETY: `$self` holds an `Avx2Token`, so the CPU has AVX2.
            unsafe { $e },
            $self.1,
        )
    };
}

#[cfg(target_arch = "x86_64")]
impl Lanes for Avx2 {
    type Token = Avx2Token;

    #[inline(always)]
    fn load(cpu: Avx2Token, a: &[u32; 8]) -> Avx2 {
        // SAFETY: the token proves AVX2; the unaligned 32-byte load reads `a`.
        Avx2(
            unsafe { _mm256_loadu_si256(a.as_ptr().cast::<__m256i>()) },
            cpu,
        )
    }

    #[inline(always)]
    fn store(self, a: &mut [u32; 8]) {
        // SAFETY: `self` holds an `Avx2Token`; the unaligned 32-byte store writes `a`.
        unsafe { _mm256_storeu_si256(a.as_mut_ptr().cast::<__m256i>(), self.0) }
    }

    #[inline(always)]
    fn splat(self, x: u32) -> Avx2 {
        avx2!(self, _mm256_set1_epi32(x as i32))
    }

    #[inline(always)]
    fn and(self, o: Avx2) -> Avx2 {
        avx2!(self, _mm256_and_si256(self.0, o.0))
    }

    #[inline(always)]
    fn or(self, o: Avx2) -> Avx2 {
        avx2!(self, _mm256_or_si256(self.0, o.0))
    }

    #[inline(always)]
    fn xor(self, o: Avx2) -> Avx2 {
        avx2!(self, _mm256_xor_si256(self.0, o.0))
    }

    #[inline(always)]
    fn andnot(self, o: Avx2) -> Avx2 {
        // `_mm256_andnot_si256(a, b)` is `!a & b`.
        avx2!(self, _mm256_andnot_si256(o.0, self.0))
    }

    #[inline(always)]
    fn add(self, o: Avx2) -> Avx2 {
        avx2!(self, _mm256_add_epi32(self.0, o.0))
    }

    #[inline(always)]
    fn sub(self, o: Avx2) -> Avx2 {
        avx2!(self, _mm256_sub_epi32(self.0, o.0))
    }

    #[inline(always)]
    fn shr<const N: i32>(self) -> Avx2 {
        avx2!(self, _mm256_srli_epi32::<N>(self.0))
    }

    #[inline(always)]
    fn shl<const N: i32>(self) -> Avx2 {
        avx2!(self, _mm256_slli_epi32::<N>(self.0))
    }

    #[inline(always)]
    fn rot1(self) -> Avx2 {
        // The shuffle acts within each 128-bit half (one value).
        avx2!(self, _mm256_shuffle_epi32::<0xc9>(self.0))
    }

    #[inline(always)]
    fn rot2(self) -> Avx2 {
        // The shuffle acts within each 128-bit half (one value).
        avx2!(self, _mm256_shuffle_epi32::<0xd2>(self.0))
    }

    #[inline(always)]
    fn swap_values(self) -> Avx2 {
        // 0x4e swaps the two 128-bit halves.
        avx2!(self, _mm256_permute4x64_epi64::<0x4e>(self.0))
    }

    #[inline(always)]
    fn is_zero(self) -> bool {
        // SAFETY: `self` holds an `Avx2Token`, so the CPU has AVX2.
        unsafe { _mm256_testz_si256(self.0, self.0) == 1 }
    }

    #[inline(always)]
    fn ne_mask(self, o: Avx2) -> u32 {
        // SAFETY: `self` holds an `Avx2Token`, so the CPU has AVX2.
        let equal =
            unsafe { _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(self.0, o.0))) };
        !(equal as u32) & 0xff
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `check` on the portable lanes and on each vector implementation this CPU has,
    /// with the same inputs, and compares the stored results. The AVX2 operations run outside
    /// the engine, in a function not compiled for AVX2: the token is all they need.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn every_implementation_computes_what_the_portable_one_does() {
        fn ops<L: Lanes>(cpu: L::Token, a: &[u32; 8], b: &[u32; 8]) -> Vec<[u32; 8]> {
            let (x, y) = (L::load(cpu, a), L::load(cpu, b));
            let results = [
                x.and(y),
                x.or(y),
                x.xor(y),
                x.andnot(y),
                x.add(y),
                x.sub(y),
                x.shr::<9>(),
                x.shl::<3>(),
                x.rot1(),
                x.rot2(),
                x.swap_values(),
                y.splat(a[1]),
            ];
            let mut out: Vec<[u32; 8]> = results
                .iter()
                .map(|r| {
                    let mut s = [0; 8];
                    r.store(&mut s);
                    s
                })
                .collect();
            out.push([
                x.ne_mask(y),
                u32::from(x.is_zero()),
                u32::from(x.xor(x).is_zero()),
                0,
                0,
                0,
                0,
                0,
            ]);
            out
        }
        let a = [0x07ff_ffff, 0x0123_4567, 3, 0, 0x0555_5555, u32::MAX, 1, 0];
        let b = [1, 0x0765_4321, 3, 0, 0x0aaa_aaaa, 2, 0x0400_0000, 0];
        let expected = ops::<Portable>((), &a, &b);
        assert_eq!(ops::<Sse2>((), &a, &b), expected);
        if let Some(cpu) = Avx2Token::detect() {
            assert_eq!(ops::<Avx2>(cpu, &a, &b), expected);
        }
    }

    #[test]
    fn the_portable_level_is_always_there() {
        assert_eq!(levels()[0], SimdLevel::Portable);
        assert!(levels().contains(&level()));
    }

    /// The AVX2 level is offered exactly when the detection makes a token.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_avx2_level_comes_with_the_detection() {
        let avx2 = levels()
            .into_iter()
            .filter(|l| matches!(l, SimdLevel::Avx2(_)))
            .count();
        assert_eq!(avx2, usize::from(Avx2Token::detect().is_some()));
    }
}
