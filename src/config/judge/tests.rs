use super::*;
use test_case::test_case;

#[test]
fn default_toml_parses_and_ships_its_languages() {
    let config = JudgeConfig::defaults().unwrap();
    let names: Vec<_> = config.languages.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "bash",
            "c",
            "cpp",
            "csharp",
            "go",
            "haskell",
            "java",
            "javascript",
            "kotlin",
            "ocaml",
            "pascal",
            "php",
            "python",
            "python2",
            "ruby",
            "rust"
        ]
    );
    // Kattis' extensions (problemtools' languages.yaml).
    for (file, language) in [
        ("a.py3", "python"),
        ("a.py2", "python2"),
        ("a.sh", "bash"),
        ("a.bash", "bash"),
        ("a.kt", "kotlin"),
        ("a.go", "go"),
    ] {
        assert_eq!(config.language_for(Path::new(file)).unwrap().0, language);
    }
    assert_eq!(config.jobs, 0);
    assert_eq!(config.random_tests, 10);
    assert_eq!(config.language_for(Path::new("a/b.cc")).unwrap().0, "cpp");
    assert!(config.language_for(Path::new("a/b")).is_none());
}

#[test]
fn the_repository_judge_toml_parses() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("judge.toml");
    JudgeConfig::load_for(&path, None).unwrap();
}

/// A judge.toml language takes an extension over from the built-in
/// one that had it; the built-in keeps its others.
#[test]
fn a_user_language_takes_a_built_in_extension_over() {
    let config = JudgeConfig::parse(
        Path::new("judge.toml"),
        "[languages.pypy]\nextensions = [\".py\"]\nrun = [\"pypy3\", \"{source}\"]\n",
    )
    .unwrap();
    assert_eq!(config.language_for(Path::new("a.py")).unwrap().0, "pypy");
    assert_eq!(config.languages["python"].extensions, ["py3"]);
    assert_eq!(config.language_for(Path::new("a.py3")).unwrap().0, "python");
}

#[test]
fn user_values_replace_defaults_and_languages_merge_by_name() {
    let config = JudgeConfig::parse(
        Path::new("judge.toml"),
        "jobs = 3\n[limits]\nprocesses = 5\n[languages.c]\nextensions = [\"c\"]\nrun = [\"x\"]\n",
    )
    .unwrap();
    assert_eq!(config.jobs, 3);
    assert_eq!(config.processes, 5);
    assert_eq!(config.open_files, 128);
    assert_eq!(config.languages["c"].run, ["x"]);
    assert!(config.languages.contains_key("java"));
}

#[test_case("", false ; "off by default")]
#[test_case("student-view = true\n", true ; "on")]
#[test_case("student-view = false\n", false ; "off")]
fn student_view_is_read(text: &str, expected: bool) {
    let config = JudgeConfig::parse(Path::new("judge.toml"), text).unwrap();
    assert_eq!(config.student_view, expected);
}

