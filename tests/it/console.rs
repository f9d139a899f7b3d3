//! The console of a judge run elsewhere (a VM, a container): sections and
//! records a script printed around each run, and the reports in them.

use serde_json::Value;
use std::collections::BTreeMap;

/// A console's `PREFIX-BEGIN <mode> <what>` ... `PREFIX-END` sections and
/// its one-line `PREFIX-<KEY> <mode> <value>` records (`VM` for the VM's
/// console, `CTR` for a container's output).
pub struct Console {
    prefix: String,
    sections: BTreeMap<(String, String), String>,
    records: BTreeMap<(String, String), String>,
    pub text: String,
}

impl Console {
    pub fn parse(text: String, prefix: &str) -> Console {
        let begin = format!("{prefix}-BEGIN ");
        let end = format!("{prefix}-END ");
        let record = format!("{prefix}-");
        let mut sections = BTreeMap::new();
        let mut records = BTreeMap::new();
        let mut open: Option<((String, String), String)> = None;
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix(begin.as_str()) {
                let (mode, what) = rest.split_once(' ').unwrap_or((rest, ""));
                open = Some(((mode.to_owned(), what.to_owned()), String::new()));
            } else if line.starts_with(end.as_str()) {
                if let Some((key, body)) = open.take() {
                    sections.insert(key, body);
                }
            } else if let Some((_, body)) = &mut open {
                body.push_str(line);
                body.push('\n');
            } else if let Some(rest) = line.strip_prefix(record.as_str()) {
                let mut parts = rest.splitn(3, ' ');
                let key = parts.next().unwrap_or_default().to_owned();
                let mode = parts.next().unwrap_or_default().to_owned();
                let value = parts.next().unwrap_or_default().to_owned();
                records.insert((key, mode), value);
            }
        }
        Console {
            prefix: prefix.to_owned(),
            sections,
            records,
            text,
        }
    }

    pub fn section(&self, mode: &str, what: &str) -> &str {
        self.sections
            .get(&(mode.to_owned(), what.to_owned()))
            .unwrap_or_else(|| panic!("no `{what}` for `{mode}` in the console:\n{}", self.text))
    }

    pub fn record(&self, key: &str, mode: &str) -> &str {
        self.records
            .get(&(key.to_owned(), mode.to_owned()))
            .unwrap_or_else(|| {
                panic!(
                    "no {}-{key} {mode} in the console:\n{}",
                    self.prefix, self.text
                )
            })
    }

    pub fn report(&self, mode: &str) -> Value {
        let text = self.section(mode, "report");
        serde_json::from_str(text.trim()).unwrap_or_else(|error| {
            panic!(
                "`{mode}` wrote no report ({error}); stderr:\n{}",
                self.section(mode, "stderr")
            )
        })
    }
}

/// The one test of each program, by program name.
pub fn tests_by_program(report: &Value) -> BTreeMap<String, Value> {
    report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|result| {
            let test = result["tests"].get(0).cloned().unwrap_or(Value::Null);
            let mut test = test;
            test["verdict_of_submission"] = result["verdict"].clone();
            (result["submission"].as_str().unwrap().to_owned(), test)
        })
        .collect()
}
