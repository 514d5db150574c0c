//! The malformed-input suite: each case gives a clear message naming the line and column (where
//! there is one), exit code 2, and never a panic.

use crate::common::{assert_no_panic, run, s, stderr, stdout, temp_file};

/// One bad input: the command line, standard input, and a piece of text the output must contain.
struct Case {
    name: &'static str,
    args: Vec<String>,
    stdin: Vec<u8>,
    expect: String,
    code: i32,
}

fn info(name: &'static str, stdin: impl Into<Vec<u8>>, expect: impl Into<String>) -> Case {
    Case {
        name,
        args: vec!["info".into(), "-".into()],
        stdin: stdin.into(),
        expect: expect.into(),
        code: 2,
    }
}

fn with_args(mut case: Case, extra: &[&str]) -> Case {
    case.args.extend(extra.iter().map(|a| a.to_string()));
    case
}

const NINE: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

fn cases() -> Vec<Case> {
    let mut long_line = vec![b'1'; 10_000_000];
    long_line.push(b'\n');
    let huge_block = {
        let row = vec!["."; 1100].join(" ");
        format!("{row}\n")
    };
    let missing = temp_file("does-not-exist-dir-marker", b"").with_file_name("no-such-file.txt");
    vec![
        info("empty input", "", "no puzzles found"),
        info(
            "only comments and blanks",
            "# a comment\n\n   \n# another\n",
            "no puzzles found",
        ),
        info(
            "80 symbols",
            &NINE[..80],
            "-:1:81: the line has 80 symbols, which is not n² for any order n",
        ),
        info(
            "82 symbols",
            format!("{NINE}.\n"),
            "-:1:83: the line has 82 symbols, which is not n²",
        ),
        info(
            "lower-case letter in a 16×16",
            format!("a{}\n", ".".repeat(255)),
            "-:1:1: symbol 'a' is not a value: letters are upper case",
        ),
        info(
            "value larger than the order in 4×4",
            "1..5............\n",
            "-:1:4: value 5 is larger than the order 4",
        ),
        info(
            "letter value in a 9×9",
            format!("G{}\n", &NINE[1..]),
            "-:1:1: value 16 is larger than the order 9",
        ),
        info(
            "full-width digit",
            format!("{}５{}\n", &NINE[..4], &NINE[5..]),
            "-:1:5: symbol '５' is not a value",
        ),
        info(
            "emoji before a bad symbol counts as one column",
            "🙂...............\n",
            "-:1:1: symbol '🙂' is not a value",
        ),
        with_args(
            info(
                "a space inside a puzzle line",
                format!("{} {}\n", &NINE[..40], &NINE[41..]),
                "-:1:41: ' ' inside a puzzle line: a puzzle line has no spaces",
            ),
            &["--format", "line"],
        ),
        info(
            "10 MB line",
            long_line,
            "-:1:10000001: the line has 10000000 symbols, which is not n²",
        ),
        info(
            "order above the line alphabet",
            format!("{}\n", ".".repeat(36 * 36)),
            "-:1:1: a puzzle line of 36×36 needs values above Z = 35",
        ),
        info(
            "a grid block too large to model",
            huge_block,
            "-:1:2049: order 1100 is larger than the maximum 1024",
        ),
        with_args(
            info(
                "box shape that does not fit",
                format!("{NINE}\n"),
                "-:1:82: boxes of 2×3 do not fit order 9",
            ),
            &["--box", "2x3"],
        ),
        with_args(
            info(
                "non-square length with a box shape",
                "123456\n",
                "-:1:7: the line has 6 symbols, the requested shape needs 36",
            ),
            &["--box", "2x3"],
        ),
        info(
            "non-UTF-8 byte",
            b"12\xff4............\n".to_vec(),
            "-:1:3: the line is not valid UTF-8",
        ),
        info(
            "NUL byte",
            b"12\x004............\n".to_vec(),
            "-:1:3: symbol '\\0' is not a value",
        ),
        info(
            "JSON with a string where a number belongs",
            r#"{"box":[3,"3"],"grid":"..."}"#,
            "-:1:13: JSON: invalid type: string \"3\", expected usize",
        ),
        info(
            "JSON with a misspelt field",
            r#"{"box":[2,2],"grird":"................"}"#,
            "-:1:20: JSON: unknown key \"grird\": a puzzle has box, latin, order, regions, extra, grid, givens",
        ),
        info(
            "JSON without a puzzle",
            r#"{"box":[2,2]}"#,
            "-:1:1: JSON: a puzzle needs \"grid\" or \"givens\"",
        ),
        info("JSON truncated", "{\"box\":[2,2],\"grid\":\"....\n", "-:1:"),
        info(
            "JSON without grid or givens",
            r#"{"box":[2,2]}"#,
            "-:1:1: JSON: a puzzle needs \"grid\" or \"givens\"",
        ),
        info(
            "JSON given outside the grid",
            r#"{"box":[3,3],"givens":[[10,1,1]]}"#,
            "JSON: given [10,1,1]: row and column must be in 1..=9",
        ),
        info(
            "JSON given value zero",
            r#"{"box":[3,3],"givens":[[1,1,0]]}"#,
            "JSON: given [1,1,0]: value must be in 1..=9",
        ),
        info(
            "JSON givens with no shape",
            r#"{"givens":[[1,1,1]]}"#,
            "JSON: \"givens\" needs the shape",
        ),
        info(
            "JSON array instead of an object",
            "{\"box\":[2,2],\"grid\":[1,2]}",
            "-:1:20: JSON: invalid type: sequence, expected a string",
        ),
        info(
            "JSON box too large",
            r#"{"box":[40,40],"givens":[]}"#,
            "order 1600 is larger than the maximum 1024",
        ),
        info(
            "grid block with a short row",
            "1 2 3 4\n3 4 1\n. . . .\n. . . .\n",
            "-:2:6: row 2 of the grid block has 3 values, the first row has 4",
        ),
        info(
            "grid block cut short",
            "1 2 3 4\n3 4 1 2\n",
            "-:3:1: the grid block has 2 rows, but its rows have 4 values",
        ),
        info(
            "grid block with a bad token",
            "1 2 3 4\n3 x 1 2\n. . . .\n. . . .\n",
            "-:2:3: symbol 'x' is not a value",
        ),
        info(
            "grid block with a negative number",
            "1 2 3 4\n3 4 1 -2\n. . . .\n. . . .\n",
            "-:2:7: symbol '-2' is not a value",
        ),
        Case {
            name: "clashing givens are bad input for verify",
            args: vec![
                "verify".into(),
                "-".into(),
                "models/sudoku/4x4/kr_4x4_sample.solutions.txt".into(),
            ],
            stdin: b"1..1............\n".to_vec(),
            expect: "-:1:4: clashing givens: row 1 has 1 twice: at (1,1) and (1,4)".into(),
            code: 2,
        },
        Case {
            name: "box clash",
            args: vec![
                "verify".into(),
                "-".into(),
                "models/sudoku/4x4/kr_4x4_sample.solutions.txt".into(),
            ],
            stdin: b"1....1..........\n".to_vec(),
            expect: "-:1:6: clashing givens: box 1 has 1 twice: at (1,1) and (2,2)".into(),
            code: 2,
        },
        Case {
            name: "missing file",
            args: vec!["info".into(), s(&missing).to_string()],
            stdin: vec![],
            expect: "cannot open".into(),
            code: 2,
        },
        Case {
            name: "both files on standard input",
            args: vec!["verify".into(), "-".into(), "-".into()],
            stdin: vec![],
            expect: "only one input can be standard input".into(),
            code: 2,
        },
        Case {
            name: "box shape with a zero side",
            args: vec!["info".into(), "--box".into(), "0x3".into(), "-".into()],
            stdin: vec![],
            expect: "box sides must be at least 1".into(),
            code: 2,
        },
        Case {
            name: "box shape that is not PxQ",
            args: vec!["info".into(), "--box".into(), "three".into(), "-".into()],
            stdin: vec![],
            expect: "expected PxQ".into(),
            code: 2,
        },
        Case {
            name: "--box and --latin together",
            args: vec![
                "info".into(),
                "--box".into(),
                "2x2".into(),
                "--latin".into(),
                "-".into(),
            ],
            stdin: vec![],
            expect: "cannot be used with".into(),
            code: 2,
        },
        Case {
            name: "unknown subcommand",
            args: vec!["frobnicate".into()],
            stdin: vec![],
            expect: "unrecognized subcommand".into(),
            code: 2,
        },
    ]
}