#[test_case("tim-limit-ms = 3\n", "line 1, column 1: unknown field `tim-limit-ms`" ; "unknown top-level key")]
#[test_case("student-view = \"yes\"\n", "line 1, column 16: invalid type: string \"yes\", expected a boolean" ; "student view not a boolean")]
#[test_case("[limits]\ntime-limit-ms = 0\n", "line 2: `limits.time-limit-ms`: must be greater than 0" ; "zero time limit")]
#[test_case("[limits]\nwall-time-factor = 0.5\n", "line 2: `limits.wall-time-factor`: must be at least 1 and at most 100, found 0.5" ; "wall factor below one")]
#[test_case("[languages.x]\nextensions = [\"q\"]\nrun = [\"a\"]\n[languages.y]\nextensions = [\"q\"]\nrun = [\"b\"]\n", "line 5: `languages.y.extensions`: extension `q` is already used by language `x`" ; "extension used twice")]
#[test_case("[languages.x]\nextensions = [\"x\"]\nrun = [\"{sorce}\"]\n", "line 3: `languages.x.run`: unknown placeholder `{sorce}`; known: {source}, {executable}, {dir}, {memory_mib}" ; "misspelt placeholder")]
#[test_case("[languages.x]\nextensions = [\"x\"]\nrun = []\n", "line 3: `languages.x.run`: must name a program" ; "empty run")]
#[test_case("layout = \"by-student\"\n", "line 1, column 10: unknown variant `by-student`, expected one of `problem/student`, `student/problem`, `expected`" ; "bad layout")]
#[test_case("problems = [\"rook\"]\n", "line 1: `problems`: unknown problem `rook`; known: rooks, rooks-large, matchsticks, matchsticks-duel, mayan" ; "unknown problem")]
#[test_case("problems = []\n", "line 1: `problems`: must name at least one problem, or be left out for all" ; "no problems")]
#[test_case("[languages.python]\nextensions = [\"py\"]\nrun = [\"p\"]\ntime-factor = 0\n", "line 4: `languages.python.time-factor`: must be greater than 0 and at most 100, found 0.0" ; "zero time factor")]
#[test_case("[languages.python]\ntime-factor = 1e300\n", "line 2: `languages.python.time-factor`: must be greater than 0 and at most 100, found 1e300" ; "absurd time factor")]
#[test_case("[languages.python]\ntime-factor = -2\n", "line 2: `languages.python.time-factor`: must be greater than 0 and at most 100, found -2.0" ; "negative time factor")]
#[test_case("[languages.python]\ntime-factor = nan\n", "line 2: `languages.python.time-factor`: must be greater than 0 and at most 100, found NaN" ; "nan time factor")]
#[test_case("[limits]\nwall-time-factor = 1e300\n", "line 2: `limits.wall-time-factor`: must be at least 1 and at most 100, found 1e300" ; "absurd wall factor")]
#[test_case("[languages.zz]\nrun = [\"z\"]\n", "line 1: `languages.zz.extensions`: is missing (a language that is not built in needs `extensions` and `run`)" ; "new language without extensions")]
#[test_case("[languages.zz]\nextensions = [\"a/b\"]\nrun = [\"z\"]\n", "line 2: `languages.zz.extensions`: `a/b` is not a file extension (write `py` for `x.py`)" ; "not an extension")]
#[test_case("[languages.python]\nextensions = [\"py\"]\nrun = [\"p\"]\ntime-facter = 2\n", "line 4, column 1: unknown field `time-facter`" ; "misspelt time factor")]
#[test_case("[languages.python]\nfolder-entry = \"src/main.py\"\n", "line 2: `languages.python.folder-entry`: `src/main.py` is not a file name at a folder program's top (write `__main__.py`)" ; "folder entry in a subfolder")]
#[test_case("[languages.python]\nfolder-entry = \"\"\n", "line 2: `languages.python.folder-entry`: `` is not a file name at a folder program's top (write `__main__.py`)" ; "empty folder entry")]
#[test_case("[languages.cpp]\nfolder-also = [\"c/h\"]\n", "line 2: `languages.cpp.folder-also`: `c/h` is not a file extension (write `c` for `x.c`)" ; "folder also not an extension")]
#[test_case("[languages.java]\nfolder-entry-declares-main = \"yes\"\n", "line 2, column 30: invalid type: string \"yes\", expected a boolean" ; "declares main not a boolean")]
fn rejects_bad_config(text: &str, expected: &str) {
    let error = JudgeConfig::parse(Path::new("judge.toml"), text).unwrap_err();
    let message = error.to_string();
    assert!(
        message.starts_with(&format!("failed to load `judge.toml`: {expected}")),
        "{message}"
    );
}

