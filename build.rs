//! Embeds the bundled problem packages (`problems/<id>/...`: manifest,
//! statement, samples and fixed tests) in the binary, so an installed judge,
//! or one run with `--config elsewhere/judge.toml`, grades with the same
//! tests as one run from the repository (see `src/config/bundled.rs`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    // Read when the script runs, not baked in when it is compiled
    // (`env!`): a build script compiled in one checkout and reused from a
    // copied `target/` would walk the first checkout's folders.
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    println!("cargo:rerun-if-changed=problems");
    let root = manifest_dir.join("problems");
    let mut files = Vec::new();
    walk(&root, &mut files);
    files.sort();
    let mut code = String::from("static FILES: &[(&str, &[u8])] = &[\n");
    for path in &files {
        let Ok(relative) = path.strip_prefix(&root) else {
            continue;
        };
        let relative: Vec<String> = relative
            .iter()
            .map(|part| part.to_string_lossy().into_owned())
            .collect();
        // Cargo reruns this script when anything under problems/ changes.
        println!("cargo:rerun-if-changed={}", path.display());
        let _ = writeln!(
            code,
            "    ({:?}, include_bytes!({:?}) as &[u8]),",
            relative.join("/"),
            path.display().to_string()
        );
    }
    code.push_str("];\n");
    // The example submissions of the bundled packages (`submissions/<id>/
    // <verdict>/<file>`), which `judge export --kattis` writes into a
    // Kattis package's `submissions/`.
    let examples_root = manifest_dir.join("submissions");
    println!("cargo:rerun-if-changed=submissions");
    let mut examples = Vec::new();
    walk(&examples_root, &mut examples);
    examples.sort();
    code.push_str("static EXAMPLES: &[(&str, &[u8])] = &[\n");
    for path in &examples {
        let Ok(relative) = path.strip_prefix(&examples_root) else {
            continue;
        };
        let relative: Vec<String> = relative
            .iter()
            .map(|part| part.to_string_lossy().into_owned())
            .collect();
        println!("cargo:rerun-if-changed={}", path.display());
        let _ = writeln!(
            code,
            "    ({:?}, include_bytes!({:?}) as &[u8]),",
            relative.join("/"),
            path.display().to_string()
        );
    }
    code.push_str("];\n");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    let out = out_dir.join("bundled.rs");
    if let Err(error) = write_if_changed(&out, code.as_bytes()) {
        panic!("failed to write `{}`: {error}", out.display());
    }
    // The mayan solver's table of sideways travel (see
    // src/problems/mayan/spread.rs): computed once here, not in each solve.
    println!("cargo:rerun-if-changed=src/problems/mayan/spread.rs");
    let out = out_dir.join("spread_costs.bin");
    if let Err(error) = write_if_changed(&out, &spread::table()) {
        panic!("failed to write `{}`: {error}", out.display());
    }
}

#[path = "src/problems/mayan/spread.rs"]
mod spread;

fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let hidden = entry.file_name().to_string_lossy().starts_with('.');
        if hidden {
            continue;
        }
        if path.is_dir() {
            walk(&path, files);
        } else {
            files.push(path);
        }
    }
}

#[expect(
    clippy::disallowed_methods,
    reason = "a build script has no fs_err dependency"
)]
fn write_if_changed(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    if std::fs::read(path).is_ok_and(|old| old == contents) {
        return Ok(());
    }
    std::fs::write(path, contents)
}
