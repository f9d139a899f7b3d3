use super::*;
use test_case::test_case;

const MINIMAL: &str = r#"<?xml version="1.0" encoding="utf-8" standalone="no"?>
<problem revision="3" short-name="sum">
<names>
    <name language="russian" value="Сумма"/>
    <name language="english" value="Sum"/>
</names>
<judging input-file="" output-file="">
    <testset name="tests">
        <time-limit>2000</time-limit>
        <memory-limit>268435456</memory-limit>
        <test-count>3</test-count>
        <input-path-pattern>tests/%02d</input-path-pattern>
        <answer-path-pattern>tests/%02d.a</answer-path-pattern>
        <tests>
            <test method="manual" sample="true" group="0" points="0"/>
            <test cmd="gen 10 20 1" method="generated" group="1" points="30"/>
            <test cmd="gen 5 5 2" method="generated" group="1" points="30"/>
        </tests>
        <groups>
            <group name="0" points-policy="each-test"/>
            <group name="1" points-policy="complete-group">
                <dependencies>
                    <dependency group="0"/>
                </dependencies>
            </group>
        </groups>
    </testset>
</judging>
<files>
    <resources>
        <file path="files/testlib.h" type="h.g++"/>
    </resources>
    <executables>
        <executable>
            <source path="files/gen.cpp" type="cpp.g++17"/>
        </executable>
    </executables>
</files>
<assets>
    <checker name="std::ncmp.cpp" type="testlib">
        <source path="files/check.cpp" type="cpp.g++17"/>
    </checker>
    <validators>
        <validator>
            <source path="files/validator.cpp" type="cpp.g++17"/>
        </validator>
    </validators>
    <solutions>
        <solution tag="main">
            <source path="solutions/sum.cpp" type="cpp.g++17"/>
        </solution>
        <solution tag="time-limit-exceeded-or-accepted">
            <source path="solutions/slow.py" type="python.3"/>
        </solution>
    </solutions>
</assets>
</problem>
"#;

fn parsed(text: &str) -> Result<ProblemXml, String> {
    parse(Path::new("problem.xml"), text).map_err(|error| error.to_string())
}

#[test]
fn reads_a_whole_package_description() {
    let problem = parsed(MINIMAL).unwrap();
    assert_eq!(problem.short_name.as_deref(), Some("sum"));
    assert_eq!(problem.title.as_deref(), Some("Sum"));
    let testset = &problem.testsets[0];
    assert_eq!(testset.time_limit_ms, 2000);
    assert_eq!(testset.memory_limit_bytes, 268_435_456);
    assert_eq!(testset.tests.len(), 3);
    assert!(testset.tests[0].sample);
    assert_eq!(
        testset.tests[1].method,
        Method::Generated {
            cmd: "gen 10 20 1".to_owned()
        }
    );
    assert_eq!(testset.tests[2].points, Some(30.0));
    assert_eq!(testset.groups[0].policy, PointsPolicy::EachTest);
    assert_eq!(testset.groups[1].dependencies, vec!["0".to_owned()]);
    assert_eq!(problem.resources[0].value, "files/testlib.h");
    assert_eq!(problem.executables[0].value, "files/gen.cpp");
    let checker = problem.checker.unwrap();
    assert_eq!(checker.source.value, "files/check.cpp");
    assert_eq!(checker.name.as_deref(), Some("std::ncmp.cpp"));
    assert_eq!(problem.validators[0].value, "files/validator.cpp");
    assert_eq!(
        problem.solutions[1].tag,
        SolutionTag::TimeLimitExceededOrAccepted
    );
    assert_eq!(problem.solutions[1].line, 52);
}

#[test_case("<time-limit>2000</time-limit>", "<time-limit>2s</time-limit>",
    "line 9: `<time-limit>`: expected a whole number, 0 or more, found `2s`" ; "time limit not a number")]
#[test_case("<test-count>3</test-count>", "<test-count>4</test-count>",
    "line 11: `<test-count>`: says 4 tests, but `<tests>` lists 3" ; "test count disagrees")]
#[test_case(r#"tag="main""#, r#"tag="correct""#,
    "line 49: `<solution>`: unknown solution tag `correct`; known: main, accepted" ; "unknown tag")]
#[test_case(r#"points-policy="each-test""#, r#"points-policy="sum""#,
    "line 20: `<group>`: `points-policy`: expected `complete-group` or `each-test`, found `sum`" ; "unknown policy")]
#[test_case(r#"method="manual""#, r#"method="script""#,
    "line 15: `<test>`: `method`: expected `manual` or `generated`, found `script`" ; "unknown method")]
#[test_case("tests/%02d.a", "tests/answer.a",
    "line 13: `<answer-path-pattern>`: `tests/answer.a` must hold one `%d`" ; "pattern without number")]
#[test_case("<memory-limit>268435456</memory-limit>", "<memory-limit>256</memory-limit>",
    "line 10: `<memory-limit>`: 256 bytes is less than 1 MiB" ; "memory limit in mebibytes")]
#[test_case(r#"type="testlib""#, r#"type="exitcode""#,
    "line 40: `<checker>`: checker type `exitcode` is not read" ; "checker type")]
