//! Region maps and extra units: the data that turns a shape of p×q boxes into a jigsaw, an X or
//! a windoku one.
//!
//! A [`Regions`] holds, for one order `n`, an optional **region map** (a partition of the n²
//! cells into n regions of n cells each, which replaces the p×q boxes: a jigsaw, or "irregular",
//! Sudoku) and a list of **extra units** of n distinct cells each (the two diagonals of X-Sudoku,
//! the (k−1)² windows of windoku on an order k², or any list a user gives). Every unit, the boxes'
//! replacement included, must hold each value once.
//!
//! A `Regions` is built once and **interned**: [`Regions::new`] returns a `&'static Regions`
//! shared by every equal map, so a [`Shape`](super::Shape) that carries one stays `Copy`, and two
//! shapes are equal exactly when their regions are the same allocation. Each distinct map is kept
//! for the rest of the process (n² + the extras' cells, a few kilobytes for 9×9); a process
//! that reads many different maps keeps them all.
//!
//! Map text ([`parse_map`]): n lines of n labels, one label per cell, a region per label (the
//! puzzle alphabet, letters, or any other character; whitespace-separated tokens when a line
//! has spaces, for orders above 35). Blank lines and lines starting with `#` are skipped.
//! Regions are numbered by their first cell in row-major order, so the map of the p×q boxes
//! numbers its regions as the boxes are numbered. `.` and `0` mark a cell in no region, which is
//! an error.
//!
//! # Complexity
//! Building: O(n² + k·n) for k extra units, plus O(m·n²) to compare with the m maps already
//! interned. Every query is O(1) (a table look-up).
//!
//! # References
//! - D. E. Knuth, `sudoku-general-dlx` (box maps for any partition, up to order 32).
//! - Windoku: the four extra 3×3 windows of 9×9, rows and columns 2–4 and 6–8.

use std::fmt;
use std::sync::Mutex;

use thiserror::Error;

/// The name of an extra unit, as users see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ExtraName {
    /// The main diagonal, from the top-left cell to the bottom-right one.
    MainDiagonal,
    /// The anti-diagonal, from the top-right cell to the bottom-left one.
    AntiDiagonal,
    /// Window `k` (0-based, row-major) of windoku.
    Window(u16),
    /// Unit `k` (0-based) of a user's list.
    Listed(u16),
}

impl fmt::Display for ExtraName {
    /// `main diagonal`, `anti-diagonal`, `window 2`, `extra unit 1` (1-based numbers).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExtraName::MainDiagonal => f.write_str("main diagonal"),
            ExtraName::AntiDiagonal => f.write_str("anti-diagonal"),
            ExtraName::Window(k) => write!(f, "window {}", k + 1),
            ExtraName::Listed(k) => write!(f, "extra unit {}", k + 1),
        }
    }
}

/// The common extra units, by the keyword `--extra` and Python's `extra=` take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum ExtraSet {
    /// Both diagonals (X-Sudoku).
    Diagonals,
    /// The (k−1)² windows of k×k cells of an order k², one cell in from each box (windoku).
    Windows,
}

impl ExtraSet {
    /// The keywords, in the order of [`ExtraSet::ALL`].
    pub const NAMES: [&'static str; 2] = ["diagonals", "windows"];
    /// Every set.
    pub const ALL: [ExtraSet; 2] = [ExtraSet::Diagonals, ExtraSet::Windows];

    /// The keyword of this set.
    pub fn name(self) -> &'static str {
        match self {
            ExtraSet::Diagonals => "diagonals",
            ExtraSet::Windows => "windows",
        }
    }

