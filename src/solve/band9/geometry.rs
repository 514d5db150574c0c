//! The geometry of a band word, on every lane at once: the columns of a word and rotations
//! inside its boxes, triads (the three cells of a row in one box) and their peers, and the
//! places of a stack's 3×3 matrix that lie on a permutation. The triad rules ([`super::triads`])
//! and the branch choice ([`super::branch`]) are written with these.
//!
//! # Complexity
//! Each function is 3 to 20 vector operations, without branches.

use super::lanes::Lanes;
use super::tables::{ROW, SPREAD};

/// Spread triad bits: bit `9r + 3k` stands for the triad of row `r`, box `k` of a band.
pub(super) const TRIAD_BITS: u32 = 0o111 * SPREAD;
/// Spread triad bits of boxes 1–2, 0–1, 2 and 0.
const BOXES_12: u32 = 0o110 * SPREAD;
const BOXES_01: u32 = 0o011 * SPREAD;
const BOX_2: u32 = 0o100 * SPREAD;
const BOX_0: u32 = SPREAD;

/// The columns (9 bits) where each word has a place.
#[inline(always)]
pub(super) fn cols<L: Lanes>(w: L) -> L {
    w.or(w.shr::<9>()).or(w.shr::<18>()).and(w.splat(ROW))
}

/// Rotations inside the three 3-bit groups (boxes) of a column set: bit `j` of a group takes
/// bit `j + 1` (`r1`) or `j + 2` (`r2`) of the same group, mod 3.
#[inline(always)]
pub(super) fn r1<L: Lanes>(x: L) -> L {
    x.shr::<1>()
        .and(x.splat(0o333))
        .or(x.shl::<2>().and(x.splat(0o444)))
}

#[inline(always)]
pub(super) fn r2<L: Lanes>(x: L) -> L {
    x.shr::<2>()
        .and(x.splat(0o111))
        .or(x.shl::<1>().and(x.splat(0o666)))
}

/// A column set repeated on the three rows of a band.
#[inline(always)]
pub(super) fn spread<L: Lanes>(c: L) -> L {
    c.or(c.shl::<9>()).or(c.shl::<18>())
}

/// The non-empty triads of each word, as spread triad bits.
#[inline(always)]
pub(super) fn occupancy<L: Lanes>(w: L) -> L {
    w.or(w.shr::<1>()).or(w.shr::<2>()).and(w.splat(TRIAD_BITS))
}

/// For spread triad bits, the other set bits of their rows.
#[inline(always)]
pub(super) fn others_in_row<L: Lanes>(o: L) -> L {
    o.shl::<3>()
        .and(o.splat(BOXES_12))
        .or(o.shr::<3>().and(o.splat(BOXES_01)))
        .or(o.shl::<6>().and(o.splat(BOX_2)))
        .or(o.shr::<6>().and(o.splat(BOX_0)))
}

/// The cells of spread triad bits.
#[inline(always)]
pub(super) fn triad_cells<L: Lanes>(n: L) -> L {
    n.shl::<3>().sub(n)
}

/// For spread triad bits, the rest of their rows and boxes.
#[inline(always)]
pub(super) fn triad_peers<L: Lanes>(n: L) -> L {
    let rowany = n
        .or(n.shr::<3>())
        .or(n.shr::<6>())
        .and(n.splat(1 | 1 << 9 | 1 << 18));
    let rows = rowany.shl::<9>().sub(rowany);
    let colany = n.or(n.shr::<9>()).or(n.shr::<18>()).and(n.splat(0o111));
    let boxes = spread(colany.shl::<3>().sub(colany));
    rows.or(boxes).andnot(triad_cells(n))
}

/// For each column set, the places on a permutation of each stack's 3×3 matrix (bands ×
/// columns, the bands being the value's three lanes) made of places.
#[inline(always)]
pub(super) fn on_permutations<L: Lanes>(cl: L) -> L {
    let (x1, x2) = (r1(cl), r2(cl));
    cl.and(x1.rot1().and(x2.rot2()).or(x2.rot1().and(x1.rot2())))
}
