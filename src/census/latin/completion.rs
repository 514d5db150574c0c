//! The completions of a Latin square's first two or three rows ([the method](super)): the
//! middle rows filled cell by cell with bit masks per column, the row before the last two with
//! the cycles of the pairs of values the columns miss kept as components, the last two rows by
//! those cycles.

use super::{MAX_LATIN_ORDER, Row};
use crate::census::{PartError, Stopped};
use crate::search::Budget;

/// Searches of the third row from the end between two looks at the clock.
const CHECK_EVERY: u64 = 1 << 14;

/// The completions of a square's first two or three rows, the other rows sorted by their first
/// value: rows filled cell by cell, the last two by their cycles.
pub(super) struct Completion {
    n: usize,
    full: u16,
    /// The first value of each row: the given rows', then the others in increasing order.
    first: Row,
    /// Values each column already holds (column 0 is fixed and not tracked).
    column: [u16; MAX_LATIN_ORDER],
    /// Rows given (2 or 3).
    given: usize,
    leaves: u64,
    stopped: Option<Stopped>,
}

impl Completion {
    pub(super) fn new(n: usize, second: &[u8], third: Option<&Row>) -> Completion {
        let mut column = [0u16; MAX_LATIN_ORDER];
        let mut given = 1u16 | 1 << second[0];
        for (c, slot) in column.iter_mut().enumerate().take(n) {
            *slot = 1 << c | 1 << second[c];
            if let Some(third) = third {
                *slot |= 1 << third[c];
            }
        }
        let mut first = [0u8; MAX_LATIN_ORDER];
        first[1] = second[0];
        if let Some(third) = third {
            first[2] = third[0];
            given |= 1 << third[0];
        }
        let rows_given = if third.is_some() { 3 } else { 2 };
        let mut r = rows_given;
        for v in 0..n {
            if given & (1 << v) == 0 {
                first[r] = v as u8;
                r += 1;
            }
        }
        Completion {
            n,
            full: ((1u32 << n) - 1) as u16,
            first,
            column,
            given: rows_given,
            leaves: 0,
            stopped: None,
        }
    }

    /// The completions with the first column fixed. A stop reports the share of the next row's
    /// choices searched.
    pub(super) fn count(mut self, budget: &Budget) -> Result<u64, PartError> {
        let n = self.n;
        if n <= 3 {
            // Order 2: no row left; order 3: the last row is forced (a Latin rectangle of
            // n − 1 rows always completes in one way).
            return Ok(1);
        }
        if self.given == n - 2 {
            return Ok(self.last_two_rows());
        }
        let row = self.given;
        if row == n - 3 {
            let total = self.third_last_row(budget);
            return match self.stopped {
                Some(Stopped(reason)) => Err(PartError::Stopped(reason, 0.0)),
                None => Ok(total),
            };
        }
        // The next row's choices, one after another: how far the search got is their share.
        let mut rows = Vec::new();
        self.next_rows(
            1,
            1 << self.first[row],
            &mut [self.first[row]; MAX_LATIN_ORDER],
            &mut rows,
        );
        let mut total = 0;
        for (i, choice) in rows.iter().enumerate() {
            for (column, &v) in self.column[1..n].iter_mut().zip(&choice[1..n]) {
                *column |= 1 << v;
            }
            total += self.fill(row + 1, 1, 1 << self.first[row + 1], budget);
            for (column, &v) in self.column[1..n].iter_mut().zip(&choice[1..n]) {
                *column &= !(1 << v);
            }
            if let Some(Stopped(reason)) = self.stopped {
                return Err(PartError::Stopped(reason, i as f64 / rows.len() as f64));
            }
        }
        Ok(total)
    }

    /// Every way to fill the next row from column `c` on, given the columns so far.
    fn next_rows(&self, c: usize, in_row: u16, current: &mut Row, out: &mut Vec<Row>) {
        if c == self.n {
            out.push(*current);
            return;
        }
        let mut options = self.full & !self.column[c] & !in_row;
        while options != 0 {
            let bit = options & options.wrapping_neg();
            options ^= bit;
            current[c] = bit.trailing_zeros() as u8;
            self.next_rows(c + 1, in_row | bit, current, out);
        }
    }

    /// Completions with rows `< row` filled and the cells `< c` of row `row` (holding the values
    /// `in_row`).
    fn fill(&mut self, row: usize, c: usize, in_row: u16, budget: &Budget) -> u64 {
        if row == self.n - 3 {
            return self.third_last_row(budget);
        }
        if c == self.n {
            let next = row + 1;
            return self.fill(next, 1, 1 << self.first[next], budget);
        }
        let mut options = self.full & !self.column[c] & !in_row;
        let mut total = 0;
        while options != 0 && self.stopped.is_none() {
            let bit = options & options.wrapping_neg();
            options ^= bit;
            self.column[c] |= bit;
            total += self.fill(row, c + 1, in_row | bit, budget);
            self.column[c] ^= bit;
        }
        total
    }

