//! `sudokit info FILE...`: shape, givens and clashes of each puzzle.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::bail;
use std::process::ExitCode;

use clap::Args as ClapArgs;
use serde_json::json;
use sudokit::text::Record;

use super::batch::{self, Answer, Kind};
use super::input::InputArgs;
use super::sink::{Framing, OutputArgs, Sink};
use super::solving::cores;

/// Arguments of `info`.
#[derive(Debug, ClapArgs)]
#[command(
    after_help = "Examples:\n  sudokit info models/sudoku/9x9/top95.txt\n  sudokit info --json --latin models/latin/partial.txt\n  sudokit info models/sudoku/9x9/easy.txt models/sudoku/9x9/hard.txt\n\nWith several files, each line starts with FILE: and each JSON object has \"file\".\n\nA puzzle whose givens clash is described with its clash (`clash: row 1 has 1 twice: at (1,1)\nand (1,2)`) and, as for every command, counts as bad input.\n\nExit codes: 0 every puzzle read and free of clashes, 2 some puzzle unreadable or clashing."
)]
pub struct Args {
    /// Puzzle files (`-` for standard input).
    #[arg(required = true)]
    files: Vec<PathBuf>,
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
    let several = args.files.len() > 1;
    if several && args.output.resume {
        bail!("--resume continues a run over one input file; give the files one run each");
    }
    // Every file is opened (and checked to hold a puzzle) before any output.
    let readers = args
        .files
        .iter()
        .map(|file| batch::puzzles(file, options))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut items = readers
        .into_iter()
        .enumerate()
        .flat_map(|(k, reader)| reader.map(move |item| (k, item)));
    // Each result is written whole and flushed, so an interrupted run leaves a valid prefix and
    // `| head -1` sees the first line at once.
    let input = (!several).then(|| args.files[0].as_path());
    let sink = Sink::open_for(&args.output, Framing::Lines, "puzzles", input)?;
    // --resume: the puzzles already described in the output, each checked.
    sink.skip_kept(
        &mut items,
        args.json,
        |(_, item)| batch::line_of(item),
        |_, _| Ok(()),
    )?;
    let work = |(k, item): (usize, batch::Item)| {
        let file = &args.files[k];
        match item {
            Err(e) => Answer::read_error(args.json, file, &e),
            Ok(record) => {
                // Clashing givens are bad input for every command (exit 2); `info` still
                // describes the puzzle and names the clash in place.
                let kind = if record.grid.first_clash().is_some() {
                    Kind::Bad
                } else {
                    Kind::Positive
                };
                let named = several.then_some(file.as_path());
                Answer::written(kind, record.line, |out| {
                    describe(out, &record, args.json, named)
                })
            }
        }
    };
    let Some(tally) = batch::answer_all(cores(), &mut items, sink, work)? else {
        return Ok(ExitCode::from(1));
    };
    tally.report_bad_input("puzzles");
    Ok(tally.exit_code())
}

/// The line (or JSON object) that describes one puzzle; `file` names its file (several inputs).
fn describe(
    out: &mut Vec<u8>,
    record: &Record,
    json: bool,
    file: Option<&Path>,
) -> std::io::Result<()> {
    let grid = &record.grid;
    let shape = grid.shape();
    let clash = grid.first_clash();
    if json {
        let mut value = json!({
            "line": record.line,
            "order": shape.order(),
            "box": (!shape.is_latin()).then(|| [shape.box_rows(), shape.box_cols()]),
            "latin": shape.is_latin(),
            "givens": grid.filled(),
            "empty": shape.cells() - grid.filled(),
            "clash": clash.map(|c| c.to_string()),
        });
        if let Some(file) = file {
            value["file"] = json!(file.display().to_string());
        }
        batch::write_json(out, &value)
    } else {
        let clash_text = clash.map_or("no clash".to_string(), |c| format!("clash: {c}"));
        if let Some(file) = file {
            write!(out, "{}: ", file.display())?;
        }
        writeln!(
            out,
            "line {}: {shape}, {} givens, {clash_text}",
            record.line,
            grid.filled()
        )
    }
}
