//! The bundled problem packages under `problems/`: manifests parse, samples
//! and the fixed generated sets are valid, their answers are the reference's,
//! and the generated sets regenerate byte for byte from the recorded seed.

use crate::support::{repository, Dir};
use judge::config::bundled;
use judge::package::Package;
use judge::problems::check_bytes;

/// Invariant: every `.in` under `problems/<id>/tests` is valid (for the
/// profile its name starts with, samples for the package's profiles), its
/// `.ans` is exactly the reference answer, and the checker accepts it; the
/// copy built into the binary is the same.
#[test]
fn every_bundled_test_is_valid_and_answered_by_the_reference() {
    let problems_dir = repository().join("problems");
    for id in bundled::package_ids() {
        let package = Package::load(Some(&problems_dir), id).unwrap();
        assert_eq!(package.dir(), Some(problems_dir.join(id).as_path()));
        let embedded = Package::bundled(id).unwrap();
        assert_eq!(
            embedded
                .tests()
                .iter()
                .map(|test| (&test.name, &test.input, &test.answer))
                .collect::<Vec<_>>(),
            package
                .tests()
                .iter()
                .map(|test| (&test.name, &test.input, &test.answer))
                .collect::<Vec<_>>(),
            "{id}: the embedded copy differs from problems/{id}"
        );
        let problem = &**package.problem();
        let tests = problems_dir.join(id).join("tests");
        let mut count = 0;
        for entry in fs_err::read_dir(&tests).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|extension| extension != "in") {
                continue;
            }
            count += 1;
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let profile = problem
                .profiles()
                .iter()
                .map(|profile| profile.name)
                .find(|profile| name.starts_with(&format!("{profile}-")));
            let input = fs_err::read_to_string(&path).unwrap();
            let answer = fs_err::read_to_string(path.with_extension("ans")).unwrap();
            if let Some(profile) = profile {
                assert!(
                    package.profiles().contains(&profile),
                    "{}: profile `{profile}` is not one of the package's",
                    path.display()
                );
            }
            problem
                .validate(&input, profile)
                .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
            package
                .validate(&input)
                .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
            assert_eq!(problem.solve(&input).unwrap(), answer, "{}", path.display());
            let outcome = check_bytes(
                problem,
                &input,
                answer.as_bytes(),
                Some(&answer),
                &package.check_options(),
            )
            .unwrap();
            assert!(
                outcome.verdict.is_accepted(),
                "{}: {outcome:?}",
                path.display()
            );
        }
        assert!(count > 0, "{id} has no tests");
    }
}

/// Invariant: the fixed generated set is what `judge gen` makes from the seed
/// recorded in problem.toml, byte for byte (reproducibility across versions).
#[test]
fn generated_sets_regenerate_from_the_recorded_seed() {
    let dir = Dir::new();
    for id in bundled::package_ids() {
        let package = Package::bundled(id).unwrap();
        let tests = repository().join("problems").join(id).join("tests");
        let seed = package.manifest().tests.seed.to_string();
        assert!(!package.manifest().tests.generated.is_empty(), "{id}");
        for set in &package.manifest().tests.generated {
            let out = format!("{id}-{}", set.profile);
            let prefix = format!("{}-", set.profile);
            dir.judge(&[
                "gen",
                id,
                "--seed",
                &seed,
                "--profile",
                &set.profile,
                "--count",
                &set.count.to_string(),
                "--out",
                &out,
                "--prefix",
                &prefix,
            ])
            .expect_code(0);
            for index in 1..=set.count {
                for extension in ["in", "ans"] {
                    let name = format!("{prefix}{index:03}.{extension}");
                    let bundled = fs_err::read_to_string(tests.join(&name)).unwrap();
                    assert_eq!(dir.read(&format!("{out}/{name}")), bundled, "{id}/{name}");
                }
            }
        }
    }
}

/// See: issue #8. A package whose test is not valid for the package's
/// profiles does not load: the error names the file and the line.
#[test]
fn r8_a_test_beyond_the_packages_profiles_is_refused_with_file_and_line() {
    let dir = Dir::new();
    let manifest =
        String::from_utf8(bundled::file("rooks/problem.toml").unwrap().to_vec()).unwrap();
    dir.create("mine/rooks/problem.toml", manifest);
    dir.create("mine/rooks/tests/ok.in", "1\n.\n0\n");
    dir.create(
        "mine/rooks/tests/too-big.in",
        "1\n.\n5\n.....\n.....\n.....\n.....\n.....\n0\n",
    );
    dir.create("a.py", "print(1)\n");
    let run = dir.judge(&["run", "rooks", "a.py", "--problems-dir", "mine"]);
    run.expect_code(2);
    assert!(
        run.stderr().contains(
            "failed to load `mine/rooks/tests/too-big.in`: line 3: the board size n = 5 is \
             outside 1..=4 (the package's tests come from: small)"
        ),
        "{}",
        run.stderr()
    );
    // The same file is valid for rooks-large, whose profile is `large`.
    dir.judge(&["validate", "rooks-large", "mine/rooks/tests/too-big.in"])
        .expect_code(0);
    dir.judge(&["validate", "rooks", "mine/rooks/tests/too-big.in"])
        .expect_code(1);
}

