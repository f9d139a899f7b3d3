//! The class page of `judge grade --html` and what a teacher hands out
//! from it (issue #32, item 7).

use crate::support::{repository, Dir};
use scraper::{Html, Selector};

fn bundled(path: &str) -> String {
    fs_err::read_to_string(repository().join("submissions").join(path)).unwrap()
}

/// A class of `student/problem` hand-ins for rooks and matchsticks: alice
/// right on both, "Zoë Müller" wrong on rooks, eve only a misnamed
/// `rook.py`.
fn class(extra: &str) -> Dir {
    let dir = Dir::new();
    dir.create(
        "judge.toml",
        format!(
            "submissions = \"hand-ins\"\nlayout = \"student/problem\"\nrandom-tests = 1\n\
             jobs = 2\nproblems = [\"rooks\", \"matchsticks\"]\n{extra}"
        ),
    );
    dir.create(
        "hand-ins/alice/rooks.py",
        bundled("rooks/accepted/matching.py"),
    );
    dir.create(
        "hand-ins/alice/matchsticks.py",
        bundled("matchsticks/accepted/memo.py"),
    );
    dir.create(
        "hand-ins/Zoë Müller/rooks.py",
        bundled("rooks/wrong_answer/ignores_walls.py"),
    );
    dir.create(
        "hand-ins/eve/rook.py",
        bundled("rooks/accepted/matching.py"),
    );
    dir
}

/// A file name as the pages link to it: every byte but ASCII letters,
/// digits and `-_.~` percent-encoded.
fn encoded(name: &str) -> String {
    name.bytes()
        .map(|byte| {
            if byte.is_ascii_alphanumeric() || b"-_.~".contains(&byte) {
                char::from(byte).to_string()
            } else {
                format!("%{byte:02X}")
            }
        })
        .collect()
}

fn select(html: &Html, selector: &str) -> Vec<String> {
    html.select(&Selector::parse(selector).unwrap())
        .map(|element| element.text().collect::<String>().trim().to_owned())
        .collect()
}

fn attributes(html: &Html, selector: &str, attribute: &str) -> Vec<String> {
    html.select(&Selector::parse(selector).unwrap())
        .filter_map(|element| element.value().attr(attribute).map(str::to_owned))
        .collect()
}

