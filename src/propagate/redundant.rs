//! The redundant constraints Simonis adds on top of `HAC`: `S` (same), `C` (colored matrix) and
//! `3` (rows–boxes of a band or stack). None changes the solutions; each lets propagation see
//! reasoning that no single `alldifferent` can.
//!
//! - **S, same**: where row `r` crosses box `b`, the rest of the row (outside `b`) and the rest of
//!   the box (outside `r`) must take the same set of values — both are the values the crossing
//!   cells do not take. A value that no cell of one side can take is removed from the other side.
//!   The same holds for columns and boxes. (This is the "locked candidates" rule of human solvers.)
//! - **C, colored matrix**: each value occurs once in every row and every column, so for each value
//!   the rows × columns graph of the cells where it is a candidate must have a perfect matching;
//!   an edge in no perfect matching is removed (Régin's method again; "X-wing" and "swordfish").
//! - **3, rows–boxes**: inside a band of `p` rows and `p` boxes, each value occurs once per row and
//!   once per box: for each value a rows × boxes matching, where row `i` and box `j` are joined if
//!   the value is a candidate somewhere in their crossing; an edge in no perfect matching removes
//!   the value from the whole crossing. The same for the columns and boxes of a stack.
//!
//! A Latin square has no boxes, so `S` and `3` do nothing there; `C` applies.
//!
//! # Complexity
//! Per round: `S` is O(n²·⌈n/64⌉) (each of the 2n·√n crossings unions O(n) cells); `C` is O(n²)
//! per value to build the graph plus the matching; `3` is O(n²) per value over all bands and
//! stacks. Only values (C, 3) and units (S) that lost a candidate since the last round are
//! revisited.
//!
//! # References
//! - H. Simonis, "Sudoku as a constraint problem", 2005, §4 (the three redundant constraints).
//! - J.-C. Régin, "A filtering algorithm for constraints of difference in CSPs", AAAI 1994.

use super::trace::Rule;
use super::{Domains, Failure, Propagator};

impl Propagator {
    /// Removes `mask` (a cell's worth of words) from `cell`.
    fn remove_mask(&mut self, d: &mut Domains, cell: usize, mask: &[u64]) -> Result<(), Failure> {
        for (wi, &word) in mask.iter().enumerate() {
            let mut rest = word & d.cell_words(cell)[wi];
            while rest != 0 {
                let v = wi * 64 + rest.trailing_zeros() as usize;
                rest &= rest - 1;
                self.remove(d, cell, v)?;
            }
        }
        Ok(())
    }

    /// The `S` constraint on every row/box and column/box crossing whose units changed.
    ///
    /// With a region map there are no p×q boxes to cross: the constraint is not applied (the
    /// schemes stay sound, with less pruning).
    pub(super) fn same<const TRACE: bool>(&mut self, d: &mut Domains) -> Result<(), Failure> {
        if self.shape.is_latin() || self.shape.has_region_map() {
            return Ok(());
        }
        let mut buf = std::mem::take(&mut self.scratch2);
        let result = self.same_with::<TRACE>(d, &mut buf);
        self.scratch2 = buf;
        result
    }