#[test_case("<time-limit>2000</time-limit>", "",
    "line 8: `<testset>`: has no `<time-limit>`" ; "missing time limit")]
#[test_case("<time-limit>2000</time-limit>", "<time-limit>99999999999999999999999</time-limit>",
    "line 9: `<time-limit>`: `99999999999999999999999` is too large a number (at most 18446744073709551615)" ; "time limit overflows")]
#[test_case("<time-limit>2000</time-limit>", "<time-limit>600001</time-limit>",
    "line 9: `<time-limit>`: 600001 ms is more than the 600000 ms (10 minutes) the judge applies" ; "time limit too long")]
#[test_case("<memory-limit>268435456</memory-limit>", "<memory-limit>18446744073709551615</memory-limit>",
    "line 10: `<memory-limit>`: 18446744073709551615 bytes is more than the 64 GiB the judge applies" ; "memory limit as no limit")]
#[test_case(r#"points="30""#, r#"points="1e1""#,
    "line 16: `<test>`: `points`: expected a number of at least 0 (such as `20` or `2.5`), found `1e1`" ; "points with an exponent")]
#[test_case(r#"points="30""#, r#"points="-0""#,
    "line 16: `<test>`: `points`: expected a number of at least 0 (such as `20` or `2.5`), found `-0`" ; "points minus zero")]
#[test_case(r#"points="30""#, r#"points="+3""#,
    "line 16: `<test>`: `points`: expected a number" ; "points with a sign")]
#[test_case("</problem>", "</problm>",
    "failed to load `problem.xml`: line 57, column 1: expected 'problem' tag, not 'problm'" ; "broken xml")]
fn a_bad_problem_xml_names_line_and_element(from: &str, to: &str, wanted: &str) {
    let text = MINIMAL.replacen(from, to, 1);
    let error = parsed(&text).unwrap_err();
    assert!(error.contains(wanted), "{error}");
    assert!(
        error.starts_with("failed to load `problem.xml`: "),
        "{error}"
    );
}

/// `problem.xml` ended by `<properties>` holding `property`.
fn with_property(property: &str) -> String {
    MINIMAL.replacen(
        "</problem>",
        &format!("    <properties>\n        {property}\n    </properties>\n</problem>"),
        1,
    )
}

#[test_case(None, false ; "no properties")]
#[test_case(Some(r#"<property name="tests-wellformed" value="true"/>"#), true ; "well-formed")]
#[test_case(Some(r#"<property name="tests-wellformed" value="false"/>"#), false ; "not well-formed")]
#[test_case(Some(r#"<property name="multipass" value="yes"/>"#), false ; "another property")]
fn the_tests_wellformed_property_is_read(property: Option<&str>, wanted: bool) {
    let text = property.map_or_else(|| MINIMAL.to_owned(), with_property);
    assert_eq!(parsed(&text).unwrap().tests_wellformed, wanted);
}

#[test]
fn a_tests_wellformed_property_that_is_no_boolean_names_its_line() {
    let text = with_property(r#"<property name="tests-wellformed" value="yes"/>"#);
    let error = parsed(&text).unwrap_err();
    assert!(
        error.contains(
            "line 58: `<property>`: `tests-wellformed`: expected `true` or `false`, found `yes`"
        ),
        "{error}"
    );
}

/// See: issue #29. Each source compiles with the C++ standard its
/// `type` names, as on Polygon.
#[test_case("cpp.g++17", Some("c++17") ; "g++17")]
#[test_case("cpp.g++20", Some("c++20") ; "g++20")]
#[test_case("cpp.gcc13-64-winlibs-g++20", Some("c++20") ; "winlibs")]
#[test_case("cpp.g++11", Some("c++11") ; "g++11")]
#[test_case("cpp.ms2017", None ; "visual c++")]
#[test_case("cpp.g++", None ; "no number")]
#[test_case("python.3", None ; "not c++")]
#[test_case("c.gcc", None ; "c")]
fn a_source_type_names_its_cpp_standard(kind: &str, wanted: Option<&str>) {
    assert_eq!(cpp_standard(kind).as_deref(), wanted);
}

#[test]
fn the_standard_of_a_source_is_read_from_its_type() {
    let problem = parsed(&MINIMAL.replacen("cpp.g++17", "cpp.g++20", 1)).unwrap();
    assert_eq!(
        problem.standard_of("files/gen.cpp").as_deref(),
        Some("c++20")
    );
    assert_eq!(
        problem.standard_of("files/check.cpp").as_deref(),
        Some("c++17")
    );
    assert_eq!(problem.standard_of("solutions/slow.py"), None);
}

#[test_case("tests/%02d", 3, "tests/03")]
#[test_case("tests/%02d.a", 12, "tests/12.a")]
#[test_case("tests/%d", 7, "tests/7")]
#[test_case("t/%03d-%%", 5, "t/005-%")]
fn patterns_expand_the_test_number(pattern: &str, number: usize, wanted: &str) {
    assert_eq!(check_pattern(pattern), Ok(()));
    assert_eq!(expand_pattern(pattern, number), wanted);
}

#[test]
fn patterns_with_other_conversions_are_refused() {
    assert!(check_pattern("tests/%s").is_err());
    assert!(check_pattern("tests/%d-%d").is_err());
}
