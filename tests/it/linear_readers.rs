//! Every answer reader is linear in its answer: a 64×64 model (262,144 literals on one `v` line
//! for the SAT forms) decodes through each, and doubling the order multiplies the work by the
//! growth of the answer (×8 for the n³ forms, ×4 for the n² ones), never by its square.
//!
//! The figures are asserted as a ratio between two sizes in one run, with a margin for a loaded
//! machine, and, for the 64×64 model of the release suite, as a bound of 4 s per reader: a
//! quadratic reader took 33 s there, the linear ones take 0.1–0.4 s.

use std::time::{Duration, Instant};

use sudokit::encode::exact_cover::Item;
use sudokit::format::dlx1::item_name;
use sudokit::format::{Decoded, ExportOptions, decode_answer, find_reader};
use sudokit::{Grid, Shape};

/// A complete grid of order `m²` (boxes m×m): the pattern `(m·(r mod m) + ⌊r/m⌋ + c) mod n`.
fn pattern(m: usize) -> Grid {
    let n = m * m;
    let shape = Shape::sudoku(m, m).unwrap();
    let mut grid = Grid::empty(shape);
    for r in 0..n {
        for c in 0..n {
            grid.set(shape.cell(r, c), Some((m * (r % m) + r / m + c) % n));
        }
    }
    grid
}