/// See: issue #8. `--problems-dir` that is not a folder is a configuration
/// error, not a silent fallback to the bundled packages.
#[test]
fn r8_a_missing_problems_dir_is_an_error() {
    let dir = Dir::new();
    dir.create("a.py", "print(1)\n");
    for args in [
        &["problems", "--problems-dir", "/nonexistent"][..],
        &["run", "rooks", "a.py", "--problems-dir", "/nonexistent"],
        &["grade", "--problems-dir", "/nonexistent"],
    ] {
        let run = dir.judge(args);
        run.expect_code(2);
        assert!(
            run.stderr().contains("`/nonexistent`: is not a folder"),
            "{}",
            run.stderr()
        );
    }
}

/// See: issue #8. The bundled packages are built in: away from the
/// repository, `judge run` and `judge grade --config elsewhere/judge.toml`
/// still run the samples and fixed tests.
#[test]
fn r8_bundled_tests_are_used_away_from_the_repository() {
    let dir = Dir::new();
    let solution =
        fs_err::read_to_string(repository().join("submissions/rooks/accepted/matching.py"))
            .unwrap();
    dir.create("class/submissions/rooks/alice.py", &solution);
    dir.create("class/judge.toml", "random-tests = 0\n");
    let report = dir.path().join("grade.json");
    dir.judge(&[
        "grade",
        "--config",
        "class/judge.toml",
        "--json",
        report.to_str().unwrap(),
    ])
    .expect_code(0);
    let json: serde_json::Value = crate::support::report(&fs_err::read_to_string(&report).unwrap());
    let names: Vec<&str> = json["results"][0]["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|test| test["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"sample-1"), "{names:?}");
    assert!(names.contains(&"small-006"), "{names:?}");
    assert!(
        !names.iter().any(|name| name.starts_with("large")),
        "{names:?}"
    );
}

/// See: issue #8. The classic backtracking solution of UVa 639 is accepted
/// by `rooks` with default settings (random tests included) and too slow for
/// `rooks-large`.
#[test]
fn r8_backtracking_is_accepted_on_rooks_and_too_slow_on_rooks_large() {
    let dir = Dir::new();
    let backtracking = repository().join("submissions/rooks/accepted/backtracking.cpp");
    let backtracking = backtracking.to_str().unwrap();
    let run = dir.judge(&["run", "rooks", backtracking]);
    run.expect_code(0);
    let run = dir.judge(&[
        "run",
        "rooks-large",
        backtracking,
        "--random",
        "0",
        "--json",
        "-",
    ]);
    run.expect_code(1);
    let json: serde_json::Value = crate::support::report(&run.stdout());
    assert_eq!(json["results"][0]["verdict"], "TLE");
    assert_eq!(json["results"][0]["problem"], "rooks-large");
}

/// See: issue #17. `judge validate mayan` checks what the statement allows:
/// a board that clears in fewer than n moves is valid (the original's data
/// may hold one); the promise of a profile is checked only with
/// `--profile`, and a package's own tests must still fit its profiles.
#[test]
fn r17_validate_checks_the_statement_and_a_profile_only_when_asked() {
    let dir = Dir::new();
    // `1 1 _ 1` with n = 2: cleared by one move.
    let fewer = "2\n1 0\n1 0\n0\n1 0\n0\n";
    dir.create("fewer.in", fewer);
    let run = dir.judge(&["validate", "mayan", "fewer.in"]);
    run.expect_code(0);
    assert_eq!(run.stderr(), "");
    dir.judge_stdin(&["validate", "mayan"], fewer)
        .expect_code(0);
    dir.create("folder/fewer.in", fewer);
    let run = dir.judge(&["validate", "mayan", "folder"]);
    run.expect_code(0);
    assert_eq!(run.stdout(), "fewer.in: ok\n");
    for profile in ["random", "bottom-row", "hard"] {
        let run = dir.judge(&["validate", "mayan", "fewer.in", "--profile", profile]);
        run.expect_code(1);
        let expected = if profile == "hard" {
            "fewer.in: line 1: n = 2, but profile `hard` has n = 5\n".to_owned()
        } else {
            "fewer.in: line 1: the board can be cleared in 1 move, fewer than n = 2; \
             only profile `edge` has such boards\n"
                .to_owned()
        };
        assert_eq!(run.stderr(), expected, "--profile {profile}");
    }
    dir.judge(&["validate", "mayan", "fewer.in", "--profile", "edge"])
        .expect_code(0);
    // The statement's constraints still hold without a profile.
    dir.create("eight.in", "8\n1 0\n1 0\n0\n1 0\n0\n");
    let run = dir.judge(&["validate", "mayan", "eight.in"]);
    run.expect_code(1);
    assert!(
        run.stderr().starts_with("eight.in: line 1"),
        "{}",
        run.stderr()
    );
    // A package's own test must fit one of its profiles, as before.
    let manifest =
        String::from_utf8(bundled::file("mayan/problem.toml").unwrap().to_vec()).unwrap();
    dir.create("mine/mayan/problem.toml", manifest);
    dir.create("mine/mayan/tests/fewer.in", fewer);
    dir.create("a.py", "print(-1)\n");
    let run = dir.judge(&["run", "mayan", "a.py", "--problems-dir", "mine"]);
    run.expect_code(2);
    assert!(
        run.stderr().contains(
            "failed to load `mine/mayan/tests/fewer.in`: line 1: the board can be cleared in \
             1 move, fewer than n = 2; only profile `edge` has such boards (the package's \
             tests come from: random, bottom-row, hard)"
        ),
        "{}",
        run.stderr()
    );
}