    /// The completions of the last three rows: row `n−3` cell by cell, each choice leaving its
    /// column a pair of missing values, an edge between them; the last two rows then fill in
    /// `2^(c−1)` ways for `c` cycles, that is `c` components of those edges, kept as the search
    /// goes (each value's component as a mask, copied down the search).
    fn third_last_row(&mut self, budget: &Budget) -> u64 {
        let n = self.n;
        self.leaves += 1;
        if self.leaves.is_multiple_of(CHECK_EVERY)
            && let Some(reason) = budget.interrupted()
        {
            self.stopped = Some(Stopped(reason));
            return 0;
        }
        let mut component = [0u16; MAX_LATIN_ORDER];
        for (v, slot) in component.iter_mut().enumerate().take(n) {
            *slot = 1 << v;
        }
        // Column 0 misses the first values of the last two rows.
        let (a, b) = (
            usize::from(self.first[n - 2]),
            usize::from(self.first[n - 1]),
        );
        let joined = component[a] | component[b];
        component[a] = joined;
        component[b] = joined;
        self.last_row_cell(1, 1 << self.first[n - 3], component, n as u32 - 1)
    }

    /// Row `n−3` from column `c` on, the row holding `in_row`, the components of the edges so
    /// far `component` (`components` of them).
    fn last_row_cell(
        &self,
        c: usize,
        in_row: u16,
        mut component: [u16; MAX_LATIN_ORDER],
        components: u32,
    ) -> u64 {
        if c == self.n {
            return 1 << (components - 1);
        }
        let missing = self.full & !self.column[c];
        let mut options = missing & !in_row;
        let mut total = 0;
        while options != 0 {
            let bit = options & options.wrapping_neg();
            options ^= bit;
            let pair = missing & !bit;
            let a = pair.trailing_zeros() as usize;
            let b = (pair & (pair - 1)).trailing_zeros() as usize;
            total += if component[a] & (1 << b) != 0 {
                // The edge closes a cycle.
                self.last_row_cell(c + 1, in_row | bit, component, components)
            } else {
                let saved = component;
                let joined = component[a] | component[b];
                let mut m = joined;
                while m != 0 {
                    component[m.trailing_zeros() as usize] = joined;
                    m &= m - 1;
                }
                let sub = self.last_row_cell(c + 1, in_row | bit, component, components - 1);
                component = saved;
                sub
            };
        }
        total
    }

    /// `2^(c−1)`: the ways to fill the last two rows, `c` the cycles of the pairs of values the
    /// columns miss (column 0 misses the last two rows' first values, in their order).
    fn last_two_rows(&self) -> u64 {
        let n = self.n;
        let mut missing = [0u16; MAX_LATIN_ORDER];
        missing[0] = 1 << self.first[n - 2] | 1 << self.first[n - 1];
        for (slot, &column) in missing.iter_mut().zip(&self.column).take(n).skip(1) {
            *slot = self.full & !column;
        }
        // Columns missing each value.
        let mut columns_of = [0u16; MAX_LATIN_ORDER];
        for (c, &pair) in missing.iter().enumerate().take(n) {
            let mut m = pair;
            while m != 0 {
                let v = m.trailing_zeros() as usize;
                m &= m - 1;
                columns_of[v] |= 1 << c;
            }
        }
        let mut seen = 0u16;
        let mut cycles = 0u32;
        for start in 0..n {
            if seen & (1 << start) != 0 {
                continue;
            }
            cycles += 1;
            let mut c = start;
            let mut value = missing[c].trailing_zeros() as usize;
            loop {
                seen |= 1 << c;
                // Each value is missed by exactly two columns: the other one is next.
                let next = columns_of[value] & !(1 << c);
                debug_assert_eq!(next.count_ones(), 1);
                c = next.trailing_zeros() as usize;
                if c == start {
                    break;
                }
                value = (missing[c] & !(1 << value)).trailing_zeros() as usize;
            }
        }
        1 << (cycles - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_two_rows_by_cycles() {
        // Order 4, second row 1 0 3 2: the columns miss {2,3} {2,3} {0,1} {0,1}, two cycles.
        let c = Completion::new(4, &[1, 0, 3, 2], None);
        assert_eq!(&c.first[..4], &[0, 1, 2, 3]);
        assert_eq!(c.last_two_rows(), 2);
        // Second row 1 2 3 0: one cycle through all columns.
        let c = Completion::new(4, &[1, 2, 3, 0], None);
        assert_eq!(c.last_two_rows(), 1);
    }
}