/// See: issue #8. A partial `[languages.python]` keeps the built-in
/// keys it does not set, and `.py` is read as `py`.
#[test]
fn r8_a_partial_language_merges_with_the_built_in_one() {
    let config = JudgeConfig::parse(
        Path::new("judge.toml"),
        "[languages.python]\ntime-factor = 5\n",
    )
    .unwrap();
    let python = &config.languages["python"];
    assert_eq!(python.time_factor, Some(5.0));
    assert_eq!(python.extensions, ["py", "py3"]);
    assert_eq!(python.run, ["python3", "{source}"]);
    assert!(python.compile.is_some());
    let config = JudgeConfig::parse(
        Path::new("judge.toml"),
        "[languages.python]\nextensions = [\".py\", \"pyw\"]\n",
    )
    .unwrap();
    assert_eq!(config.languages["python"].extensions, ["py", "pyw"]);
    assert!(config.language_for(Path::new("x.py")).is_some());
}

#[test]
fn submissions_folder_is_relative_to_judge_toml() {
    let config = JudgeConfig::parse(
        Path::new("class/judge.toml"),
        "submissions = \"hand-ins\"\n",
    )
    .unwrap();
    assert_eq!(config.submissions, Path::new("class/hand-ins"));
    let config = JudgeConfig::parse(Path::new("judge.toml"), "").unwrap();
    assert_eq!(config.submissions, Path::new("submissions"));
    assert_eq!(config.layout, Layout::ProblemStudent);
    assert_eq!(config.problems, None);
}

#[test]
fn expands_placeholders() {
    let values = Placeholders {
        source: Path::new("/d/a.c"),
        executable: Path::new("/d/a"),
        dir: Path::new("/d"),
        memory_mib: 64,
        class: "A",
        main_class: "B",
    };
    assert_eq!(
        Language::expand(
            &[
                "-o{executable}".into(),
                "{source}".into(),
                "-Xmx{memory_mib}m".into(),
                "{dir}".into()
            ],
            &values
        ),
        ["-o/d/a", "/d/a.c", "-Xmx64m", "/d"]
    );
}

/// Issue #33: a folder program's rules are the language table's, not
/// language names in the code: the built-in table gives Python's and
/// Java's entry points and C++'s C sources, a partial table keeps them, and
/// a language of the user's own takes them as written.
#[test]
fn folder_program_rules_come_from_the_language_table() {
    let config = JudgeConfig::parse(
        Path::new("judge.toml"),
        "[languages.python]\ntime-factor = 5\n\n[languages.pypy]\nextensions = [\"pypy\"]\n\
         run = [\"pypy3\", \"{source}\"]\nfolder-entry = \"main.pypy\"\nfolder-also = [\".py2\"]\n",
    )
    .unwrap();
    let rules = |name: &str| config.languages[name].folder.clone();
    assert_eq!(rules("python").entry.as_deref(), Some("__main__.py"));
    assert!(!rules("python").entry_declares_main);
    assert_eq!(rules("java").entry.as_deref(), Some("Main.java"));
    assert!(rules("java").entry_declares_main);
    assert_eq!(rules("cpp").also, ["c"]);
    assert_eq!(*rules("c"), crate::config::judge::FolderRules::default());
    assert_eq!(rules("pypy").entry.as_deref(), Some("main.pypy"));
    assert_eq!(rules("pypy").also, ["py2"]);
}

/// A C++ standard replaces only a C++ `-std=`, a C one only a C one; a
/// language whose compile names none of that family is left alone.
#[test_case("cpp", "gnu++23", Some("-std=gnu++23") ; "c++ takes a c++ standard")]
#[test_case("c", "gnu++23", None ; "c keeps its own against a c++ standard")]
#[test_case("c", "c11", Some("-std=c11") ; "c takes a c standard")]
#[test_case("cpp", "c11", None ; "c++ keeps its own against a c standard")]
#[test_case("python", "gnu++23", None ; "no compile no standard")]
fn a_standard_replaces_only_its_own_family(name: &str, standard: &str, flag: Option<&str>) {
    let config = JudgeConfig::defaults().unwrap();
    let language = &config.languages[name];
    let replaced = language.with_standard(standard);
    let got = replaced.as_ref().and_then(|language| {
        language
            .compile
            .as_ref()?
            .iter()
            .find(|word| word.starts_with("-std="))
            .cloned()
    });
    assert_eq!(got.as_deref(), flag);
}
