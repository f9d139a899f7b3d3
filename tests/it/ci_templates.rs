//! The CI templates a CI engineer copies (issue #32, item 8): the GitHub
//! composite action `.github/actions/judge`, the release workflow whose
//! binary it downloads, the repository's own grade workflow, and the
//! GitLab template `deploy/gitlab/judge.gitlab-ci.yml`. Each parses as
//! YAML, every `judge` flag it uses is one of its command's options, every
//! shell script in it is valid bash, and the scripts that install judge
//! from a release and grade with it do so, run here against a release made
//! of the judge under test.

use crate::doc_commands::{defines_flag, invocations};
use crate::support::{repository, Dir};
use serde_norway::Value;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

const ACTION: &str = ".github/actions/judge/action.yml";
const RELEASE: &str = ".github/workflows/release.yml";
const GRADE: &str = ".github/workflows/grade.yml";
const GITLAB: &str = "deploy/gitlab/judge.gitlab-ci.yml";

fn yaml(path: &str) -> Value {
    let text = fs_err::read_to_string(repository().join(path)).unwrap();
    serde_norway::from_str(&text).unwrap_or_else(|error| panic!("{path}: {error}"))
}

fn text(value: &Value) -> &str {
    value.as_str().unwrap_or("")
}

/// The steps of a composite action or of every job of a workflow.
fn steps(document: &Value) -> Vec<&Value> {
    if let Some(steps) = document["runs"]["steps"].as_sequence() {
        return steps.iter().collect();
    }
    document["jobs"]
        .as_mapping()
        .unwrap()
        .values()
        .flat_map(|job| job["steps"].as_sequence().unwrap().iter())
        .collect()
}

/// The GitLab template's jobs (every top-level mapping with a `script`),
/// by name, with their script items.
fn gitlab_jobs(document: &Value) -> Vec<(String, Vec<String>)> {
    document
        .as_mapping()
        .unwrap()
        .iter()
        .filter_map(|(name, job)| {
            let script = job["script"].as_sequence()?;
            let items = script.iter().map(|item| text(item).to_owned()).collect();
            Some((text(name).to_owned(), items))
        })
        .collect()
}

fn gitlab_script(document: &Value, job: &str) -> String {
    let (_, items) = gitlab_jobs(document)
        .into_iter()
        .find(|(name, _)| name == job)
        .unwrap_or_else(|| panic!("no job `{job}` in {GITLAB}"));
    items.join("\n")
}

/// The `run` of the action's step named `name`.
fn action_step(name: &str) -> String {
    let action = yaml(ACTION);
    let step = steps(&action)
        .into_iter()
        .find(|step| text(&step["name"]).starts_with(name))
        .unwrap_or_else(|| panic!("no step `{name}` in {ACTION}"));
    text(&step["run"]).to_owned()
}

/// Every shell script of the four files (GitHub's `${{ ... }}` made a
/// word), with where it is.
fn scripts() -> Vec<(String, String)> {
    let mut found = Vec::new();
    for path in [ACTION, RELEASE, GRADE] {
        for step in steps(&yaml(path)) {
            if let Some(run) = step["run"].as_str() {
                found.push((format!("{path}: {}", text(&step["name"])), run.to_owned()));
            }
            // The action's `grade` input is `judge grade`'s arguments.
            if let Some(grade) = step["with"]["grade"].as_str() {
                found.push((
                    format!("{path}: grade input"),
                    format!("judge grade {grade}"),
                ));
            }
        }
    }
    for (job, items) in gitlab_jobs(&yaml(GITLAB)) {
        found.push((format!("{GITLAB}: {job}"), items.join("\n")));
    }
    found
        .into_iter()
        .map(|(place, script)| {
            let mut plain = String::new();
            let mut rest = script.as_str();
            while let Some(start) = rest.find("${{") {
                plain.push_str(&rest[..start]);
                plain.push_str("EXPRESSION");
                rest = rest[start..]
                    .find("}}")
                    .map_or("", |end| &rest[start + end + 2..]);
            }
            plain.push_str(rest);
            (place, plain)
        })
        .collect()
}

