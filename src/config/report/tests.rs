use super::*;
use test_case::test_case;

/// A format of the tests' own, with a setting of each kind, so the
/// checks are pinned whatever the real formats declare.
static EXAMPLE: Declared = Declared {
    format: "example",
    settings: &[
        Setting {
            key: "shown",
            kind: Kind::OneOf {
                names: &["now", "later", "never"],
                default: "now",
            },
        },
        Setting {
            key: "seen-by",
            kind: Kind::OneOf {
                names: &["all", "some"],
                default: "all",
            },
        },
    ],
};

/// `text` (a judge.toml's `[report]` table's contents) read against
/// [`EXAMPLE`], and laid over `base` the same way.
fn read(text: &str) -> Result<ReportToml, ConfigError> {
    let path = Path::new("judge.toml");
    let deserializer =
        toml::Deserializer::parse(text).map_err(|error| ConfigError::parse(path, text, &error))?;
    de::DeserializeSeed::deserialize(ReportVisitor(vec![&EXAMPLE]), deserializer)
        .map_err(|error| ConfigError::parse(path, text, &error))
}

fn settings(user: &str, base: &str) -> Result<ReportSettings, String> {
    let user = read(user).map_err(|error| error.to_string())?;
    let base = read(base).map_err(|error| error.to_string())?;
    user.over_declared(base, Path::new("judge.toml"), &[&EXAMPLE])
        .map_err(|error| error.to_string())
}

#[test_case("", "", "now" ; "neither says: the declared default")]
#[test_case("", "[example]\nshown = \"later\"\n", "later" ; "the built-in one")]
#[test_case("[example]\nshown = \"never\"\n", "[example]\nshown = \"later\"\n", "never" ; "the user's over the built-in one")]
fn a_name_is_laid_over_the_built_in_one_and_the_default(user: &str, base: &str, wanted: &str) {
    let settings = settings(user, base).expect("valid");
    assert_eq!(settings.name("example", "shown"), Some(wanted));
    assert_eq!(settings.name("example", "seen-by"), Some("all"));
    assert_eq!(settings.name("example", "unknown"), None);
}

#[test_case("[example]\nshown = \"soon\"\n", "`report.example.shown`: `soon` is not one of `now`, `later`, `never`" ; "a name that is not one of them names its key")]
#[test_case("[example]\nshwn = \"now\"\n", "line 2, column 1: unknown field `shwn`, expected `shown` or `seen-by`; did you mean `shown`?" ; "an unknown key gets a guess")]
#[test_case("[exampel]\n", "line 1, column 2: unknown field `exampel`, expected `example`; did you mean `example`?" ; "an unknown format gets a guess")]
#[test_case("example = 3\n", "line 1, column 11: invalid type: integer `3`, expected a table `[report.example]` (`shown = \"...\"`, `seen-by = \"...\"`)" ; "a table of the wrong type says what it holds")]
#[test_case("[example]\nshown = 1\n", "line 2, column 9: invalid type: integer `1`, expected a string" ; "a value of the wrong type")]
fn a_wrong_table_names_its_line_and_key(user: &str, wanted: &str) {
    let said = settings(user, "").expect_err("refused");
    // The line of a value that is not allowed is found in the file's text
    // as judge.toml loads (`key_line`, pinned end to end by
    // `r30_judge_toml_says_when_gradescope_shows_hidden_tests`); here,
    // without a file, the message names the key alone.
    assert!(said.ends_with(wanted), "{said}");
}

/// Each format's settings are documented for users where they look
/// (docs/configuration.md, under `[report.<format>]`): every key, with
/// its default and every name it takes.
#[test]
fn every_declared_setting_is_documented() {
    let docs = include_str!("../../../docs/configuration.md");
    let declared = declared();
    assert!(!declared.is_empty());
    for format in declared {
        let heading = format!("### [report.{}]", format.format);
        let section = docs
            .split_once(&heading)
            .map(|(_, after)| after.split("\n### ").next().unwrap_or(after))
            .unwrap_or_else(|| panic!("docs/configuration.md has no `{heading}`"));
        for setting in format.settings {
            let Kind::OneOf { names, default } = setting.kind;
            let row = format!("| `{}` | `\"{default}\"` |", setting.key);
            assert!(section.contains(&row), "{heading}: no row `{row}`");
            for name in names {
                assert!(
                    section.contains(&format!("`\"{name}\"`")),
                    "{heading}: `{name}`"
                );
            }
        }
    }
}
