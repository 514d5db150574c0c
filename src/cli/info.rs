//! `sudokit info FILE`: shape, givens and clashes of each puzzle.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args as ClapArgs;
use serde_json::json;

use super::batch::{self, Tally};
use super::input::InputArgs;
use super::sink::{Framing, OutputArgs, Sink};

/// Arguments of `info`.
#[derive(Debug, ClapArgs)]
#[command(
    after_help = "Examples:\n  sudokit info models/sudoku/9x9/top95.txt\n  sudokit info --json --latin models/latin/partial.txt"
)]
pub struct Args {
    /// Puzzle file (`-` for standard input).
    file: PathBuf,
    #[command(flatten)]
    input: InputArgs,
    /// One JSON object per puzzle.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    output: OutputArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut options = args.input.read_options();
    // Clashing givens are what `info` reports, not a reason to refuse the puzzle.
    options.reject_clashes = false;
    // Whole results only reach the output, so an interrupted run leaves a valid prefix.
    let sink = Sink::buffered(&args.output, Framing::Lines, "puzzles")?;
    let mut tally = Tally::default();
    let mut out = Vec::new();
    let mut items = batch::puzzles(&args.file, options)?;
    // --resume: the puzzles already described in the output.
    let skipped = sink.skip();
    items.by_ref().take(skipped).for_each(drop);
    for item in items {
        tally.total += 1;
        out.clear();
        let line = batch::line_of(&item);
        match item {
            Err(e) => {
                tally.bad_input += 1;
                batch::write_read_error(&mut out, args.json, &args.file, &e)?;
            }
            Ok(record) => {
                let grid = &record.grid;
                let shape = grid.shape();
                let clash = grid.first_clash();
                if args.json {
                    let value = json!({
                        "line": record.line,
                        "order": shape.order(),
                        "box": (!shape.is_latin()).then(|| [shape.box_rows(), shape.box_cols()]),
                        "latin": shape.is_latin(),
                        "givens": grid.filled(),
                        "empty": shape.cells() - grid.filled(),
                        "clash": clash.map(|c| c.to_string()),
                    });
                    batch::write_json(&mut out, &value)?;
                } else {
                    let clash_text =
                        clash.map_or("no clash".to_string(), |c| format!("clash: {c}"));
                    writeln!(
                        out,
                        "line {}: {shape}, {} givens, {clash_text}",
                        record.line,
                        grid.filled()
                    )?;
                }
            }
        }
        sink.write(&String::from_utf8_lossy(&out), line)?;
    }
    sink.finish(true)?;
    if skipped == 0 {
        tally.require_some(&args.file)?;
    }
    tally.report_bad_input("puzzles");
    Ok(tally.exit_code())
}
