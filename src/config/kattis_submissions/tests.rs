use super::*;
use test_case::test_case;
use Verdict::*;

#[test]
fn reads_globs_and_their_expectations() {
    let text = "accepted/*:\n  permitted: [AC]\nmixed/slow.py:\n  permitted: [AC, TLE]\n  \
                required: [TLE]\n  score: [20, 60]\n  message: too slow\n  authors: Ann\n";
    let read = parse(text).unwrap();
    assert_eq!(read.len(), 2);
    assert_eq!(read[0].glob, "accepted/*");
    assert_eq!(read[0].line, 1);
    assert!(read[0].matches(Path::new("accepted/a.py")));
    assert!(!read[0].matches(Path::new("accepted_too/a.py")));
    assert_eq!(read[1].line, 3);
    let own = &read[1].rules[0];
    assert_eq!(own.permitted, Some(vec![Accepted, TimeLimitExceeded]));
    assert_eq!(own.required, Some(vec![TimeLimitExceeded]));
    assert_eq!(own.score, Some((20.0, 60.0)));
    assert_eq!(own.message.as_deref(), Some("too slow"));
}

/// The 2025-09 spec's example keys, every one: metadata, a test group's
/// demands, `use_for_time_limit`.
#[test]
fn reads_every_key_of_the_format() {
    let text = "run_time_error/not_defined:\n  language: python3\n  entrypoint: main.py\n  \
                authors: [Ann <ann@x.org>, {name: Bob, orcid: 0000-0002-1825-0097}]\n  \
                model_solution: false\n\
                solves_group_1.py:\n  sample:\n    permitted: [AC]\n  secret/group2:\n    \
                permitted: [AC, TLE]\n    required: [TLE]\n    score: 0\n\
                tle:\n  use_for_time_limit: upper\n  secret/*-easy:\n    use_for_time_limit: lower\n";
    let read = parse(text).unwrap();
    assert_eq!(read[0].language.as_deref(), Some("python3"));
    assert_eq!(read[0].entrypoint.as_deref(), Some("main.py"));
    assert!(!read[0].demands());
    let group = &read[1].rules[2];
    assert!(group.applies_to("secret/group2/1"));
    assert!(!group.applies_to("secret/group1/1"));
    assert!(group.bounds_group("secret/group2"));
    assert_eq!(group.score, Some((0.0, 0.0)));
    assert!(read[1].has_group_rules());
    assert_eq!(
        read[1].demand(),
        "on `sample`: permitted AC; on `secret/group2`: permitted AC, TLE; required TLE; score 0 to 0"
    );
    assert_eq!(read[2].use_for_time_limit(), Some(TimeLimitUse::Upper));
    assert_eq!(read[2].rules[0].required, Some(vec![TimeLimitExceeded]));
    assert_eq!(
        read[2].rules[1].permitted,
        Some(vec![Accepted, WrongAnswer, RuntimeError])
    );
}

/// The format: a default folder's name as a glob replaces the folder's
/// demand, the keys it does not give taken from the default.
#[test]
fn a_default_folder_key_inherits_what_it_does_not_give() {
    let read =
        parse("wrong_answer:\n  permitted: [AC, WA, TLE]\nac_or_wa:\n  permitted: [AC, WA]\n")
            .unwrap();
    assert_eq!(read[0].replaces_folder, Some("wrong_answer"));
    assert_eq!(read[0].rules[0].required, Some(vec![WrongAnswer]));
    assert_eq!(read[1].replaces_folder, None);
    assert_eq!(read[1].rules[0].required, None);
}

#[test_case("a/*:\n  permited: [AC]\n", "line 2: `a/*`: unknown key `permited`: expected one of" ; "an unknown key")]
#[test_case("a/*:\n  sample:\n    permited: [AC]\n", "line 3: `a/*`: `sample`: unknown key `permited`" ; "an unknown key in a group")]
#[test_case("a/*:\n  sample: [AC]\n", "line 2: `a/*`: the test group glob `sample` must map to" ; "a group that is no map")]
#[test_case("a/*:\n  permitted: [AC]\nb/*:\n  required: [OK]\n", "line 4: `b/*`: `required`: `OK` is not a verdict of the format (AC, WA, RTE, TLE)" ; "an unknown verdict")]
#[test_case("a/*:\n  permitted: []\n", "line 2: `a/*`: `permitted` lists no verdict" ; "no verdict")]
#[test_case("a/*:\n  score: [60, 20]\n", "line 2: `a/*`: `score` must be a number" ; "a backwards range")]
#[test_case("a/*:\n  score: -1\n", "line 2: `a/*`: `score` must be a number" ; "a negative score")]
#[test_case("a/*:\n  language: klingon\n", "line 2: `a/*`: `language`: `klingon` is not a language code" ; "an unknown language")]
#[test_case("a/*:\n  entrypoint: 3\n", "line 2: `a/*`: `entrypoint` must be a non-empty string" ; "an entry point that is no string")]
#[test_case("a/*:\n  authors: []\n", "line 2: `a/*`: `authors` must be a person" ; "no author")]
#[test_case("a/*:\n  authors: {email: a@b.c}\n", "line 2: `a/*`: `authors` must be a person" ; "an author without a name")]
#[test_case("a/*:\n  model_solution: yes please\n", "line 2: `a/*`: `model_solution` must be true or false" ; "model solution no bool")]
#[test_case("a/*:\n  use_for_time_limit: yes please\n", "line 2: `a/*`: `use_for_time_limit` must be `true`, `false`" ; "time limit use no bool")]
#[test_case("a/*:\n  use_for_time_limit: upper\n  permitted: [AC, WA]\n", "`use_for_time_limit` contradicts" ; "upper without tle permitted")]
#[test_case("a/[xy]:\n  permitted: [AC]\n", "line 1: `a/[xy]`: not a glob: `[...]` is not supported" ; "a bad glob")]
#[test_case("a/*:\n  permitted: [AC\n", "line 3, column 1: did not find expected" ; "bad yaml")]
fn refuses_a_bad_entry_with_its_line(text: &str, wanted: &str) {
    let error = parse(text).unwrap_err().to_string();
    assert!(error.contains(wanted), "{error}");
}

/// Issue #34: the format's type is "Bool or string"; `true` is the
/// default, no opt-out.
#[test]
fn use_for_time_limit_true_is_the_default() {
    let read = parse("accepted/a.py:\n  use_for_time_limit: true\n").expect("accepted");
    assert_eq!(read[0].use_for_time_limit(), None);
}
