//! The constant tables of the 9×9 band engine ([`super`]): the band masks, the triad occupancy
//! of a word, the cells that the locked-candidates rule keeps ([`LOCKED`]) and the rows it forces
//! ([`FORCED`]), the pointing columns, each position's row and box peers, and the band
//! configurations that the branching splits ([`PERMUTATIONS`], [`SPLIT`]). All are computed at
//! compile time from their definitions; [`super::propagate`] and [`super::branch`] explain the
//! rules and the branching.

/// The 27 cells of a band.
pub(super) const BAND: u32 = (1 << 27) - 1;

/// The nine columns of a band row.
pub(super) const ROW: u32 = 0x1ff;

/// Multiplying a 9-bit column set by this repeats it on the band's three rows.
pub(super) const SPREAD: u32 = 1 | 1 << 9 | 1 << 18;

/// The columns (9 bits) where a band word has a place.
#[inline(always)]
pub(super) fn columns(x: u32) -> u32 {
    (x | x >> 9 | x >> 18) & ROW
}

/// For a 9-bit band row, bit `k` set when its box `k` part (three cells) is not empty.
pub(super) const TRIADS_OF_ROW: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        t[x] = ((x & 7 != 0) as u8) | ((x & 0o70 != 0) as u8) << 1 | ((x & 0o700 != 0) as u8) << 2;
        x += 1;
    }
    t
};

/// The six configurations of a value in a band: the permutations of its 3×3 triad matrix (one
/// triad per row and per box), as triad masks (bit `3r + k`: row `r`, box `k`). The same
/// matrices describe a value in a stack (bit `3i + j`: band `i`, column `j` of the stack).
pub(super) const PERMUTATIONS: [u32; 6] = {
    const SIGMA: [[u32; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u32; 6];
    let mut p = 0;
    while p < 6 {
        let sigma = SIGMA[p];
        t[p] = 1 << sigma[0] | 1 << (3 + sigma[1]) | 1 << (6 + sigma[2]);
        p += 1;
    }
    t
};

/// For a triad occupancy (bit `3r + k`: row `r`, box `k` of the band has a place), the triads
/// (same bits) that lie on a permutation (one triad per row and per box) made of occupied triads.
const fn kept_triads(occ: u32) -> u32 {
    let mut keep = 0;
    let mut p = 0;
    while p < 6 {
        let triads = PERMUTATIONS[p];
        if triads & occ == triads {
            keep |= triads;
        }
        p += 1;
    }
    keep
}

/// The cells of a set of triads (bit `3r + k`: row `r`, box `k` of the band).
pub(super) const fn triad_cells(triads: u32) -> u32 {
    let mut cells = 0;
    let mut i = 0;
    while i < 9 {
        if triads & 1 << i != 0 {
            cells |= 7 << (9 * (i / 3) + 3 * (i % 3));
        }
        i += 1;
    }
    cells
}

/// For a triad occupancy, the cells of the triads that lie on a permutation made of occupied
/// triads ([`kept_triads`]); zero when there is none.
pub(super) const LOCKED: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut occ = 0;
    while occ < 512 {
        t[occ] = triad_cells(kept_triads(occ as u32));
        occ += 1;
    }
    t
};

/// For a triad occupancy, the cells of the kept triads that are the only kept triad of their
/// row (so also of their box): the value's place in that row lies in that triad. Such a row has
/// one place left when the triad's box has one column left.
pub(super) const FORCED: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut occ = 0;
    while occ < 512 {
        let keep = kept_triads(occ as u32);
        let mut forced = 0;
        let mut r = 0;
        while r < 3 {
            let row = keep >> (3 * r) & 7;
            if row.count_ones() == 1 {
                forced |= row << (3 * r);
            }
            r += 1;
        }
        t[occ] = triad_cells(forced);
        occ += 1;
    }
    t
};

/// [`LOCKED`] and [`FORCED`] side by side (one table, one base address for the update).
pub(super) const LOCKED_FORCED: [[u32; 2]; 512] = {
    let mut t = [[0u32; 2]; 512];
    let mut occ = 0;
    while occ < 512 {
        t[occ] = [LOCKED[occ], FORCED[occ]];
        occ += 1;
    }
    t
};

/// For a position in a band, its row and its box inside the band, without itself.
pub(super) const BAND_PEERS: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        let (r, k) = (p / 9, p % 9);
        let row = ROW << (9 * r);
        let boxed = (7 << (3 * (k / 3))) * SPREAD;
        t[p] = (row | boxed) & !(1 << p);
        p += 1;
    }
    t
};