/// Each of the four files is YAML of the shape its engine reads: a
/// composite action whose `run` steps name their shell and whose inputs
/// are each declared and used; workflows and a template whose jobs have
/// steps or scripts.
#[test]
fn the_templates_parse_and_the_action_uses_what_it_declares() {
    let action = yaml(ACTION);
    assert_eq!(text(&action["runs"]["using"]), "composite");
    let declared: BTreeSet<String> = action["inputs"]
        .as_mapping()
        .unwrap()
        .keys()
        .map(|key| text(key).to_owned())
        .collect();
    let whole = fs_err::read_to_string(repository().join(ACTION)).unwrap();
    let used: BTreeSet<String> = whole
        .split("inputs.")
        .skip(1)
        .map(|rest| {
            rest.chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect()
        })
        .collect();
    assert_eq!(declared, used, "inputs declared and inputs used");
    for step in steps(&action) {
        assert!(
            step["run"].is_null() || !step["shell"].is_null(),
            "a composite action's `run` step needs `shell`: {step:?}"
        );
        assert!(
            !step["run"].is_null() || text(&step["uses"]).contains('@'),
            "a step runs a script or a pinned action: {step:?}"
        );
    }
    for path in [RELEASE, GRADE] {
        assert!(!steps(&yaml(path)).is_empty(), "{path}");
    }
    let gitlab = gitlab_jobs(&yaml(GITLAB));
    let names: Vec<&str> = gitlab.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["judge-build", ".judge-grade", ".judge-report"]);
    // The repository's own workflow uses the action, not `cargo build` per job.
    let grade = fs_err::read_to_string(repository().join(GRADE)).unwrap();
    assert!(!grade.contains("cargo build"), "{grade}");
    assert_eq!(grade.matches("uses: ./.github/actions/judge").count(), 3);
}

