//! The command registry (`sudokit::jobs::registry`) is the one list of batch commands: each is a
//! subcommand of the command line, its defaults build its job, its options are refused by name,
//! and a run through the library's registry path writes what the command line writes.

use std::path::PathBuf;

use serde_json::json;
use sudokit::jobs::Control;
use sudokit::jobs::command::Summing;
use sudokit::jobs::registry::{self, COMMANDS, Inputs};
use sudokit::jobs::runner::Runner;
use sudokit::text::ReadOptions;

use crate::common::{run, stderr, stdout};

#[test]
fn every_registry_command_is_a_subcommand_and_builds_from_its_defaults() {
    let help = stdout(&run(&["--help"], b""));
    let listed: Vec<&str> = help
        .split("Commands:")
        .nth(1)
        .and_then(|rest| rest.split("Options:").next())
        .unwrap_or_default()
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    for entry in COMMANDS {
        assert!(
            listed.contains(&entry.cli[0]),
            "{} is not a subcommand",
            entry.name
        );
        let out = run(&[entry.cli, &["--help"]].concat(), b"");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: {}",
            entry.name,
            stderr(&out)
        );
        let inputs = match entry.inputs {
            Inputs::None => 0,
            Inputs::Two => 2,
            _ => 1,
        };
        let _command = entry
            .build(entry.defaults(), inputs)
            .unwrap_or_else(|e| panic!("{}: its defaults are refused: {e}", entry.name));
        let unknown = entry.build(json!({"no_such_option": 1}), inputs).err();
        let message = unknown.map(|e| e.to_string()).unwrap_or_default();
        assert!(
            message.contains("no_such_option"),
            "{}: {message}",
            entry.name
        );
        assert!(entry.check_inputs(inputs).is_ok());
        assert!(entry.check_inputs(inputs + 3).is_err() || entry.inputs == Inputs::OneOrMore);
    }
    let mut names = registry::names();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), COMMANDS.len(), "a name twice");
}

#[test]
fn the_registry_path_writes_what_the_command_line_writes() {
    // grade over two files: per-file summaries (JSON) between the records, through the
    // command object a front end picks by name.
    let files = [
        PathBuf::from("models/sudoku/4x4/kr_4x4_sample.txt"),
        PathBuf::from("models/sudoku/9x9/easy.txt"),
    ];
    let cli = run(
        &[
            "grade",
            "--json",
            "--schemes",
            "FC,HAC",
            crate::common::s(&crate::common::path(files[0].to_str().unwrap())),
            crate::common::s(&crate::common::path(files[1].to_str().unwrap())),
        ],
        b"",
    );
    assert_eq!(cli.status.code(), Some(0), "{}", stderr(&cli));
    let entry = registry::command("grade").unwrap();
    let command = entry.build(json!({"schemes": "FC,HAC"}), 2).unwrap();
    let inputs: Vec<PathBuf> = files
        .iter()
        .map(|f| crate::common::path(f.to_str().unwrap()))
        .collect();
    let runner = Runner::new(Control::new());
    // The command object writes to standard output: run it through its records and shares
    // instead, as a Dask client does, and rebuild the text.
    let mut summary: Box<dyn Summing> = command.summing();
    let mut text = String::new();
    for input in &inputs {
        let sources = command
            .open(std::slice::from_ref(input), ReadOptions::default(), &runner)
            .unwrap();
        let (shard, ran) = command.run_shard(sources, true, &runner).unwrap();
        assert!(ran.complete);
        for (_, _, _, record) in &shard.entries {
            text.push_str(record);
        }
        summary.add_share(shard.share).unwrap();
        text.push_str(&summary.end_input(&input.display().to_string(), true));
    }
    text.push_str(&summary.end(true, true));
    assert_eq!(text, stdout(&cli));
}

