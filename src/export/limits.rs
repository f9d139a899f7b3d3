//! The memory and output limits `judge export --kattis` writes (issue #34,
//! item 8; the output limit: its break-it, finding 3).
//!
//! `memory` means two different things on the two sides of an export:
//!
//! - the judge (and a judge that limits memory as it does, with a memory
//!   cgroup: DOMjudge) limits the **resident** memory of the submission's
//!   whole process tree;
//! - Kattis' problemtools (`verifyproblem`) sets `RLIMIT_AS`, the
//!   **address space** of each process, to `memory` (Java, Kotlin, Scala
//!   and Common Lisp excepted).
//!
//! For a compiled program the two are close. PyPy, problemtools' Python,
//! is not: at start it maps about 66 MiB (PyPy 7.3) and then a nursery of
//! half the smallest `cache size` that `/proc/cpuinfo` reports (4 MiB when
//! that is 8 MiB or less), address space it only touches as the program
//! allocates. On a CPU that reports 480 MiB of cache the nursery is 240 MiB,
//! and PyPy dies at start under `memory: 256` ("cannot allocate nursery")
//! although the program needs a few MiB. No fixed figure covers every CPU
//! (the nursery has no upper bound), so an export with Python examples
//! writes the package's resident limit plus PyPy's start-up mapping plus
//! the nursery of a CPU that reports [`COVERED_CACHE_MIB`] of cache; the
//! export says so, since a judge that limits resident memory then lets a
//! submission use more than the judge did.

use std::path::Path;

/// What `pypy3` maps before its nursery, rounded up for other builds: 66
/// MiB measured for PyPy 7.3.11 (`VmPeak` with `PYPY_GC_NURSERY=1MB`).
pub(crate) const PYPY_BASE_MIB: u64 = 96;

/// The largest `cache size` (in `/proc/cpuinfo`) whose PyPy nursery the
/// exported limit leaves room for: twice the largest L3 of a server CPU
/// on sale today (about 500 MiB); a virtual machine may report any figure.
pub(crate) const COVERED_CACHE_MIB: u64 = 1024;

/// The nursery PyPy's garbage collector reserves on a CPU that reports
/// `cache_mib` of cache (`rpython/memory/gc/env.py`): half of it above 8
/// MiB, else 4 MiB.
pub(crate) fn pypy_nursery_mib(cache_mib: u64) -> u64 {
    if cache_mib > 8 {
        cache_mib / 2
    } else {
        4
    }
}

/// The exported `memory` for a package whose submissions may use
/// `resident_mib` of resident memory, and the address-space allowance in
/// it (0 when problemtools runs none of the exported programs under PyPy).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Memory {
    pub(crate) mib: u64,
    pub(crate) pypy_allowance_mib: u64,
}

/// The `memory` to export: the package's resident limit, plus, when
/// problemtools runs some exported program under PyPy, PyPy's start-up
/// mapping and the nursery of a CPU with [`COVERED_CACHE_MIB`] of cache.
pub(crate) fn memory(resident_mib: u64, runs_pypy: bool) -> Memory {
    let pypy_allowance_mib = if runs_pypy {
        PYPY_BASE_MIB + pypy_nursery_mib(COVERED_CACHE_MIB)
    } else {
        0
    };
    Memory {
        mib: resident_mib + pypy_allowance_mib,
        pypy_allowance_mib,
    }
}

/// Whether problemtools runs `file` under PyPy: its Python 3 (`*.py`,
/// `*.py3`) and Python 2 (`*.py2`, or `*.py` with a python2 shebang) are
/// both PyPy.
pub(crate) fn runs_under_pypy(file: &Path) -> bool {
    file.extension()
        .and_then(|extension| extension.to_str())
        .is_some_and(|extension| matches!(extension, "py" | "py3" | "py2"))
}