/// A case for any command: `args` (with `-` for standard input where a file goes), `stdin`,
/// the expected text and exit code.
fn cmd(
    name: &'static str,
    args: &[&str],
    stdin: impl Into<Vec<u8>>,
    expect: impl Into<String>,
    code: i32,
) -> Case {
    Case {
        name,
        args: args.iter().map(|a| a.to_string()).collect(),
        stdin: stdin.into(),
        expect: expect.into(),
        code,
    }
}

const EASY: &str = "models/sudoku/9x9/easy.txt";
const FOUR: &str = "models/sudoku/4x4/kr_4x4_sample.txt";

/// Every command and format beyond `info`'s readers: options, solver answers, limits, exports.
fn more_cases() -> Vec<Case> {
    let four = "1.3.....4....2..\n";
    let answer = |name: &str, text: &[u8]| s(&temp_file(name, text)).to_string();
    let truncated_sat = answer("truncated.out", b"s SATISFIABLE\nv 1 -2\n");
    let no_status = answer("nostatus.out", b"v 1 -2 0\n");
    let bad_minisat = answer("minisat.out", b"SAT\n1 2 x 0\n");
    let glpsol = answer("glpsol.sol", b"garbage\n");
    let cbc = answer("cbc.sol", b"garbage\n");
    let both_signs = answer("both.out", b"s SATISFIABLE\nv 1 -1 0\n");
    let huge = r#"{"box":[10,10],"givens":[]}"#;
    let mut long_line = vec![b'1'; 65 << 20];
    long_line.push(b'\n');
    vec![
        // solve
        cmd(
            "solve: unknown backend",
            &["solve", "--backend", "nosuch", "-"],
            four,
            "unknown backend nosuch (available: native",
            2,
        ),
        cmd(
            "solve: zero time limit",
            &["solve", "--time-limit", "0", "-"],
            four,
            "--time-limit must be a positive number of seconds, not 0",
            2,
        ),
        cmd(
            "solve: zero threads",
            &["solve", "--threads", "0", "-"],
            four,
            "--threads must be at least 1",
            2,
        ),
        cmd(
            "solve: zero --timeout",
            &["solve", "--timeout", "0", "-"],
            four,
            "--timeout must be a positive number of seconds, not 0",
            2,
        ),
        cmd(
            "solve: --timeout not a number",
            &["solve", "--timeout", "abc", "-"],
            four,
            "invalid value 'abc' for '--timeout <SECONDS>'",
            2,
        ),
        cmd(
            "solve: --scheme without cp",
            &["solve", "--scheme", "HAC", "-"],
            four,
            "--scheme goes with --backend cp, not native",
            2,
        ),
        cmd(
            "solve: --resume without -o",
            &["solve", "--resume", "-"],
            four,
            "--output <FILE>",
            2,
        ),
        cmd(
            "solve: --max-n 0",
            &["solve", "--max-n", "0", "-"],
            four,
            "--max-n must be at least 1",
            2,
        ),
        cmd(
            "solve: puzzle above --max-n",
            &["solve", "--max-n", "4", EASY],
            "",
            "error: models/sudoku/9x9/easy.txt:1:1: backend native (--max-n 4) handles orders up to 4, the puzzle has order 9",
            2,
        ),
        cmd(
            "solve: clashing givens",
            &["solve", "-"],
            "1..1............\n",
            "error: -:1:4: clashing givens: row 1 has 1 twice",
            2,
        ),
        cmd(
            "solve: -o into a missing directory",
            &["solve", "-", "-o", "/nonexistent-dir/x.txt"],
            four,
            "cannot open /nonexistent-dir/x.txt.partial",
            2,
        ),
        cmd(
            "solve: JSON box sides whose product overflows",
            &["solve", "-"],
            r#"{"box":[4294967296,4294967296],"grid":"12"}"#,
            "-:1:42: the line has 2 symbols",
            2,
        ),
        cmd(
            "solve: a 65 MiB line",
            &["solve", "-"],
            long_line,
            "-:1:1: the line is longer than 64 MiB",
            2,
        ),
        // count
        cmd(
            "count: nothing to count",
            &["count"],
            "",
            "give a puzzle FILE, or --box PxQ (or --latin --order N) for the empty grid",
            2,
        ),
        cmd(
            "count: --limit 0",
            &["count", "--limit", "0", "--box", "2x2"],
            "",
            "--limit must be at least 1",
            2,
        ),
        cmd(
            "count: --order N that does not match",
            &["count", "--latin", "--order", "4", EASY],
            "",
            "models/sudoku/9x9/easy.txt:1:1: --order 4 but the puzzle has order 9",
            2,
        ),
        // bench
        cmd(
            "bench: unknown backend",
            &["bench", "--backends", "nosuch", EASY],
            "",
            "unknown backend nosuch",
            2,
        ),
        cmd(
            "bench: puzzle above --max-n",
            &["bench", "--max-n", "4", EASY],
            "",
            "backend native (--max-n 4) handles orders up to 4, the puzzle has order 9",
            2,
        ),
        // export
        cmd(
            "export: --encoding with --to lp",
            &["export", EASY, "--to", "lp", "--encoding", "minimal"],
            "",
            "--encoding goes with --to cnf (minimal, efficient, extended, optimized) and --to smt2 (bool, int) only, not with lp",
            2,
        ),
        cmd(
            "export: a CNF encoding for smt2",
            &["export", EASY, "--to", "smt2", "--encoding", "optimized"],
            "",
            "unknown SMT encoding optimized (known: bool, int)",
            2,
        ),
        cmd(
            "export: --index 0",
            &["export", EASY, "--to", "cnf", "--index", "0"],
            "",
            "--index counts from 1",
            2,
        ),
        cmd(
            "export: several puzzles, no --index",
            &["export", EASY, "--to", "cnf"],
            "",
            "has several puzzles: pick one with --index N",
            2,
        ),
        cmd(
            "export: --index past the end",
            &["export", EASY, "--to", "cnf", "--index", "99"],
            "",
            "has 10 puzzles, not 99",
            2,
        ),
        cmd(
            "export: pairwise CNF of 100×100 above the cap",
            &["export", "-", "--to", "cnf"],
            huge,
            "the CNF (extended/pairwise) of the 100×100 puzzle on line 1 would be about 3.7 GiB (estimated before writing), above the cap of 1.0 GiB; raise it with --max-size 8G",
            2,
        ),
        cmd(
            "export: LP of 100×100 above a small cap",
            &["export", "-", "--to", "lp", "--max-size", "10M"],
            huge,
            "above the cap of 10.0 MiB; raise it with --max-size",
            2,
        ),
        cmd(
            "export: --max-size with a bad unit",
            &["export", EASY, "--to", "cnf", "--max-size", "2X"],
            "",
            "\"2X\" is not a size: the units are K, M, G, T",
            2,
        ),
        // decode: SAT and MIP answers
        cmd(
            "decode: truncated SAT model",
            &["decode", "-", "--from", "dimacs", &truncated_sat],
            four,
            "the model ends without its final 0 (truncated answer?)",
            2,
        ),
        cmd(
            "decode: SAT answer without an s line",
            &["decode", "-", "--from", "dimacs", &no_status],
            four,
            ":1:1: a model line before the status line",
            2,
        ),
        cmd(
            "decode: variable both true and false",
            &["decode", "-", "--from", "dimacs", &both_signs],
            four,
            ":2:5: variable 1 is both true and false",
            2,
        ),
        cmd(
            "decode: minisat token that is not a literal",
            &["decode", "-", "--from", "minisat", &bad_minisat],
            four,
            ":2:5: 'x' is not a literal",
            2,
        ),
        cmd(
            "decode: glpsol report without status",
            &["decode", "-", "--from", "glpsol", &glpsol],
            four,
            ":2:1: no status line (empty or truncated solution file?)",
            2,
        ),
        cmd(
            "decode: cbc file with an unknown status",
            &["decode", "-", "--from", "cbc", &cbc],
            four,
            ":1:1: unknown status 'garbage'",
            2,
        ),
        cmd(
            "decode: missing answer file",
            &["decode", "-", "--from", "dimacs", "/nonexistent-answer.out"],
            four,
            "cannot open /nonexistent-answer.out",
            2,
        ),
        // grade, generate-latin, render, reduce
        cmd(
            "grade: unknown scheme",
            &["grade", "--schemes", "BOGUS", EASY],
            "",
            "--schemes: unknown scheme 'BOGUS' (known: FC,",
            2,
        ),
        cmd(
            "grade: zero time limit",
            &["grade", "--time-limit", "0", EASY],
            "",
            "--time-limit must be a positive number of seconds",
            2,
        ),
        cmd(
            "generate-latin: order 0",
            &["generate-latin", "--order", "0"],
            "",
            "sudokit: the order and the box sides must be at least 1\n",
            2,
        ),
        cmd(
            "generate-latin: order above the maximum",
            &["generate-latin", "--order", "5000"],
            "",
            "sudokit: order 5000 is larger than the maximum 1024\n",
            2,
        ),
        cmd(
            "generate-latin: more holes than cells",
            &["generate-latin", "--order", "5", "--holes", "99"],
            "",
            "99 cells asked for, but an order-5 square has 25",
            2,
        ),
        cmd(
            "render: cell size out of range",
            &["render", "--cell", "0", FOUR, "--index", "1"],
            "",
            "--cell must be between 4 and 200 pixels",
            2,
        ),
        cmd(
            "reduce latin: the Sudoku cannot be a puzzle line",
            &["reduce", "latin", "--to", "sudoku", EASY],
            "",
            "the Sudoku of order 81 cannot be a puzzle line (values above Z = 35); use --form block or --json",
            2,
        ),
    ]
}

