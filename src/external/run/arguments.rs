//! The arguments of a run: the entry's arguments with their placeholders filled in (`{input}`,
//! `{output}`, the time left, the proof file, the most models wanted).

use std::path::Path;
use std::time::Duration;

use crate::external::Entry;

impl Entry {
    /// The arguments with the placeholders filled in (`time`: the time left, if limited;
    /// `proof`: the proof file, when the entry writes proofs).
    pub(super) fn arguments(
        &self,
        input: &Path,
        output: &Path,
        proof: Option<&Path>,
        time: Option<Duration>,
        enumerate: Option<u64>,
    ) -> Vec<String> {
        let fill = |arg: &str| -> String {
            let (seconds, millis) = time.map_or((0, 0), |t| {
                (t.as_secs_f64().ceil().max(1.0) as u64, t.as_millis().max(1))
            });
            arg.replace("{input}", &input.display().to_string())
                .replace("{output}", &output.display().to_string())
                .replace("{seconds}", &seconds.to_string())
                .replace("{millis}", &millis.to_string())
        };
        let time_args: Vec<String> = match time {
            Some(_) => self.time_args.iter().map(|a| fill(a)).collect(),
            None => Vec::new(),
        };
        let proof_args: Vec<String> = match (&self.proof, proof) {
            (Some(spec), Some(file)) => spec
                .args
                .iter()
                .map(|a| a.replace("{file}", &file.display().to_string()))
                .collect(),
            _ => Vec::new(),
        };
        // `{limit}`: the most models wanted (a count without a limit asks for 2³¹ − 1).
        let enumerate_args: Vec<String> = match (&self.enumerate, enumerate) {
            (Some(words), Some(limit)) => {
                let limit = limit.min(i32::MAX as u64).to_string();
                words.iter().map(|a| a.replace("{limit}", &limit)).collect()
            }
            _ => Vec::new(),
        };
        let mut args = Vec::new();
        for arg in &self.args {
            match arg.as_str() {
                "{time}" => args.extend(time_args.iter().cloned()),
                "{proof}" => args.extend(proof_args.iter().cloned()),
                "{enumerate}" => args.extend(enumerate_args.iter().cloned()),
                _ => args.push(fill(
                    &arg.replace("{time}", &time_args.join(" "))
                        .replace("{proof}", &proof_args.join(" "))
                        .replace("{enumerate}", &enumerate_args.join(" ")),
                )),
            }
        }
        args
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_filled_and_time_arguments_come_and_go() {
        let mut entry = Entry::new("t");
        entry.args = vec![
            "-q".into(),
            "{time}".into(),
            "{input}".into(),
            "-c".into(),
            "{time} read {input} write {output}".into(),
        ];
        entry.time_args = vec!["-t".into(), "{seconds}".into()];
        let (input, output) = (Path::new("/s/p.cnf"), Path::new("/s/a.out"));
        assert_eq!(
            entry.arguments(input, output, None, Some(Duration::from_millis(1500)), None),
            [
                "-q",
                "-t",
                "2",
                "/s/p.cnf",
                "-c",
                "-t 2 read /s/p.cnf write /s/a.out"
            ]
        );
        assert_eq!(
            entry.arguments(input, output, None, None, None),
            ["-q", "/s/p.cnf", "-c", " read /s/p.cnf write /s/a.out"]
        );
    }
}