/// See: issue #32. `--student-view --html grades.html` writes one page per
/// student, `grades/<student>.html`, to hand to that student: their total,
/// a row per problem (missing ones too), their misnamed files and their
/// submissions, and no other student's name; a hidden test's time and
/// memory read `hidden`, not `0 ms, 0 KiB`. The class page, the teacher's,
/// links each cell to its student's page.
#[test]
fn r32_the_student_view_writes_a_page_per_student_that_names_no_other() {
    let dir = class("");
    dir.judge(&["grade", "-q", "--student-view", "--html", "grades.html"])
        .expect_code(1);
    let mut pages: Vec<String> = fs_err::read_dir(dir.path().join("grades"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| !name.starts_with('.'))
        .collect();
    pages.sort();
    assert_eq!(pages, ["Zoë_Müller.html", "alice.html", "eve.html"]);
    let students = ["alice", "Zoë Müller", "eve"];
    for (page, student) in ["alice.html", "Zoë_Müller.html", "eve.html"]
        .iter()
        .zip(students)
    {
        let text = dir.read(&format!("grades/{page}"));
        // The student's own sources are on the page (their text is theirs:
        // `every` is no name); nothing else may name another student.
        let outside_sources: String = text
            .split("<details class=\"source\"")
            .enumerate()
            .map(|(index, part)| match part.split_once("</details>") {
                Some((_, rest)) if index > 0 => rest,
                _ => part,
            })
            .collect();
        assert_eq!(
            text.contains("<pre class=\"source\">"),
            student != "eve",
            "only eve handed in nothing graded: {page}"
        );
        for other in students.iter().filter(|other| **other != student) {
            assert!(
                !outside_sources.contains(other),
                "{page} names {other}:\n{text}"
            );
        }
        assert!(!text.contains("grades.html"), "{page} links the class page");
        let html = Html::parse_document(&text);
        assert_eq!(select(&html, "h1"), [student]);
    }

    let zoe = Html::parse_document(&dir.read("grades/Zoë_Müller.html"));
    assert_eq!(
        select(&zoe, "table.ranking tbody tr"),
        [
            "rooksWA4/850.00",
            "matchsticksmissing: nothing handed in0.00"
        ]
    );
    assert_eq!(select(&zoe, "p.summary"), ["total 50.00 of 200"]);
    let times = select(&zoe, "details.test summary .time");
    let names = select(&zoe, "details.test summary .name");
    assert!(names.len() > 2, "{names:?}");
    for (name, time) in names.iter().zip(&times) {
        if name.starts_with("sample") {
            assert!(time.ends_with("ms wall"), "{name}: {time}");
        } else {
            assert_eq!(time, "hidden", "{name}");
        }
    }
    let memories = select(&zoe, "details.test summary .memory");
    assert_eq!(
        memories.iter().filter(|memory| *memory == "hidden").count(),
        names
            .iter()
            .filter(|name| !name.starts_with("sample"))
            .count()
    );

    let eve = Html::parse_document(&dir.read("grades/eve.html"));
    assert_eq!(
        select(&eve, "table.ignored td"),
        [
            "hand-ins/eve/rook.py",
            "`rook` is not one of `problems` (rooks, matchsticks); did you mean `rooks`?"
        ]
    );
    assert!(select(&eve, "section.submission").is_empty());

    let class = Html::parse_document(&dir.read("grades.html"));
    let links = attributes(&class, "table.matrix a.cell", "href");
    assert_eq!(links.len(), 3, "{links:?}");
    for link in &links {
        let (page, anchor) = link.split_once('#').unwrap();
        let page = page.strip_prefix("grades/").unwrap();
        assert!(pages.iter().any(|name| encoded(name) == page), "{link}");
        let target = pages.iter().find(|name| encoded(name) == page).unwrap();
        assert!(
            dir.read(&format!("grades/{target}"))
                .contains(&format!("id=\"{anchor}\"")),
            "{link}"
        );
    }
}

/// See: issue #32. The class page of a class where frank handed in two
/// files for rooks, eve only a misnamed one and Émile nothing: the two
/// files are their own category (`2 files`, naming both, in the header's
/// counts apart from the compile errors), not "Did not compile" naming
/// one; the header counts the missing pairs; every student is in "Students
/// by score", eve too, and names read as a class list ("alice" before
/// "Émile" before "Zoë Müller").
#[test]
fn r32_two_files_are_their_own_category_and_every_student_is_ranked() {
    let dir = class("");
    dir.create(
        "hand-ins/frank/rooks.py",
        bundled("rooks/accepted/matching.py"),
    );
    dir.create(
        "hand-ins/frank/rooks.cpp",
        bundled("rooks/accepted/backtracking.cpp"),
    );
    dir.create(
        "hand-ins/Émile/rooks.py",
        bundled("rooks/accepted/matching.py"),
    );
    dir.judge(&["grade", "-q", "--html", "grades.html", "--json", "r.json"])
        .expect_code(1);
    let report = crate::support::report(&dir.read("r.json"));
    let frank = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|result| result["student"] == "frank")
        .unwrap();
    assert_eq!(
        frank["handed_in"],
        serde_json::json!(["hand-ins/frank/rooks.cpp", "hand-ins/frank/rooks.py"]),
        "{frank:#}"
    );

    let class = Html::parse_document(&dir.read("grades.html"));
    // alice's two, Zoë's, frank's and Émile's rooks; matchsticks missing
    // for all but alice, rooks for eve.
    assert_eq!(
        select(&class, "p.summary"),
        ["5 submissions · AC 3 · WA 1 · files 1 · 5 missing"]
    );
    // By total, equal totals in class-list order; eve, with only a
    // misnamed file, is there with 0.
    assert_eq!(
        select(&class, "table.ranking tbody th"),
        ["alice", "Émile", "Zoë Müller", "eve", "frank"]
    );
    assert_eq!(
        select(&class, "table.matrix tbody th"),
        ["alice", "Émile", "eve", "frank", "Zoë Müller"]
    );
    let files_cell = attributes(&class, "table.matrix a.cell.v-files", "title");
    assert_eq!(
        files_cell,
        ["hand-ins/frank/rooks.cpp, hand-ins/frank/rooks.py"]
    );
    assert_eq!(select(&class, "table.matrix a.cell.v-files"), ["2 files"]);
    let rooks = select(&class, "section.problem p.verdicts");
    assert!(
        rooks.iter().any(|counts| counts.ends_with("files 1")),
        "{rooks:?}"
    );
    assert!(
        rooks.iter().all(|counts| !counts.contains("CE")),
        "{rooks:?}"
    );

    let page = dir.read("grades/frank-rooks.html");
    assert!(!page.contains("Did not compile"), "{page}");
    let page = Html::parse_document(&page);
    assert_eq!(
        select(&page, "ul.handed-in li"),
        ["hand-ins/frank/rooks.cpp", "hand-ins/frank/rooks.py"]
    );
}

/// See: issue #32. Two files for one problem are "2 files" in the
/// terminal table, the summary and the CSV too, as on the class page:
/// neither was compiled, so no CE anywhere.
#[test]
fn r32_two_files_read_as_two_files_in_the_table_summary_and_csv() {
    let dir = class("");
    dir.create(
        "hand-ins/frank/rooks.py",
        bundled("rooks/accepted/matching.py"),
    );
    dir.create(
        "hand-ins/frank/rooks.cpp",
        bundled("rooks/accepted/backtracking.cpp"),
    );
    let run = dir.judge(&["grade", "--csv", "grades.csv"]);
    run.expect_code(1);
    let out = run.stdout();
    let frank = crate::support::line_of(&out, "frank");
    assert!(frank.contains("2 files") && !frank.contains("CE"), "{out}");
    let summary = out
        .lines()
        .find(|line| line.contains(" submissions: "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        summary.contains("1 with several files") && !summary.contains("CE"),
        "{summary}"
    );
    let csv = dir.read("grades.csv");
    let row = csv
        .lines()
        .find(|line| line.starts_with("frank,rooks,"))
        .unwrap_or_else(|| panic!("{csv}"));
    assert!(row.starts_with("frank,rooks,0.00,2 files,"), "{csv}");
}