#[test]
fn count_without_input_is_the_census_through_the_registry_as_on_the_command_line() {
    use sudokit::jobs::command::finish;
    use sudokit::jobs::{Form, OpenMode, Sink};
    use sudokit::text::ShapeSpec;

    let entry = registry::command("count").unwrap();
    assert_eq!(entry.inputs, Inputs::OneOrNone);
    assert!(entry.check_inputs(0).is_ok() && entry.check_inputs(2).is_err());
    let dir = std::env::temp_dir().join(format!("sudokit-registry-census-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // Elapsed times differ between two runs; everything else is the same bytes.
    let untimed = |text: String| match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(mut json) if json.is_object() => {
            json["elapsed_us"] = json!(0);
            json.to_string()
        }
        _ => text,
    };
    for (shape, read, args) in [
        (ShapeSpec::Box(2, 4), json!({}), &["--box", "2x4"][..]),
        (
            ShapeSpec::Latin,
            json!({"order": 6}),
            &["--latin", "--order", "6"],
        ),
    ] {
        for json in [false, true] {
            let cli_file = dir.join("cli.txt");
            let json_flag: &[&str] = if json { &["--json"] } else { &[] };
            let cli = run(
                &[
                    &["count"],
                    args,
                    json_flag,
                    &["-o", crate::common::s(&cli_file)],
                ]
                .concat(),
                b"",
            );
            assert_eq!(cli.status.code(), Some(0), "{}", stderr(&cli));
            let file = dir.join("registry.txt");
            let command = entry.build(read.clone(), 0).unwrap();
            let identity = command.output_identity(json, &[]).unwrap();
            let (sink, old) =
                Sink::open(Some(&file), entry.noun, &identity, OpenMode::Fresh).unwrap();
            let read_options = ReadOptions {
                shape: Some(shape),
                ..ReadOptions::default()
            };
            let runner = Runner::new(Control::new());
            let form = Form { json, brief: false };
            let (ran, summary) = command
                .run(&[], read_options, &sink, old, &runner, form)
                .unwrap();
            let report = finish(sink, ran, &*summary, entry.noun, String::new).unwrap();
            assert_eq!((report.exit_code, report.ran.tally.done), (0, 1));
            let read_back =
                |path: &std::path::Path| untimed(std::fs::read_to_string(path).unwrap());
            assert_eq!(read_back(&file), read_back(&cli_file), "{args:?} {json}");
            assert_eq!(
                std::fs::read_dir(&dir).unwrap().count(),
                2,
                "partial files left"
            );
            // The records path: the same count as one record.
            let mut records = Vec::new();
            command
                .records(&[], read_options, &runner, &mut |r| records.push(r))
                .unwrap();
            let written = if json {
                &records[0].json
            } else {
                &records[0].text
            };
            assert_eq!(untimed(written.clone()), read_back(&cli_file));
            std::fs::remove_file(&file).unwrap();
            std::fs::remove_file(&cli_file).unwrap();
        }
    }
    // No shape: refused, naming what to give.
    let command = entry.build(json!({}), 0).unwrap();
    let runner = Runner::new(Control::new());
    let refused = command
        .records(&[], ReadOptions::default(), &runner, &mut |_| {})
        .unwrap_err();
    assert!(refused.to_string().contains("box PxQ"), "{refused}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn decode_reads_its_answer_whole_through_the_registry_and_in_a_dask_shard() {
    // The puzzle file and the answer: the records of the library's command are the command
    // line's lines; a Dask task, whose answer arrives as a shard read as puzzles, reads the
    // answer from its file when its shard of the puzzles holds the picked puzzle, else makes
    // nothing.
    let puzzles = crate::common::path("models/sudoku/4x4/kr_4x4_sample.txt");
    let answer = crate::common::path("tests/fixtures/answers/kr-4x4-3-picosat-all.out");
    let cli = run(
        &[
            "decode",
            "--from",
            "dimacs",
            "--index",
            "3",
            crate::common::s(&puzzles),
            crate::common::s(&answer),
        ],
        b"",
    );
    assert_eq!(cli.status.code(), Some(0), "{}", stderr(&cli));
    let entry = registry::command("decode").unwrap();
    assert_eq!(entry.inputs, Inputs::Two);
    let command = entry
        .build(json!({"reader": "dimacs", "index": 3}), 2)
        .unwrap();
    let runner = Runner::new(Control::new());
    let inputs = [puzzles.clone(), answer.clone()];
    let mut text = String::new();
    let ran = command
        .records(&inputs, ReadOptions::default(), &runner, &mut |r| {
            text.push_str(&r.text)
        })
        .unwrap();
    assert_eq!((text.as_str(), ran.tally.total), (stdout(&cli).as_str(), 2));
    // Shards of two puzzles: the third puzzle is in the second.
    for (skip, made) in [(0, 0), (2, 2)] {
        let mut sources = command
            .open(
                std::slice::from_ref(&puzzles),
                ReadOptions::default(),
                &runner,
            )
            .unwrap();
        let sudokit::jobs::source::Source::Puzzles { name, items } = sources.remove(0) else {
            panic!("puzzles")
        };
        let shard: Vec<_> = items.skip(skip).take(2).collect();
        let sources = vec![
            sudokit::jobs::source::Source::Puzzles {
                name,
                items: Box::new(shard.into_iter()),
            },
            sudokit::jobs::source::Source::Puzzles {
                name: answer.display().to_string().into(),
                items: Box::new(std::iter::empty()),
            },
        ];
        let (shard, _) = command.run_shard(sources, false, &runner).unwrap();
        assert_eq!(shard.entries.len(), made, "shard from puzzle {}", skip + 1);
    }
}

#[test]
fn bench_runs_whole_through_the_registry_and_a_dask_plan_refuses_it() {
    // Its rows through the registry are the command line's, but for the times they measure
    // (which differ between any two runs); a Dask plan, whose shards would time other runs,
    // refuses it.
    let file = crate::common::path("models/sudoku/4x4/kr_4x4_sample.txt");
    let flags = ["bench", "--json", "--backends", "native,dlx"];
    let cli = run(&[&flags[..], &[crate::common::s(&file)]].concat(), b"");
    assert_eq!(cli.status.code(), Some(0), "{}", stderr(&cli));
    let entry = registry::command("bench").unwrap();
    assert!(!entry.shardable && !entry.resumable);
    let command = entry
        .build(json!({"backends": ["native", "dlx"]}), 1)
        .unwrap();
    let mut rows = Vec::new();
    let runner = Runner::new(Control::new());
    let ran = command
        .records(
            std::slice::from_ref(&file),
            ReadOptions::default(),
            &runner,
            &mut |r| rows.push(r.json),
        )
        .unwrap();
    let untimed = |line: &str| {
        let mut row: serde_json::Value = serde_json::from_str(line).unwrap();
        for key in ["puzzles_per_second", "wall_seconds", "median_us", "p99_us"] {
            row[key] = json!(0);
        }
        row
    };
    let from_cli: Vec<_> = stdout(&cli).lines().map(untimed).collect();
    let from_registry: Vec<_> = rows.iter().map(|r| untimed(r)).collect();
    assert_eq!((from_registry, ran.tally.total), (from_cli, 10));
    let sources = command
        .open(std::slice::from_ref(&file), ReadOptions::default(), &runner)
        .unwrap();
    assert!(command.run_shard(sources, true, &runner).is_err());
    let plan = sudokit::jobs::shard::Plan {
        command: "bench".into(),
        options: json!({}),
        json: false,
        inputs: 1,
        ..sudokit::jobs::shard::Plan::default()
    };
    let refused = plan.command().err().map(|e| e.to_string());
    let expected = "bench times whole runs in one process: use sudokit.run";
    assert_eq!(refused.as_deref(), Some(expected));
    // The census of an empty grid is one sum: a plan of count without input is refused too,
    // while count over a file is cut into shards.
    let census = sudokit::jobs::shard::Plan {
        command: "count".into(),
        inputs: 0,
        r#box: Some((2, 2)),
        ..plan.clone()
    };
    let refused = census.command().err().map(|e| e.to_string());
    let expected = "count without input counts every grid in one process: use sudokit.run";
    assert_eq!(refused.as_deref(), Some(expected));
    let counted = sudokit::jobs::shard::Plan {
        inputs: 1,
        ..census
    };
    assert!(counted.command().is_ok());
}

#[test]
fn puzzles_in_memory_give_the_records_of_the_file_with_the_grids_they_carry() {
    let file = PathBuf::from("models/sudoku/4x4/kr_4x4_sample.txt");
    let text = std::fs::read(&file).unwrap();
    let read = sudokit::text::PuzzleReader::new(text.as_slice(), ReadOptions::default());
    let puzzles: Vec<sudokit::Grid> = read.map(|r| r.unwrap().grid).collect();
    for (command, options) in [
        ("solve", json!({"unique": true})),
        ("count", json!({})),
        ("minimize", json!({})),
    ] {
        let command_of = || {
            registry::command(command)
                .unwrap()
                .build(options.clone(), 1)
                .unwrap()
        };
        let runner = Runner::new(Control::new());
        let mut from_file = Vec::new();
        command_of()
            .records(
                std::slice::from_ref(&file),
                ReadOptions::default(),
                &runner,
                &mut |r| from_file.push(r),
            )
            .unwrap();
        let items = puzzles.iter().enumerate().map(|(i, grid)| {
            let read = sudokit::text::ReadPuzzle::new(i + 1, grid.clone());
            sudokit::jobs::PuzzleItem::new(file.display().to_string(), i, Ok(read))
        });
        let source = sudokit::jobs::source::Source::Puzzles {
            name: file.display().to_string().into(),
            items: Box::new(items.collect::<Vec<_>>().into_iter()),
        };
        let mut in_memory = Vec::new();
        command_of()
            .records_of(vec![source], &runner, &mut |r| in_memory.push(r))
            .unwrap();
        let untimed = |records: &[sudokit::jobs::command::RecordOut]| -> Vec<_> {
            records
                .iter()
                .map(|r| (r.status, r.text.clone(), r.grids.clone()))
                .collect()
        };
        assert_eq!(untimed(&in_memory), untimed(&from_file), "{command}");
        for (record, puzzle) in in_memory.iter().zip(&puzzles) {
            assert!(!record.grids.is_empty(), "{command} carries its grids");
            if command != "minimize" {
                assert!(
                    record
                        .grids
                        .iter()
                        .all(|g| sudokit::verify(puzzle, g).is_ok())
                );
            }
        }
    }
    // A command that reads whole files itself refuses puzzles in memory.
    let bench = registry::command("bench")
        .unwrap()
        .build(json!({}), 1)
        .unwrap();
    let runner = Runner::new(Control::new());
    assert!(bench.records_of(Vec::new(), &runner, &mut |_| {}).is_err());
}
