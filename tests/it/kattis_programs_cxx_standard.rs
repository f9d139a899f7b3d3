//! A Kattis package's own programs in C++ (input validators, output
//! validators, interactors, generators) compile with `-std=gnu++23`, as
//! its submissions do and as problemtools and BAPCtools compile them
//! (issue #34): a validator using a C++20 or later feature is no compile
//! error because judge.toml's C++ says `-std=gnu++17`.

use crate::support::{Dir, PackageBuilder};

/// Refuses to compile under a standard older than C++20, whatever the
/// compiler: the line a setter's `std::ssize` would fail on.
const NEEDS_CXX20: &str = "#if __cplusplus <= 201703L\n#error compiled as C++17 or older\n#endif\n";

#[test]
fn a_package_s_validators_in_cpp_compile_with_the_format_s_standard() {
    let dir = Dir::new();
    let input_validator = format!(
        "{NEEDS_CXX20}#include <iostream>\nint main() {{ long long a, b; \
         if (std::cin >> a >> b) return 42; return 43; }}\n"
    );
    let output_validator = format!(
        "{NEEDS_CXX20}#include <fstream>\n#include <iostream>\n\
         int main(int argc, char **argv) {{ std::ifstream answer(argv[2]); long long want, got; \
         answer >> want; if (!(std::cin >> got) || got != want) return 43; return 42; }}\n"
    );
    PackageBuilder::kattis(&dir, "p")
        .manifest("problem_format_version: 2025-09\nname: Sum\nlimits:\n  time_limit: 2\n")
        .test("sample/1", "1 2\n", "3\n")
        .test("secret/1", "5 5\n", "10\n")
        .file("input_validators/validate.cpp", &input_validator)
        .file("output_validator/check.cpp", &output_validator)
        .submission(
            "accepted/sum.py",
            "a, b = map(int, input().split())\nprint(a + b)\n",
        )
        .submission(
            "wrong_answer/minus.py",
            "a, b = map(int, input().split())\nprint(a - b)\n",
        )
        .build();
    let run = dir.judge(&["grade", "--package", "p"]);
    run.expect_code(0);
    assert!(
        run.stdout()
            .contains("2 of 2 submissions got their folder's verdict; 0 skipped"),
        "{}{}",
        run.stdout(),
        run.stderr()
    );
}