    /// The units of this set on order `n`, with their names.
    ///
    /// # Errors
    /// [`RegionError::WindowsOrder`] for windows on an order that is not a square k² (k ≥ 2).
    pub fn units(self, order: usize) -> Result<Vec<(ExtraName, Vec<usize>)>, RegionError> {
        let n = order;
        match self {
            ExtraSet::Diagonals => Ok(vec![
                (ExtraName::MainDiagonal, (0..n).map(|i| i * n + i).collect()),
                (
                    ExtraName::AntiDiagonal,
                    (0..n).map(|i| i * n + (n - 1 - i)).collect(),
                ),
            ]),
            ExtraSet::Windows => {
                let k = (1..=n).find(|k| k * k >= n).unwrap_or(1);
                if k * k != n || k < 2 {
                    return Err(RegionError::WindowsOrder { order });
                }
                let origins: Vec<usize> = (0..k - 1).map(|j| 1 + j * (k + 1)).collect();
                let mut units = Vec::with_capacity((k - 1) * (k - 1));
                for &r0 in &origins {
                    for &c0 in &origins {
                        let cells = (0..n).map(|i| (r0 + i / k) * n + c0 + i % k).collect();
                        units.push((ExtraName::Window(units.len() as u16), cells));
                    }
                }
                Ok(units)
            }
        }
    }
}

impl std::str::FromStr for ExtraSet {
    type Err = RegionError;

    fn from_str(name: &str) -> Result<ExtraSet, RegionError> {
        ExtraSet::ALL
            .into_iter()
            .find(|set| set.name() == name)
            .ok_or_else(|| RegionError::UnknownExtra(name.to_string()))
    }
}

/// Why a region map or an extra unit is refused. Lines and columns are 1-based, in the map's text.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RegionError {
    /// A map with no rows.
    #[error("the region map is empty")]
    Empty,
    /// A map row whose label count is not the order.
    #[error("{line}:{column}: the row has {found} labels, but the map has {expected} rows")]
    RowLength {
        /// The row's line.
        line: usize,
        /// Where the row ends (the column after its last label, or of the first label too many).
        column: usize,
        /// Labels found.
        found: usize,
        /// Labels expected (the order).
        expected: usize,
    },
    /// A map whose order is not the puzzle's.
    #[error("the region map is {map}×{map}, but the puzzle has order {order}")]
    OrderMismatch {
        /// The map's order.
        map: usize,
        /// The puzzle's order.
        order: usize,
    },
    /// A cell marked `.` or `0`: in no region.
    #[error("{line}:{column}: the cell is in no region ('{label}')")]
    NoRegion {
        /// The cell's line.
        line: usize,
        /// The cell's column.
        column: usize,
        /// The label found.
        label: String,
    },
    /// More distinct labels than the order.
    #[error(
        "{line}:{column}: label '{label}' starts region {count}, but order {order} has {order} regions"
    )]
    TooManyRegions {
        /// Where the label first appears.
        line: usize,
        /// Its column.
        column: usize,
        /// The label.
        label: String,
        /// The regions counted with it.
        count: usize,
        /// The order.
        order: usize,
    },
    /// A region that does not have n cells.
    #[error(
        "{line}:{column}: region '{label}' has {size} cells, but a region of order {order} has {order}"
    )]
    RegionSize {
        /// The line of the region's first cell.
        line: usize,
        /// Its column.
        column: usize,
        /// The region's label.
        label: String,
        /// Its cell count.
        size: usize,
        /// The order.
        order: usize,
    },
    /// An extra unit whose size is not the order.
    #[error("{name} has {size} cells, but a unit of order {order} has {order}")]
    ExtraSize {
        /// The unit.
        name: ExtraName,
        /// Its cell count.
        size: usize,
        /// The order.
        order: usize,
    },
    /// An extra unit naming a cell twice, or a cell outside the grid.
    #[error("{name} names cell (row {row}, column {column}) {problem}")]
    ExtraCell {
        /// The unit.
        name: ExtraName,
        /// The cell's row, 1-based.
        row: usize,
        /// The cell's column, 1-based.
        column: usize,
        /// `twice` or `outside the grid`.
        problem: &'static str,
    },
    /// Windows on an order that is not a square.
    #[error("windows need an order k² with k ≥ 2 (4, 9, 16, ...), not {order}")]
    WindowsOrder {
        /// The order.
        order: usize,
    },
    /// The same extra set asked for twice.
    #[error("--extra {0} is given twice")]
    ExtraTwice(&'static str),
    /// An extra keyword that is not known.
    #[error("unknown extra units {0} (known: diagonals, windows)")]
    UnknownExtra(String),
}