/// One rule for an input without puzzles, clashes as bad input everywhere, JSON input read
/// strictly, and numbers reported as written.
fn exit_code_cases() -> Vec<Case> {
    let empty = "# only a comment\n\n";
    let competition = s(&temp_file("competition.out", b"s SATISFIABLE\nv 1 -2 0\n")).to_string();
    let minisat = s(&temp_file("minisat-result.out", b"SAT\n1 -2 0\n")).to_string();
    let no_puzzles = "-: no puzzles found";
    let mut all: Vec<Case> = [
        vec!["solve", "-"],
        vec!["count", "-"],
        vec!["bench", "-"],
        vec!["info", "-"],
        vec!["grade", "-"],
        vec!["minimize", "-"],
        vec!["crosscheck", "-"],
        vec!["export", "--to", "cnf", "-"],
        vec!["render", "-"],
        vec!["reduce", "latin", "-"],
        vec!["reduce", "latin", "--solve", "-"],
        vec!["verify", "-", FOUR],
    ]
    .into_iter()
    .map(|args| {
        cmd(
            "empty input",
            &args,
            empty,
            no_puzzles.replace('-', "standard input"),
            2,
        )
    })
    .collect();
    all.extend([
        cmd(
            "info: clashing givens are described and count as bad input",
            &["info", "-"],
            "1..1............\n",
            "clash: row 1 has 1 twice: at (1,1) and (1,4)",
            2,
        ),
        cmd(
            "JSON: an unknown key",
            &["solve", "-"],
            r#"{"order":4,"Latin":true,"givens":[]}"#,
            r#"-:1:18: JSON: unknown key "Latin": a puzzle has box, latin, order, regions, extra, grid, givens"#,
            2,
        ),
        cmd(
            "JSON: a cell given twice, even with the same value",
            &["solve", "-"],
            r#"{"order":4,"givens":[[1,1,1],[1,1,1]]}"#,
            "JSON: cell (1,1) is given twice",
            2,
        ),
        cmd(
            "JSON: a value too large for any order, as written",
            &["solve", "-"],
            r#"{"order":4,"givens":[[1,1,99999999999999999999]]}"#,
            "-:1:46: JSON: number 99999999999999999999 is not a whole number from 0 to 1024",
            2,
        ),
        cmd(
            "JSON: box sides whose product overflows, as written",
            &["solve", "-"],
            r#"{"box":[4294967296,4294967296],"givens":[]}"#,
            "JSON: boxes of 4294967296×4294967296 make an order larger than the maximum 1024",
            2,
        ),
        cmd(
            "grasp: a bad value names the option and its range",
            &["solve", "--backend", "grasp:alpha=0", FOUR],
            "",
            r#"grasp option alpha: "0" is not a valid value (expected a whole number from 1 to"#,
            2,
        ),
        cmd(
            "a Latin square read as a Sudoku: the box clash hints at --latin",
            &["solve", "-"],
            "1234214334124321\n",
            "box 1 has 2 twice: at (1,2) and (2,1) (no row or column repeats a value: if this is a Latin square, read it with --latin)",
            2,
        ),
        cmd(
            "decode --from minisat given a SAT-competition answer",
            &["decode", FOUR, "--index", "1", "--from", "minisat", &competition],
            "",
            "this looks like a SAT-competition answer ('s' and 'v' lines): read it with --from dimacs",
            2,
        ),
        cmd(
            "decode --from dimacs given minisat's result file",
            &["decode", FOUR, "--index", "1", "--from", "dimacs", &minisat],
            "",
            "this looks like minisat's result file (SAT, UNSAT or INDET first): read it with --from minisat",
            2,
        ),
        cmd(
            "decode of several puzzles without --index",
            &["decode", FOUR, "--from", "dimacs", &competition],
            "",
            "has several puzzles: pick one with --index N\n",
            2,
        ),
        cmd(
            "grade: no puzzle graded, no tables",
            &["grade", "-"],
            "12x4\n",
            "sudokit: 1 of 1 puzzles gave an error",
            2,
        ),
        cmd(
            "reduce latin --solve: an unwritable --report is an error before any work",
            &[
                "reduce",
                "latin",
                "--solve",
                "--report",
                "/nonexistent-dir/r.html",
                "-",
            ],
            "1...\n",
            "cannot write /nonexistent-dir/r.html",
            2,
        ),
    ]);
    all
}