    fn same_with<const TRACE: bool>(
        &mut self,
        d: &mut Domains,
        buf: &mut [u64],
    ) -> Result<(), Failure> {
        let (n, w) = (self.n, self.words);
        let (p, q) = (self.shape.box_rows(), self.shape.box_cols());
        let across = n / q; // boxes per band
        let (line_union, rest) = buf.split_at_mut(w);
        let (box_union, rest) = rest.split_at_mut(w);
        let only = &mut rest[..w];
        for line_is_row in [true, false] {
            for line in 0..n {
                let line_unit = if line_is_row { line } else { n + line };
                // The boxes this line crosses.
                let crossed = if line_is_row { across } else { n / p };
                for j in 0..crossed {
                    let b = if line_is_row {
                        (line / p) * across + j
                    } else {
                        j * across + line / q
                    };
                    if !self.same_now[line_unit] && !self.same_now[2 * n + b] {
                        continue;
                    }
                    self.propagations += 1;
                    let (r0, c0) = self.shape.box_origin(b);
                    let in_box = |cell: usize| {
                        let (r, c) = (cell / n, cell % n);
                        (r0..r0 + p).contains(&r) && (c0..c0 + q).contains(&c)
                    };
                    let on_line = |cell: usize| {
                        if line_is_row {
                            cell / n == line
                        } else {
                            cell % n == line
                        }
                    };
                    line_union.fill(0);
                    box_union.fill(0);
                    for i in 0..n {
                        let cell = self.unit_cells[line_unit * n + i] as usize;
                        if !in_box(cell) {
                            for (u, x) in line_union.iter_mut().zip(d.cell_words(cell)) {
                                *u |= x;
                            }
                        }
                        let cell = self.unit_cells[(2 * n + b) * n + i] as usize;
                        if !on_line(cell) {
                            for (u, x) in box_union.iter_mut().zip(d.cell_words(cell)) {
                                *u |= x;
                            }
                        }
                    }
                    // Values of the line's rest that the box's rest cannot take, and back.
                    for side_is_line in [true, false] {
                        let mut any = false;
                        for k in 0..w {
                            only[k] = if side_is_line {
                                line_union[k] & !box_union[k]
                            } else {
                                box_union[k] & !line_union[k]
                            };
                            any |= only[k] != 0;
                        }
                        if !any {
                            continue;
                        }
                        let boxed = 2 * n + b;
                        let only = &*only;
                        let rule = |_: &Domains| Rule::Same {
                            line: line_unit,
                            boxed,
                        };
                        self.step::<TRACE, _>(d, rule, |e, d| {
                            e.same_prune(d, line_unit, boxed, side_is_line, only)
                        })?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Removes `only` from the cells of one side of a crossing of `line` (a row or column unit)
    /// and the box unit `boxed`: the line's cells outside the box (`side_is_line`), or the
    /// box's cells off the line.
    fn same_prune(
        &mut self,
        d: &mut Domains,
        line: usize,
        boxed: usize,
        side_is_line: bool,
        only: &[u64],
    ) -> Result<(), Failure> {
        let n = self.n;
        let (from, other) = if side_is_line {
            (line, boxed)
        } else {
            (boxed, line)
        };
        for i in 0..n {
            let cell = self.unit_cells[from * n + i] as usize;
            let units =
                self.cell_unit_start[cell] as usize..self.cell_unit_start[cell + 1] as usize;
            if !self.cell_units[units].contains(&(other as u32)) {
                self.remove_mask(d, cell, only)?;
            }
        }
        Ok(())
    }

    /// The `C` constraint: for each changed value, the rows × columns matching.
    pub(super) fn colored<const TRACE: bool>(&mut self, d: &mut Domains) -> Result<(), Failure> {
        let n = self.n;
        for v in 0..n {
            if !self.value_now[v] {
                continue;
            }
            self.propagations += 1;
            self.step::<TRACE, _>(
                d,
                |_| Rule::Colored { value: v },
                |e, d| e.colored_value(d, v),
            )?;
        }
        Ok(())
    }

    /// The rows × columns matching of value `v`.
    fn colored_value(&mut self, d: &mut Domains, v: usize) -> Result<(), Failure> {
        let n = self.n;
        self.matcher.begin(n);
        for r in 0..n {
            for c in 0..n {
                if d.contains(r * n + c, v) {
                    self.matcher.add_edge(r, c);
                }
            }
        }
        if !self.matcher.perfect_matching() {
            return Err(Failure);
        }
        self.matcher.compute_allowed();
        for r in 0..n {
            if self.matcher.all_allowed(r) {
                continue;
            }
            for c in 0..n {
                if self.matcher.has_edge(r, c)
                    && self.matcher.allowed(r)[c / 64] & (1u64 << (c % 64)) == 0
                {
                    self.remove(d, r * n + c, v)?;
                }
            }
        }
        Ok(())
    }

    /// The `3` constraint: for each changed value, the rows × boxes matching of every band and
    /// the columns × boxes matching of every stack.
    ///
    /// Not applied with a region map (no bands of boxes), as [`Propagator::same`].
    pub(super) fn rows_boxes<const TRACE: bool>(&mut self, d: &mut Domains) -> Result<(), Failure> {
        if self.shape.is_latin() || self.shape.has_region_map() {
            return Ok(());
        }
        let (p, q) = (self.shape.box_rows(), self.shape.box_cols());
        for v in 0..self.n {
            if !self.value_now[v] {
                continue;
            }
            // q bands of p rows, p stacks of q columns.
            for by_rows in [true, false] {
                let groups = if by_rows { q } else { p };
                for g in 0..groups {
                    self.propagations += 1;
                    self.step::<TRACE, _>(
                        d,
                        |_| Rule::RowsBoxes {
                            value: v,
                            band: by_rows,
                            group: g,
                        },
                        |e, d| e.rows_boxes_group(d, v, by_rows, g),
                    )?;
                }
            }
        }
        Ok(())
    }

    /// The rows × boxes matching of value `v` in band `g` (`by_rows`), or the columns × boxes
    /// matching in stack `g`.
    fn rows_boxes_group(
        &mut self,
        d: &mut Domains,
        v: usize,
        by_rows: bool,
        g: usize,
    ) -> Result<(), Failure> {
        let n = self.n;
        let (p, q) = (self.shape.box_rows(), self.shape.box_cols());
        // Bands: p rows × p boxes (each box q columns wide); stacks: q columns × q boxes.
        let (lines, depth) = if by_rows { (p, q) } else { (q, p) };
        self.matcher.begin(lines);
        // Crossing of line i and box j of group g: `depth` cells.
        let cell_at = |i: usize, j: usize, t: usize| {
            if by_rows {
                (g * p + i) * n + j * q + t
            } else {
                (j * p + t) * n + g * q + i
            }
        };
        for i in 0..lines {
            for j in 0..lines {
                if (0..depth).any(|t| d.contains(cell_at(i, j, t), v)) {
                    self.matcher.add_edge(i, j);
                }
            }
        }
        if !self.matcher.perfect_matching() {
            return Err(Failure);
        }
        self.matcher.compute_allowed();
        for i in 0..lines {
            if self.matcher.all_allowed(i) {
                continue;
            }
            for j in 0..lines {
                if self.matcher.has_edge(i, j)
                    && self.matcher.allowed(i)[j / 64] & (1u64 << (j % 64)) == 0
                {
                    for t in 0..depth {
                        self.remove(d, cell_at(i, j, t), v)?;
                    }
                }
            }
        }
        Ok(())
    }
}