/// A region map and extra units of one order, interned (see the module docs). Equality and
/// hashing are by identity, which interning makes the same as by content.
#[derive(Debug)]
pub struct Regions {
    order: usize,
    /// The region of each cell, row-major; `None`: the shape's own p×q boxes.
    map: Option<Box<[u16]>>,
    /// The cells of region `r` at `r·n..(r+1)·n`, row-major (empty without a map).
    region_cells: Box<[u32]>,
    /// The extra units' names.
    extra_names: Box<[ExtraName]>,
    /// The cells of extra unit `k` at `k·n..(k+1)·n`, in the order given.
    extra_cells: Box<[u32]>,
    /// The extra units holding cell `c`: `extra_of[extra_start[c]..extra_start[c+1]]`.
    extra_start: Box<[u32]>,
    extra_of: Box<[u16]>,
}

impl PartialEq for Regions {
    fn eq(&self, other: &Regions) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Eq for Regions {}

impl std::hash::Hash for Regions {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        std::ptr::hash(self, state);
    }
}

impl Regions {
    /// The interned regions of order `order`: the region map `map` (each cell's region,
    /// `0..n`, row-major; `None` keeps the shape's boxes) and the extra units `extras`.
    ///
    /// # Errors
    /// A map whose length is not n², a region id out of range or a region without n cells; an
    /// extra unit without n cells, or naming a cell twice or outside the grid.
    pub fn new(
        order: usize,
        map: Option<Vec<u16>>,
        extras: Vec<(ExtraName, Vec<usize>)>,
    ) -> Result<&'static Regions, RegionError> {
        let n = order;
        let cells = n * n;
        let mut region_cells = Vec::new();
        if let Some(map) = &map {
            if map.len() != cells {
                return Err(RegionError::OrderMismatch {
                    map: crate::shape::order_from_cells(map.len()).unwrap_or(0),
                    order,
                });
            }
            let mut by_region: Vec<Vec<u32>> = vec![Vec::with_capacity(n); n];
            for (cell, &r) in map.iter().enumerate() {
                let Some(region) = by_region.get_mut(usize::from(r)) else {
                    return Err(RegionError::TooManyRegions {
                        line: cell / n + 1,
                        column: cell % n + 1,
                        label: (usize::from(r) + 1).to_string(),
                        count: usize::from(r) + 1,
                        order,
                    });
                };
                region.push(cell as u32);
            }
            for (r, region) in by_region.iter().enumerate() {
                if region.len() != n {
                    let first = region.first().map_or(0, |&c| c as usize);
                    return Err(RegionError::RegionSize {
                        line: first / n + 1,
                        column: first % n + 1,
                        label: (r + 1).to_string(),
                        size: region.len(),
                        order,
                    });
                }
            }
            region_cells = by_region.concat();
        }
        let mut extra_cells = Vec::with_capacity(extras.len() * n);
        let mut holders: Vec<Vec<u16>> = vec![Vec::new(); cells];
        for (k, (name, unit)) in extras.iter().enumerate() {
            if unit.len() != n {
                return Err(RegionError::ExtraSize {
                    name: *name,
                    size: unit.len(),
                    order,
                });
            }
            for &cell in unit {
                let problem = if cell >= cells {
                    Some("outside the grid")
                } else if holders[cell].last() == Some(&(k as u16)) {
                    Some("twice")
                } else {
                    None
                };
                if let Some(problem) = problem {
                    return Err(RegionError::ExtraCell {
                        name: *name,
                        row: cell / n.max(1) + 1,
                        column: cell % n.max(1) + 1,
                        problem,
                    });
                }
                holders[cell].push(k as u16);
                extra_cells.push(cell as u32);
            }
        }
        let mut extra_start = Vec::with_capacity(cells + 1);
        extra_start.push(0u32);
        for held in &holders {
            extra_start.push(extra_start[extra_start.len() - 1] + held.len() as u32);
        }
        let built = Regions {
            order,
            map: map.map(Vec::into_boxed_slice),
            region_cells: region_cells.into_boxed_slice(),
            extra_names: extras.iter().map(|(name, _)| *name).collect(),
            extra_cells: extra_cells.into_boxed_slice(),
            extra_start: extra_start.into_boxed_slice(),
            extra_of: holders.concat().into_boxed_slice(),
        };
        Ok(intern(built))
    }

    /// The regions of the map text `text` (see [`parse_map`]) and the extra sets `extras`, for
    /// order `order` if given (else the map's).
    ///
    /// # Errors
    /// As [`parse_map`] and [`Regions::new`]; [`RegionError::ExtraTwice`] for a set given twice.
    pub fn from_parts(
        map: Option<&str>,
        extras: &[ExtraSet],
        order: usize,
    ) -> Result<&'static Regions, RegionError> {
        let map = map.map(|text| parse_map(text, Some(order))).transpose()?;
        Regions::new(order, map, extra_units(extras, order)?)
    }

    /// The order.
    #[inline]
    pub fn order(&self) -> usize {
        self.order
    }

    /// Whether a region map replaces the boxes.
    #[inline]
    pub fn has_map(&self) -> bool {
        self.map.is_some()
    }

    /// The region of each cell, row-major, if a map replaces the boxes.
    pub fn map(&self) -> Option<&[u16]> {
        self.map.as_deref()
    }

    /// The region of cell `cell` (only with a map).
    #[inline]
    pub(crate) fn region_of(&self, cell: usize) -> Option<usize> {
        self.map.as_ref().map(|map| usize::from(map[cell]))
    }

    /// The `i`-th cell of region `r` (only with a map).
    #[inline]
    pub(crate) fn region_cell(&self, r: usize, i: usize) -> usize {
        self.region_cells[r * self.order + i] as usize
    }

    /// The number of extra units.
    #[inline]
    pub fn extra_count(&self) -> usize {
        self.extra_names.len()
    }

    /// The name of extra unit `k`.
    #[inline]
    pub fn extra_name(&self, k: usize) -> ExtraName {
        self.extra_names[k]
    }

    /// The `i`-th cell of extra unit `k`.
    #[inline]
    pub(crate) fn extra_cell(&self, k: usize, i: usize) -> usize {
        self.extra_cells[k * self.order + i] as usize
    }

    /// The extra units holding cell `cell`.
    #[inline]
    pub(crate) fn extras_of(&self, cell: usize) -> &[u16] {
        &self.extra_of[self.extra_start[cell] as usize..self.extra_start[cell + 1] as usize]
    }

    /// The extra sets these regions hold as whole sets (diagonals, windows), in order, if the
    /// extra units are exactly such sets (and not a user's list).
    pub fn extra_sets(&self) -> Option<Vec<ExtraSet>> {
        let mut sets = Vec::new();
        let mut k = 0;
        while k < self.extra_names.len() {
            let set = match self.extra_names[k] {
                ExtraName::MainDiagonal => ExtraSet::Diagonals,
                ExtraName::Window(0) => ExtraSet::Windows,
                _ => return None,
            };
            let units = set.units(self.order).ok()?;
            for (j, (name, cells)) in units.iter().enumerate() {
                let same = self.extra_names.get(k + j) == Some(name)
                    && cells.iter().enumerate().all(|(i, &c)| {
                        self.extra_cells.get((k + j) * self.order + i) == Some(&(c as u32))
                    });
                if !same {
                    return None;
                }
            }
            k += units.len();
            sets.push(set);
        }
        Some(sets)
    }

    /// The map as n strings of n labels, the puzzle alphabet's symbols `1`–`9`, `A`–`Z` for
    /// regions 1–35 (orders up to 35), else whitespace-separated region numbers: the form
    /// [`parse_map`] reads and the JSON field `"regions"` holds.
    pub fn map_rows(&self) -> Option<Vec<String>> {
        let map = self.map.as_ref()?;
        let n = self.order;
        Some(
            map.chunks(n)
                .map(|row| {
                    if n <= LABELS.len() {
                        row.iter()
                            .map(|&r| char::from(LABELS[usize::from(r)]))
                            .collect()
                    } else {
                        row.iter()
                            .map(|&r| (usize::from(r) + 1).to_string())
                            .collect::<Vec<_>>()
                            .join(" ")
                    }
                })
                .collect(),
        )
    }
}

