//! Property tests: every writer/reader pair of `text` gives back the grid it was given.

use proptest::prelude::*;
use sudokit::text::{
    PuzzleReader, ReadOptions, ShapeSpec, TextLayout, parse_json, parse_line, to_block, to_json,
    to_line,
};
use sudokit::{Grid, Shape};

/// A random shape (Sudoku p×q or Latin) and a random fill: each cell empty or any value, clashes
/// allowed, so the readers are tested on grids no solver would make.
fn grids(max_side: usize, max_latin: usize) -> impl Strategy<Value = Grid> {
    let sudoku = (1..=max_side, 1..=max_side).prop_map(|(p, q)| Shape::sudoku(p, q).unwrap());
    let latin = (1..=max_latin).prop_map(|n| Shape::latin(n).unwrap());
    prop_oneof![sudoku, latin].prop_flat_map(|shape| {
        let n = shape.order();
        proptest::collection::vec(proptest::option::weighted(0.6, 0..n), shape.cells())
            .prop_map(move |cells| Grid::from_cells(shape, &cells))
    })
}

fn spec(shape: Shape) -> ShapeSpec {
    if shape.is_latin() {
        ShapeSpec::Latin
    } else {
        ShapeSpec::Box(shape.box_rows(), shape.box_cols())
    }
}

fn lenient(format: TextLayout, shape: Shape) -> ReadOptions {
    ReadOptions {
        format,
        shape: Some(spec(shape)),
        reject_clashes: false,
        defer_line_clashes: false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn puzzle_lines_round_trip(grid in grids(5, 35)) {
        let shape = grid.shape();
        let line = to_line(&grid).expect("orders up to 35 have a line");
        prop_assert_eq!(line.chars().count(), shape.cells());
        prop_assert_eq!(&parse_line(&line, Some(spec(shape))).unwrap(), &grid);
        let read: Vec<_> = PuzzleReader::new(format!("{line}\r\n").as_bytes(), lenient(TextLayout::Line, shape)).collect();
        prop_assert_eq!(&read[0].as_ref().unwrap().grid, &grid);
    }

    #[test]
    fn grid_blocks_round_trip(grid in grids(7, 48)) {
        let shape = grid.shape();
        let text = format!("{}\n{}", to_block(&grid), to_block(&grid));
        let read: Vec<_> = PuzzleReader::new(text.as_bytes(), lenient(TextLayout::Block, shape)).collect();
        prop_assert_eq!(read.len(), 2);
        for item in read {
            prop_assert_eq!(&item.unwrap().grid, &grid);
        }
    }

    #[test]
    fn json_round_trips(grid in grids(7, 48)) {
        let text = to_json(&grid).to_string();
        prop_assert_eq!(&parse_json(&text, None).unwrap(), &grid);
    }
}

#[test]
fn a_36_by_36_grid_round_trips_through_blocks_and_json() {
    let shape = Shape::sudoku(6, 6).unwrap();
    let n = shape.order();
    let mut grid = Grid::empty(shape);
    for r in 0..n {
        for c in 0..n {
            grid.set(shape.cell(r, c), Some((6 * (r % 6) + r / 6 + c) % n));
        }
    }
    assert!(to_line(&grid).is_none());
    let read: Vec<_> =
        PuzzleReader::new(to_block(&grid).as_bytes(), ReadOptions::default()).collect();
    assert_eq!(read[0].as_ref().unwrap().grid, grid);
    assert_eq!(parse_json(&to_json(&grid).to_string(), None).unwrap(), grid);
}