#[test]
fn every_malformed_input_gets_its_message_and_exit_code_2() {
    let mut all = cases();
    all.extend(more_cases());
    all.extend(exit_code_cases());
    assert!(all.len() >= 60, "{} cases", all.len());
    let mut failures = Vec::new();
    for case in all {
        let args: Vec<&str> = case.args.iter().map(String::as_str).collect();
        let out = run(&args, &case.stdin);
        assert_no_panic(&out);
        let text = format!("{}{}", stdout(&out), stderr(&out));
        if out.status.code() != Some(case.code) || !text.contains(&case.expect) {
            failures.push(format!(
                "{}: exit {:?}, expected {} and {:?}; got:\n{}",
                case.name,
                out.status.code(),
                case.code,
                case.expect,
                text.chars().take(400).collect::<String>()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn accepted_variants_zero_crlf_trailing_spaces() {
    let zeros = NINE.replace('.', "0");
    let input = format!(
        "{zeros}\r\n  {NINE}  \r\n{}\t\n",
        NINE.replacen('.', "0", 5)
    );
    let out = run(&["info", "-"], input.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out)
            .lines()
            .filter(|l| l.contains("17 givens"))
            .count(),
        3
    );
}

#[test]
fn a_mixed_file_reports_every_bad_line_in_order_and_reads_the_good_ones() {
    let input = format!(
        "{NINE}\n123\n# skipped\n{NINE}\n{}x\n\n{NINE}\n",
        &NINE[..80]
    );
    let out = run(&["info", "-"], input.as_bytes());
    assert_eq!(out.status.code(), Some(2));
    let lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 5);
    assert!(lines[0].starts_with("line 1: 9×9"));
    assert!(lines[1].starts_with("error: -:2:4:"), "{}", lines[1]);
    assert!(lines[2].starts_with("line 4: 9×9"));
    assert!(
        lines[3].starts_with("error: -:5:81: symbol 'x'"),
        "{}",
        lines[3]
    );
    assert!(lines[4].starts_with("line 7: 9×9"));
    assert!(stderr(&out).contains("2 of 5 puzzles gave an error"));
}

#[test]
fn a_box_flag_that_contradicts_a_json_puzzle_is_bad_input() {
    // `--box 2x2` was ignored for a JSON puzzle that says it is a Latin square.
    let latin = b"{\"latin\":true,\"order\":4,\"givens\":[[1,1,1]]}\n";
    for command in ["solve", "count"] {
        let out = crate::common::run(&[command, "--box", "2x2", "-"], latin);
        assert_eq!(out.status.code(), Some(2), "{command}");
        assert!(
            crate::common::stdout(&out)
                .contains("--box 2x2 contradicts the puzzle's own shape (\"latin\":true)"),
            "{command}: {}",
            crate::common::stdout(&out)
        );
    }
}