/// What a user asked for on top of the boxes (`--regions FILE`, `--extra diagonals`, `--extra
/// windows`, the JSON fields `"regions"` and `"extra"`), before the order of a puzzle is known:
/// [`RegionSpec::regions_for`] makes the regions of one order. Extra units come in a fixed
/// order, the diagonals first, whatever order they were asked in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct RegionSpec {
    /// A region map (interned regions with a map and no extra unit).
    pub map: Option<&'static Regions>,
    /// Both diagonals.
    pub diagonals: bool,
    /// Windoku's windows.
    pub windows: bool,
}

impl RegionSpec {
    /// The spec of a map text and extra keywords (a keyword may come once).
    ///
    /// # Errors
    /// As [`parse_map`]; [`RegionError::ExtraTwice`] for a repeated keyword.
    pub fn new(map: Option<&str>, extras: &[ExtraSet]) -> Result<RegionSpec, RegionError> {
        no_set_twice(extras)?;
        let map = match map {
            Some(text) => {
                let map = parse_map(text, None)?;
                let order = crate::shape::order_from_cells(map.len()).unwrap_or(0);
                Some(Regions::new(order, Some(map), Vec::new())?)
            }
            None => None,
        };
        Ok(RegionSpec {
            map,
            diagonals: extras.contains(&ExtraSet::Diagonals),
            windows: extras.contains(&ExtraSet::Windows),
        })
    }