/// What the export says about its memory limit when it is not the
/// package's: why, and where a judge cannot be matched.
pub(crate) fn memory_line(resident_mib: u64, memory: Memory) -> Option<String> {
    (memory.pypy_allowance_mib > 0).then(|| {
        format!(
            "memory: {} MiB, not the package's {resident_mib} MiB: problemtools limits each \
             process' address space to `memory` and runs Python under PyPy, which maps up to \
             {PYPY_BASE_MIB} MiB and a nursery of half the CPU's cache at start; the {} MiB \
             more cover a CPU that reports up to {COVERED_CACHE_MIB} MiB of cache (beyond that, \
             PyPy dies at start unless PYPY_GC_NURSERY is set). A judge that limits resident \
             memory as judge does (DOMjudge) lets a submission use up to {} MiB, where judge \
             stops it at {resident_mib} MiB",
            memory.mib, memory.pypy_allowance_mib, memory.mib
        )
    })
}

/// The `output` limit to export (MiB) for a package whose output limit is
/// `output_kib`: Kattis states it in whole MiB, so the smallest whole MiB
/// that holds the package's limit (at least 1).
pub(crate) fn output_mib(output_kib: u64) -> u64 {
    output_kib.div_ceil(1024).max(1)
}

/// What the export says about its output limit when Kattis cannot state
/// the package's (issue #34): a submission that writes between the two is
/// OLE under judge and judged normally there.
pub(crate) fn output_line(output_kib: u64, exported_mib: u64) -> Option<String> {
    (exported_mib.saturating_mul(1024) != output_kib).then(|| {
        format!(
            "output: {exported_mib} MiB, not the package's {output_kib} KiB: Kattis states the \
             output limit in whole MiB, so a submission that writes more than {output_kib} KiB \
             and at most {exported_mib} MiB is OLE under judge and judged on its answer there"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// See: issue #34 (break-it, finding 3). 64 KiB (`judge new`'s
    /// default) is exported as 1 MiB, and said; a whole MiB is not.
    #[test]
    fn an_output_limit_kattis_cannot_state_is_said() {
        assert_eq!(output_mib(64), 1);
        assert_eq!(output_mib(0), 1);
        assert_eq!(output_mib(1024), 1);
        assert_eq!(output_mib(1025), 2);
        assert_eq!(output_line(1024, 1), None);
        assert_eq!(output_line(8192, 8), None);
        let line = output_line(64, 1).expect("said");
        assert!(
            line.starts_with("output: 1 MiB, not the package's 64 KiB: Kattis states"),
            "{line}"
        );
        assert!(output_line(1025, 2).is_some());
    }

    #[test]
    fn pypys_nursery_is_half_the_cache_above_8_mib() {
        assert_eq!(pypy_nursery_mib(8), 4);
        assert_eq!(pypy_nursery_mib(260), 130);
        assert_eq!(pypy_nursery_mib(480), 240);
    }

    /// See: issue #34. On a CPU that reports 480 MiB of cache, PyPy needs
    /// its start-up mapping and a 240 MiB nursery before the program's
    /// own data: the exported limit leaves room for those and for the
    /// package's whole resident limit.
    #[test]
    fn the_exported_memory_leaves_pypy_its_nursery_on_a_large_cache() {
        let exported = memory(256, true);
        let needed = 66 + pypy_nursery_mib(480) + 256;
        assert!(exported.mib >= needed, "{exported:?}");
        assert!(
            exported.mib >= PYPY_BASE_MIB + pypy_nursery_mib(COVERED_CACHE_MIB) + 256,
            "{exported:?}"
        );
        assert_eq!(
            memory(256, false),
            Memory {
                mib: 256,
                pypy_allowance_mib: 0
            }
        );
        assert!(memory_line(256, memory(256, false)).is_none());
        let line = memory_line(256, exported).expect("said");
        assert!(
            line.starts_with("memory: 864 MiB, not the package's 256 MiB"),
            "{line}"
        );
    }

    #[test]
    fn python_files_run_under_pypy() {
        for name in ["a.py", "a.py3", "a.py2"] {
            assert!(runs_under_pypy(Path::new(name)), "{name}");
        }
        for name in ["a.cpp", "a.rs", "py", "a.java"] {
            assert!(!runs_under_pypy(Path::new(name)), "{name}");
        }
    }
}