/// Every `judge` command of the templates names a subcommand that exists
/// and only flags of its `--help`; every script is valid bash.
#[test]
fn every_judge_flag_of_the_templates_is_real_and_every_script_is_valid_bash() {
    let mut wrong = Vec::new();
    let mut checked = 0;
    let mut seen = BTreeSet::new();
    for (place, script) in scripts() {
        let syntax = Command::new("bash")
            .arg("-n")
            .arg("-c")
            .arg(&script)
            .output()
            .unwrap();
        if !syntax.status.success() {
            wrong.push(format!(
                "{place}: {}",
                String::from_utf8_lossy(&syntax.stderr)
            ));
        }
        let script = script
            .replace("\"$HOME/.judge/bin/judge\"", "judge")
            .replace(".judge/bin/judge", "judge");
        for line in script.lines() {
            for (sub, flags) in invocations(line) {
                let Some(sub) = sub else {
                    continue;
                };
                let help = Dir::new().judge(&[&sub, "--help"]);
                if help.code() != 0 {
                    wrong.push(format!("{place}: no command `judge {sub}`"));
                    continue;
                }
                for flag in flags {
                    checked += 1;
                    seen.insert(format!("{sub} {flag}"));
                    if !defines_flag(&help.stdout(), &flag) {
                        wrong.push(format!("{place}: `{flag}` is not in `judge {sub} --help`"));
                    }
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    for used in [
        "grade --shard",
        "grade --json",
        "merge -o",
        "report --baseline",
    ] {
        assert!(seen.contains(used), "`judge {used}` not found in {seen:?}");
    }
    assert!(
        checked >= 12,
        "only {checked} flags found: is the parser right?"
    );
}

/// A release as `.github/workflows/release.yml` packs it, of the judge
/// under test, in `dir/releases/TAG/`: the asset the action and the
/// template download, and its SHA-256.
fn release(dir: &Path, tag: &str) -> String {
    let release = text(
        &steps(&yaml(RELEASE))
            .into_iter()
            .find(|step| text(&step["name"]) == "Package")
            .unwrap()["run"],
    )
    .to_owned();
    let folder = dir.join("releases").join(tag);
    let target = folder.join("target/release");
    fs_err::create_dir_all(&target).unwrap();
    fs_err::copy(assert_cmd::cargo::cargo_bin!("judge"), target.join("judge")).unwrap();
    let packed = Command::new("bash")
        .arg("-c")
        .arg(&release)
        .current_dir(&folder)
        .output()
        .unwrap();
    assert!(packed.status.success(), "{packed:?}");
    format!("file://{}", dir.join("releases").display())
}

fn bash(script: &str, cwd: &Path, env: &[(&str, &str)]) -> std::process::Output {
    Command::new("bash")
        .arg("-e")
        .arg("-c")
        .arg(script)
        .current_dir(cwd)
        .envs(env.iter().copied())
        .output()
        .unwrap()
}

/// The action's download step and the template's build job, given a
/// version, install the release's judge (checked against its SHA-256)
/// and refuse a release whose binary does not match it.
#[test]
fn a_release_installs_and_a_tampered_one_is_refused() {
    let dir = Dir::new();
    let releases = release(dir.path(), "v9.9.9");
    let version = Dir::new().judge(&["--version"]).stdout();

    let home = dir.path().join("home");
    let download = action_step("Download judge");
    let env = [
        ("HOME", home.to_str().unwrap()),
        ("JUDGE_VERSION", "v9.9.9"),
        ("JUDGE_REPOSITORY", "someone/judge"),
        ("JUDGE_RELEASES", releases.as_str()),
    ];
    let installed = bash(&download, dir.path(), &env);
    assert!(installed.status.success(), "{installed:?}");
    let judge = home.join(".judge/bin/judge");
    let run = Command::new(&judge).arg("--version").output().unwrap();
    assert_eq!(String::from_utf8_lossy(&run.stdout), version);

    let project = dir.path().join("project");
    fs_err::create_dir_all(&project).unwrap();
    let build = gitlab_script(&yaml(GITLAB), "judge-build");
    let built = bash(
        &build,
        &project,
        &[
            ("JUDGE_VERSION", "v9.9.9"),
            ("JUDGE_RELEASES", releases.as_str()),
        ],
    );
    assert!(built.status.success(), "{built:?}");
    assert_eq!(
        String::from_utf8_lossy(&built.stdout).trim_end(),
        version.trim_end()
    );
    assert!(project.join(".judge/bin/judge").exists());

    // Another binary under the same name: the digest no longer matches.
    let asset = dir
        .path()
        .join("releases/v9.9.9/judge-x86_64-unknown-linux-gnu.tar.gz");
    let mut bytes = fs_err::read(&asset).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    fs_err::write(&asset, bytes).unwrap();
    let elsewhere = dir.path().join("elsewhere");
    let env = [
        ("HOME", elsewhere.to_str().unwrap()),
        ("JUDGE_VERSION", "v9.9.9"),
        ("JUDGE_REPOSITORY", "someone/judge"),
        ("JUDGE_RELEASES", releases.as_str()),
    ];
    let refused = bash(&download, dir.path(), &env);
    assert!(!refused.status.success(), "{refused:?}");
    assert!(!elsewhere.join(".judge/bin/judge").exists());
    // A release that does not exist is an error too, not an empty install.
    let env = [
        ("HOME", elsewhere.to_str().unwrap()),
        ("JUDGE_VERSION", "v0.0.0-none"),
        ("JUDGE_REPOSITORY", "someone/judge"),
        ("JUDGE_RELEASES", releases.as_str()),
    ];
    assert!(!bash(&download, dir.path(), &env).status.success());
}

/// The GitLab template's grade job in two `parallel:` jobs, then its report
/// job: the shards merge into one report, and with JUDGE_BASELINE the
/// comparison gates (0 against the same report; 1 after a regression). The
/// action's grade step grades a class the same way.
#[test]
fn the_templates_grade_merge_and_gate_on_a_baseline() {
    let dir = Dir::new();
    let releases = release(dir.path(), "v1.0.0");
    let project = dir.path().join("class");
    fs_err::create_dir_all(project.join("submissions/rooks")).unwrap();
    fs_err::write(
        project.join("judge.toml"),
        "layout = \"problem/student\"\nrandom-tests = 1\njobs = 2\nseed = 1\n",
    )
    .unwrap();
    let right = fs_err::read(repository().join("submissions/rooks/accepted/matching.py")).unwrap();
    let wrong =
        fs_err::read(repository().join("submissions/rooks/wrong_answer/ignores_walls.py")).unwrap();
    for name in ["alice", "bob"] {
        fs_err::write(project.join(format!("submissions/rooks/{name}.py")), &right).unwrap();
    }
    let template = yaml(GITLAB);
    let root = project.to_str().unwrap();
    let build = bash(
        &gitlab_script(&template, "judge-build"),
        &project,
        &[
            ("JUDGE_VERSION", "v1.0.0"),
            ("JUDGE_RELEASES", releases.as_str()),
        ],
    );
    assert!(build.status.success(), "{build:?}");
    let grade = gitlab_script(&template, ".judge-grade");
    let report = gitlab_script(&template, ".judge-report");
    let pipeline = |baseline: &str| -> std::process::Output {
        for index in ["1", "2"] {
            let graded = bash(
                &grade,
                &project,
                &[
                    ("CI_PROJECT_DIR", root),
                    ("CI_NODE_INDEX", index),
                    ("CI_NODE_TOTAL", "2"),
                    ("JUDGE_GRADE_ARGS", "-q"),
                ],
            );
            // Exit 1 (a WA) is the job's allowed failure: its report is kept.
            assert!(matches!(graded.status.code(), Some(0 | 1)), "{graded:?}");
        }
        bash(
            &report,
            &project,
            &[("CI_PROJECT_DIR", root), ("JUDGE_BASELINE", baseline)],
        )
    };
    let first = pipeline("");
    assert!(first.status.success(), "{first:?}");
    let merged = fs_err::read_to_string(project.join("judge-reports/grade.json")).unwrap();
    let merged: serde_json::Value = serde_json::from_str(&merged).unwrap();
    assert_eq!(merged["results"].as_array().unwrap().len(), 2);
    assert!(merged.get("shard").is_none(), "merged: {merged}");
    assert!(project.join("judge-reports/grade.html").exists());
    fs_err::copy(
        project.join("judge-reports/grade.json"),
        project.join("baseline.json"),
    )
    .unwrap();

    let same = pipeline("baseline.json");
    assert!(same.status.success(), "{same:?}");
    assert!(String::from_utf8_lossy(&same.stdout).contains("2 unchanged; no regression"));

    fs_err::write(project.join("submissions/rooks/bob.py"), &wrong).unwrap();
    let worse = pipeline("baseline.json");
    assert_eq!(worse.status.code(), Some(1), "{worse:?}");
    assert!(String::from_utf8_lossy(&worse.stdout).contains("regressed: rooks bob: AC 100% -> WA"));
    let changes = fs_err::read_to_string(project.join("judge-reports/changes.json")).unwrap();
    assert!(changes.contains("\"regressions\": 1"), "{changes}");

    // The action's grade step: `judge grade` with the `grade` input, from
    // the judge the action installed.
    let home = dir.path().join("home");
    let installed = bash(
        &action_step("Download judge"),
        dir.path(),
        &[
            ("HOME", home.to_str().unwrap()),
            ("JUDGE_VERSION", "v1.0.0"),
            ("JUDGE_REPOSITORY", "someone/judge"),
            ("JUDGE_RELEASES", releases.as_str()),
        ],
    );
    assert!(installed.status.success(), "{installed:?}");
    let graded = bash(
        &action_step("judge grade"),
        &project,
        &[
            ("HOME", home.to_str().unwrap()),
            ("JUDGE_GRADE_ARGS", "-q --json action.json --csv action.csv"),
        ],
    );
    assert_eq!(graded.status.code(), Some(1), "bob is WA: {graded:?}");
    assert!(fs_err::read_to_string(project.join("action.csv"))
        .unwrap()
        .contains("bob,rooks,"));
}