    /// Whether nothing is asked for.
    pub fn is_empty(&self) -> bool {
        self.map.is_none() && !self.diagonals && !self.windows
    }

    /// The extra sets asked for, in their fixed order.
    pub fn extra_sets(&self) -> Vec<ExtraSet> {
        let mut sets = Vec::new();
        if self.diagonals {
            sets.push(ExtraSet::Diagonals);
        }
        if self.windows {
            sets.push(ExtraSet::Windows);
        }
        sets
    }

    /// The regions of order `order` this spec asks for (`None` when it asks for nothing).
    ///
    /// # Errors
    /// A map of another order; windows on an order that is not a square.
    pub fn regions_for(&self, order: usize) -> Result<Option<&'static Regions>, RegionError> {
        if self.is_empty() {
            return Ok(None);
        }
        let map = match self.map {
            Some(regions) if regions.order() != order => {
                return Err(RegionError::OrderMismatch {
                    map: regions.order(),
                    order,
                });
            }
            Some(regions) => regions.map().map(<[u16]>::to_vec),
            None => None,
        };
        Regions::new(order, map, extra_units(&self.extra_sets(), order)?).map(Some)
    }

    /// The spec that makes `regions` again.
    pub fn of(regions: &'static Regions) -> RegionSpec {
        let map = regions.map().map(|map| {
            Regions::new(regions.order(), Some(map.to_vec()), Vec::new())
                .expect("a map that was accepted once is accepted again")
        });
        let sets = regions.extra_sets().unwrap_or_default();
        RegionSpec {
            map,
            diagonals: sets.contains(&ExtraSet::Diagonals),
            windows: sets.contains(&ExtraSet::Windows),
        }
    }
}

/// The labels [`Regions::map_rows`] writes: the puzzle alphabet.
const LABELS: &[u8; 35] = b"123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// The units of the extra sets `sets` on order `order`, in the order given.
///
/// # Errors
/// A set given twice; windows on an order that is not a square.
pub fn extra_units(
    sets: &[ExtraSet],
    order: usize,
) -> Result<Vec<(ExtraName, Vec<usize>)>, RegionError> {
    no_set_twice(sets)?;
    let mut units = Vec::new();
    for set in sets {
        units.extend(set.units(order)?);
    }
    Ok(units)
}

/// [`RegionError::ExtraTwice`] for the first extra set that `sets` names twice.
fn no_set_twice(sets: &[ExtraSet]) -> Result<(), RegionError> {
    match sets
        .iter()
        .enumerate()
        .find(|&(i, set)| sets[..i].contains(set))
    {
        Some((_, set)) => Err(RegionError::ExtraTwice(set.name())),
        None => Ok(()),
    }
}