/// `grid`'s answer in the form `reader` reads, to the empty puzzle of its shape (every cell
/// open, so every export holds every variable).
fn answer(reader: &str, grid: &Grid) -> String {
    let shape = grid.shape();
    let n = shape.order();
    let value = |r: usize, c: usize| grid.get(shape.cell(r, c)).unwrap();
    let triples =
        || (0..n).flat_map(move |r| (0..n).flat_map(move |c| (0..n).map(move |v| (r, c, v))));
    let literals = |prefix: &str| -> String {
        let mut text = String::with_capacity(n * n * n * 8);
        for (k, (r, c, v)) in triples().enumerate() {
            if value(r, c) != v {
                text.push('-');
            }
            text.push_str(prefix);
            text.push_str(&(k + 1).to_string());
            text.push(' ');
        }
        text
    };
    let columns = |line: &dyn Fn(usize, String, u8) -> String| -> String {
        triples()
            .enumerate()
            .map(|(k, (r, c, v))| {
                line(
                    k + 1,
                    format!("x_{}_{}_{}", r + 1, c + 1, v + 1),
                    u8::from(value(r, c) == v),
                )
            })
            .collect()
    };
    match reader {
        "dimacs" => format!("s SATISFIABLE\nv {}0\n", literals("")),
        "minisat" => format!("SAT\n{}0\n", literals("")),
        "clasp" => format!("s SATISFIABLE\nv {}\n", literals("x")),
        "clasp-asp" => {
            let atoms: Vec<String> = (0..n)
                .flat_map(|r| {
                    (0..n).map(move |c| format!("x({},{},{})", r + 1, c + 1, value(r, c) + 1))
                })
                .collect();
            format!("Answer: 1\n{}\nSATISFIABLE\n", atoms.join(" "))
        }
        "smt2" => {
            let pairs: Vec<String> = (0..n)
                .flat_map(|r| {
                    (0..n).map(move |c| format!("(c_{}_{} {})", r + 1, c + 1, value(r, c) + 1))
                })
                .collect();
            format!("sat\n({})\n", pairs.join(" "))
        }
        "glpsol" => format!(
            "Status:     INTEGER OPTIMAL\n\n   No. Column name       Activity     Lower bound   Upper bound\n------ ------------    ------------- ------------- -------------\n{}\nInteger feasibility conditions:\n",
            columns(&|k, name, x| format!("{k:>6} {name:<12} * {x:>13} 0 1\n"))
        ),
        "cbc" => format!(
            "Optimal - objective value 0.00000000\n{}",
            columns(&|k, name, x| format!("{k} {name} {x} 0\n"))
        ),
        "lp_solve" => format!(
            "\nValue of objective function: 0\n\nActual values of the variables:\n{}\nActual values of the constraints:\n",
            columns(&|_, name, x| format!("{name} {x}\n"))
        ),
        "highs" => format!(
            "Model status\nOptimal\n\n# Primal solution values\nFeasible\nObjective 0\n# Columns {}\n{}# Rows 0\n",
            n * n * n,
            columns(&|_, name, x| format!("{name} {x}\n"))
        ),
        "scip" => format!(
            "solution status: optimal solution found\nobjective value: 0\n{}",
            columns(&|_, name, x| if x == 1 {
                format!("{name} 1 \t(obj:0)\n")
            } else {
                String::new()
            })
        ),
        "minizinc" => {
            let rows: Vec<String> = (0..n)
                .map(|r| {
                    (0..n)
                        .map(|c| (value(r, c) + 1).to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .collect();
            format!("x = [| {} |];\n----------\n", rows.join(" | "))
        }
        "dlx" => {
            let mut text = String::new();
            for r in 0..n {
                for c in 0..n {
                    let v = value(r, c);
                    let b = shape.box_of(r, c);
                    let items = [
                        Item::Cell { r, c },
                        Item::RowValue { r, v },
                        Item::ColValue { c, v },
                        Item::BoxValue { b, v },
                    ];
                    let names: Vec<String> = items.iter().map(|&i| item_name(i, n)).collect();
                    text += &format!("{};\n", names.join(" "));
                }
            }
            text + "\nFound 1 solutions!\n"
        }
        "col" => (0..n)
            .flat_map(|r| (0..n).map(move |c| format!("{} {}\n", r * n + c + 1, value(r, c) + 1)))
            .collect(),
        other => panic!("no generator for {other}"),
    }
}

/// The best of five decodings of `grid`'s answer through `reader`, checked to give the grid.
fn decode_time(reader: &str, grid: &Grid) -> Duration {
    let text = answer(reader, grid);
    let name = if reader == "clasp-asp" {
        "clasp"
    } else {
        reader
    };
    let reader_entry = find_reader(name).unwrap();
    let empty = Grid::empty(grid.shape());
    (0..5)
        .map(|_| {
            let start = Instant::now();
            let decoded = decode_answer(
                &empty,
                reader_entry,
                &ExportOptions::default(),
                &mut text.as_bytes(),
            )
            .unwrap_or_else(|e| panic!("{reader}: {e}"));
            let elapsed = start.elapsed();
            assert_eq!(decoded, Decoded::Solution(grid.clone()), "{reader}");
            elapsed
        })
        .min()
        .unwrap()
}

/// Decodes a model of order `small²` and one of order `large²` through every reader, and asserts
/// that the time grew like the answer, within a factor `margin` (a quadratic reader grows by the
/// square of the answer's growth), and that the large one took under `seconds`.
fn readers_are_linear(small: usize, large: usize, margin: f64, seconds: f64) {
    let (small, large) = (pattern(small), pattern(large));
    let readers = [
        "dimacs",
        "minisat",
        "clasp",
        "clasp-asp",
        "smt2",
        "glpsol",
        "cbc",
        "lp_solve",
        "highs",
        "scip",
        "minizinc",
        "dlx",
        "col",
    ];
    let scale = large.shape().order() as f64 / small.shape().order() as f64;
    for reader in readers {
        // The answers hold n³ values (n² for the forms that name one value per cell).
        let growth = match reader {
            "clasp-asp" | "smt2" | "minizinc" | "dlx" | "col" => scale.powi(2),
            _ => scale.powi(3),
        };
        let t_small = decode_time(reader, &small).as_secs_f64().max(1e-5);
        let t_large = decode_time(reader, &large).as_secs_f64();
        let ratio = t_large / t_small;
        assert!(
            t_large < seconds,
            "{reader}: order {} took {t_large:.3} s (bound {seconds} s)",
            large.shape().order()
        );
        assert!(
            ratio < margin * growth,
            "{reader}: order {} took {t_large:.3} s, {ratio:.0} times order {} ({t_small:.4} s); linear is about {growth:.0}",
            large.shape().order(),
            small.shape().order()
        );
    }
}

#[test]
fn every_reader_is_linear_in_its_answer() {
    // Orders 16 and 36: the quick form of the release test below.
    readers_are_linear(4, 6, 4.0, 10.0);
}

/// A 64×64 model through every reader (a 262,144-literal `v` line for the SAT forms), against
/// a 16×16 one. Run in release by `.ci/run`. The 16×16 answer decodes in under a millisecond,
/// so on a loaded machine the ratio varies by several times (280× and 640× were seen for the
/// DIMACS reader, where the answer grows 64×): the ratio's margin is 16 (a quadratic SAT reader
/// grows 4096×), and the absolute bound of 4 s (10× the slowest decode seen on a loaded machine) is what tells the readers apart (the quadratic
/// minisat reader took 33 s on this model, the linear ones 0.1–0.4 s).
#[test]
#[ignore = "release suite: cargo test --release --test it -- --ignored linear_readers"]
fn every_reader_decodes_a_64_by_64_model_in_linear_time() {
    readers_are_linear(4, 8, 16.0, 4.0);
}