/// For word `4d + b` (value `d`, band `b`; `b` = 3 is padding), the words of value `d` in the
/// two other bands.
pub(super) const OTHER: [(u8, u8); 40] = {
    let mut t = [(0, 0); 40];
    let mut i = 0;
    while i < 40 {
        let (d, b) = (i / 4, i % 4);
        if b < 3 {
            t[i] = ((4 * d + (b + 1) % 3) as u8, (4 * d + (b + 2) % 3) as u8);
        }
        i += 1;
    }
    t
};

/// For the columns (9 bits) where a value has places in a band, the cells of the other bands'
/// words to clear: the columns that are the value's only column in their box (pointing along a
/// column, which includes a placed value's column).
pub(super) const POINTING_COLUMNS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut cols = 0;
    while cols < 512 {
        let mut clear = 0u32;
        let mut k = 0;
        while k < 3 {
            let part: usize = (cols >> (3 * k)) & 7;
            if part.count_ones() == 1 {
                clear |= (part << (3 * k)) as u32;
            }
            k += 1;
        }
        t[cols] = clear * SPREAD;
        cols += 1;
    }
    t
};

/// For an occupancy of the 3×3 triad matrix, the configurations (bit `p`:
/// [`PERMUTATIONS`]`[p]`) made of occupied triads.
pub(super) const CONFIGURATIONS: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut occ = 0;
    while occ < 512 {
        let mut p = 0;
        while p < 6 {
            if PERMUTATIONS[p] & occ as u32 == PERMUTATIONS[p] {
                t[occ] |= 1 << p;
            }
            p += 1;
        }
        occ += 1;
    }
    t
};

/// For a set of configurations (bit `p`: [`PERMUTATIONS`]`[p]`), a binary split: the triads of
/// the first configuration that has a triad in no other, and the triads of all the others.
/// `[0, 0]` when there is no such split (fewer than two configurations, or each one covered by
/// the others).
pub(super) const SPLIT: [[u16; 2]; 64] = {
    let mut t = [[0u16; 2]; 64];
    let mut set = 0;
    while set < 64 {
        let mut p = 0;
        while p < 6 {
            if set >> p & 1 != 0 {
                let mut others = 0;
                let mut q = 0;
                while q < 6 {
                    if q != p && set >> q & 1 != 0 {
                        others |= PERMUTATIONS[q];
                    }
                    q += 1;
                }
                if others != 0 && PERMUTATIONS[p] & !others != 0 {
                    t[set] = [PERMUTATIONS[p] as u16, others as u16];
                    break;
                }
            }
            p += 1;
        }
        set += 1;
    }
    t
};

/// [`triad_cells`] as a table.
pub(super) const TRIAD_CELLS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut triads = 0;
    while triads < 512 {
        t[triads] = triad_cells(triads as u32);
        triads += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_describe_the_band() {
        // A full band: every triad on some permutation.
        assert_eq!(LOCKED[0x1ff], BAND);
        // Row 0 only in box 0 forces box 0 out of rows 1 and 2.
        let occ = 0b111_111_001;
        assert_eq!(LOCKED[occ], 7 | (0o770 << 9) | (0o770 << 18));
        // An empty row: no permutation.
        assert_eq!(LOCKED[0b111_111_000], 0);
        assert_eq!(BAND_PEERS[0].count_ones(), 8 + 6);
        assert_eq!(TRIADS_OF_ROW[0b100_000_010], 0b101);
        // Two configurations sharing one triad: either splits off the other.
        let (p, q) = (PERMUTATIONS[0], PERMUTATIONS[1]);
        assert_eq!((p & q).count_ones(), 1);
        assert_eq!(CONFIGURATIONS[(p | q) as usize], 0b11);
        assert_eq!(SPLIT[0b11], [p as u16, q as u16]);
        // The three transpositions are disjoint: the first splits off.
        let transpositions = 0b100110;
        assert_eq!(
            SPLIT[transpositions].map(u32::from),
            [PERMUTATIONS[1], PERMUTATIONS[2] | PERMUTATIONS[5]]
        );
        // All six: each is covered by the others; one alone: nothing to split.
        assert_eq!(CONFIGURATIONS[0x1ff], 0b111111);
        assert_eq!(SPLIT[0b111111], [0, 0]);
        assert_eq!(SPLIT[0b1], [0, 0]);
        assert_eq!(TRIAD_CELLS[0b1], 7);
        assert_eq!(OTHER[4 * 2 + 1], (10, 8));
    }
}