/// Each cell's region (`0..n`, numbered by first cell in row-major order) of the map text
/// `text`: n lines of n labels (see the module docs). `order`, when given, is the order the map
/// must have.
///
/// # Errors
/// Every error names the line and column in `text`: a row of the wrong length, a cell in no
/// region, more than n labels, a region without n cells, a map of the wrong order.
pub fn parse_map(text: &str, order: Option<usize>) -> Result<Vec<u16>, RegionError> {
    // (label, line, column) of every cell, row by row.
    let mut rows: Vec<Vec<(&str, usize, usize)>> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_end();
        if trimmed.trim_start().is_empty() || trimmed.trim_start().starts_with('#') {
            continue;
        }
        let labels: Vec<(&str, usize, usize)> = if trimmed.trim().contains([' ', '\t']) {
            trimmed
                .split([' ', '\t'])
                .scan(1usize, |column, token| {
                    let at = *column;
                    *column += token.chars().count() + 1;
                    Some((token, at))
                })
                .filter(|(token, _)| !token.is_empty())
                .map(|(token, column)| (token, index + 1, column))
                .collect()
        } else {
            trimmed
                .char_indices()
                .enumerate()
                .filter(|(_, (_, ch))| !ch.is_whitespace())
                .map(|(column, (at, ch))| (&trimmed[at..at + ch.len_utf8()], index + 1, column + 1))
                .collect()
        };
        rows.push(labels);
    }
    let n = rows.len();
    if n == 0 {
        return Err(RegionError::Empty);
    }
    for row in &rows {
        if row.len() != n {
            let (_, line, column) = row.get(n).or(row.last()).copied().unwrap_or(("", 0, 0));
            let column = if row.len() < n { column + 1 } else { column };
            return Err(RegionError::RowLength {
                line,
                column,
                found: row.len(),
                expected: n,
            });
        }
    }
    if let Some(order) = order.filter(|&order| order != n) {
        return Err(RegionError::OrderMismatch { map: n, order });
    }
    let mut labels: Vec<&str> = Vec::with_capacity(n);
    // Each label's region, found in O(log n) per cell.
    let mut region_of_label: std::collections::BTreeMap<&str, usize> = Default::default();
    let mut first_at: Vec<(usize, usize)> = Vec::with_capacity(n);
    let mut sizes: Vec<usize> = Vec::with_capacity(n);
    let mut map = Vec::with_capacity(n * n);
    for &(label, line, column) in rows.iter().flatten() {
        if label == "." || label == "0" {
            return Err(RegionError::NoRegion {
                line,
                column,
                label: label.to_string(),
            });
        }
        let region = match region_of_label.get(label).copied() {
            Some(region) => region,
            None => {
                if labels.len() == n {
                    return Err(RegionError::TooManyRegions {
                        line,
                        column,
                        label: label.to_string(),
                        count: n + 1,
                        order: n,
                    });
                }
                region_of_label.insert(label, labels.len());
                labels.push(label);
                first_at.push((line, column));
                sizes.push(0);
                labels.len() - 1
            }
        };
        sizes[region] += 1;
        map.push(region as u16);
    }
    for (region, &size) in sizes.iter().enumerate() {
        if size != n {
            let (line, column) = first_at[region];
            return Err(RegionError::RegionSize {
                line,
                column,
                label: labels[region].to_string(),
                size,
                order: n,
            });
        }
    }
    // n² cells in regions of exactly n cells each: there are n regions.
    Ok(map)
}

/// Every `Regions` built so far, for [`Regions::new`] to return the one equal to a new map.
fn intern(built: Regions) -> &'static Regions {
    static INTERNED: Mutex<Vec<&'static Regions>> = Mutex::new(Vec::new());
    let mut interned = INTERNED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let same = |known: &&&'static Regions| {
        known.order == built.order
            && known.map == built.map
            && known.extra_names == built.extra_names
            && known.extra_cells == built.extra_cells
    };
    if let Some(known) = interned.iter().find(same) {
        return known;
    }
    let leaked: &'static Regions = Box::leak(Box::new(built));
    interned.push(leaked);
    leaked
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 6×6 jigsaw map (regions of six cells, not boxes).
    pub(crate) const JIGSAW6: &str = "\
111222
113222
133344
533444
555664
556666
";

    #[test]
    fn a_map_numbers_regions_by_first_cell() {
        let map = parse_map(JIGSAW6, None).unwrap();
        assert_eq!(&map[..6], &[0, 0, 0, 1, 1, 1]);
        assert_eq!(map[8], 2);
        let regions = Regions::new(6, Some(map), Vec::new()).unwrap();
        assert_eq!(regions.region_of(20), Some(2));
        assert_eq!(
            (0..6)
                .map(|i| regions.region_cell(2, i))
                .collect::<Vec<_>>(),
            vec![8, 13, 14, 15, 19, 20]
        );
        assert_eq!(regions.map_rows().unwrap()[2], "133344");
    }

    #[test]
    fn equal_maps_are_one_allocation() {
        let a = Regions::from_parts(Some(JIGSAW6), &[], 6).unwrap();
        let b = Regions::from_parts(Some(&JIGSAW6.replace('1', "a")), &[], 6).unwrap();
        assert!(std::ptr::eq(a, b));
        let x = Regions::from_parts(None, &[ExtraSet::Diagonals], 6).unwrap();
        assert!(!std::ptr::eq(a, x));
        assert_eq!(x.extra_sets(), Some(vec![ExtraSet::Diagonals]));
    }

    #[test]
    fn bad_maps_name_line_and_column() {
        let short = "1122\n112\n3344\n3344\n";
        assert_eq!(
            parse_map(short, None),
            Err(RegionError::RowLength {
                line: 2,
                column: 4,
                found: 3,
                expected: 4
            })
        );
        let hole = "1122\n1.22\n3344\n3344\n";
        assert!(matches!(
            parse_map(hole, None),
            Err(RegionError::NoRegion {
                line: 2,
                column: 2,
                ..
            })
        ));
        let uneven = "1122\n1222\n3344\n3344\n";
        assert!(matches!(
            parse_map(uneven, None),
            Err(RegionError::RegionSize {
                line: 1,
                column: 1,
                size: 3,
                ..
            })
        ));
        let five = "1122\n1125\n3344\n3344\n";
        assert!(matches!(
            parse_map(five, None),
            Err(RegionError::TooManyRegions {
                line: 3,
                column: 3,
                ..
            })
        ));
        assert!(matches!(
            parse_map(JIGSAW6, Some(9)),
            Err(RegionError::OrderMismatch { map: 6, order: 9 })
        ));
        let message = parse_map(hole, None).unwrap_err().to_string();
        assert!(message.starts_with("2:2: "), "{message}");
    }

    #[test]
    fn extra_units_are_checked() {
        assert!(matches!(
            Regions::new(4, None, vec![(ExtraName::Listed(0), vec![0, 1, 1, 2])]),
            Err(RegionError::ExtraCell {
                problem: "twice",
                ..
            })
        ));
        assert!(matches!(
            Regions::new(4, None, vec![(ExtraName::Listed(0), vec![0, 1, 2])]),
            Err(RegionError::ExtraSize { size: 3, .. })
        ));
        assert!(matches!(
            Regions::new(4, None, vec![(ExtraName::Listed(0), vec![0, 1, 2, 16])]),
            Err(RegionError::ExtraCell {
                problem: "outside the grid",
                ..
            })
        ));
        assert_eq!(
            extra_units(&[ExtraSet::Windows], 6),
            Err(RegionError::WindowsOrder { order: 6 })
        );
        assert_eq!(
            extra_units(&[ExtraSet::Diagonals, ExtraSet::Diagonals], 9),
            Err(RegionError::ExtraTwice("diagonals"))
        );
    }

    #[test]
    fn windoku_has_four_windows_one_cell_in() {
        let windows = ExtraSet::Windows.units(9).unwrap();
        assert_eq!(windows.len(), 4);
        // Window 1: rows 2–4, columns 2–4 (1-based).
        assert_eq!(windows[0].1, vec![10, 11, 12, 19, 20, 21, 28, 29, 30]);
        assert_eq!(windows[3].1[0], 5 * 9 + 5);
        assert_eq!(ExtraSet::Windows.units(16).unwrap().len(), 9);
        let both = Regions::from_parts(None, &[ExtraSet::Diagonals, ExtraSet::Windows], 9).unwrap();
        assert_eq!(both.extra_count(), 6);
        assert_eq!(both.extras_of(10), &[0, 2]);
        assert_eq!(
            both.extra_sets(),
            Some(vec![ExtraSet::Diagonals, ExtraSet::Windows])
        );
    }
}
