//! `deploy/slurm/grade.sbatch` on a real Slurm (issue #19): the test starts
//! a single-node cluster of its own (`munged`, `slurmctld`, `slurmd`, every
//! file under a temporary folder, its own ports), submits the array and the
//! dependent merge with the commands docs/sharding.md gives, word for word,
//! and compares the merged report with an unsharded `judge grade`.
//!
//! It needs root and Debian's `slurm-wlm` and `munge`, so it is ignored in a
//! plain `cargo test`; `.ci/run` installs them and runs it with `cargo test
//! --locked --test it slurm -- --ignored`. Without them it fails, naming
//! what is missing. Everything it starts runs in a freezer cgroup of its own
//! (and carries a marker variable), and is killed when the test ends, passed
//! or failed.

use crate::support::repository;
use serde_json::Value;
use std::fmt::Write as _;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The bundled examples the cluster grades: quick ones (no TLE or MLE), one
/// of every problem, and a compile error, so the 4 shards of the docs'
/// `--array=1-4` get 2 pairs each.
const EXAMPLES: &[&str] = &[
    "matchsticks/accepted/memo.py",
    "matchsticks/compile_error/type_error.cpp",
    "matchsticks/wrong_answer/greedy_fewest_replies.py",
    "mayan/accepted/dfs_memo.py",
    "mayan/run_time_error/no_right_edge.py",
    "rooks/accepted/matching.py",
    "rooks/run_time_error/scan_past_edge.py",
    "rooks/wrong_answer/ignores_walls.py",
];

/// How long the cluster may take to come up, and the jobs to finish (the
/// jobs take about 20 s on two cores).
const START: Duration = Duration::from_secs(60);
const JOBS: Duration = Duration::from_secs(600);

#[test]
#[ignore = "needs root, slurm-wlm and munge; .ci/run runs it: cargo test --locked --test it slurm -- --ignored"]
fn slurm_array_and_merge_as_the_docs_say_grade_as_one_run() {
    let cluster = Cluster::start();
    let root = cluster.dir.join("repository");
    lay_out_repository(&root);

    // The unsharded run, outside Slurm.
    let whole = Command::new(root.join("target/release/judge"))
        .args(["grade", "-q", "--json", "whole.json"])
        .current_dir(&root)
        .env_remove("CI_NODE_TOTAL")
        .output()
        .unwrap();
    assert_eq!(whole.status.code(), Some(0), "unsharded grade: {whole:?}");

    // The docs' commands, as written.
    let commands = docs_slurm_commands();
    assert!(
        commands.contains("--array=1-4") && commands.contains("--dependency=afterany:"),
        "docs/sharding.md's Slurm commands changed: {commands}"
    );
    let submit = cluster
        .command("bash")
        .args(["-euo", "pipefail", "-c", &commands])
        .current_dir(&root)
        .output()
        .unwrap();
    if !submit.status.success() {
        cluster.fail(&format!("the docs' commands failed: {submit:?}"), &root);
    }
    cluster.wait_for_jobs(&root);

    // 4 array tasks and the merge, each completed with exit code 0.
    let jobs = cluster.jobs();
    let states: Vec<(String, String)> = jobs
        .iter()
        .map(|job| (field(job, "JobState"), field(job, "ExitCode")))
        .collect();
    if jobs.len() != 5
        || states
            .iter()
            .any(|state| *state != ("COMPLETED".into(), "0:0".into()))
    {
        cluster.fail(&format!("jobs ended as {states:?}"), &root);
    }
    let arrays: Vec<String> = jobs.iter().map(|job| field(job, "ArrayTaskId")).collect();
    assert_eq!(
        arrays.iter().filter(|id| !id.is_empty()).count(),
        4,
        "{arrays:?}"
    );

    // One report per task, each the shard `--shard auto` read from Slurm.
    let mut shards: Vec<Value> = fs_err::read_dir(root.join("reports"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.file_name().unwrap() != "grade.json")
        .map(|path| crate::support::report(&fs_err::read_to_string(path).unwrap())["shard"].clone())
        .collect();
    shards.sort_by_key(|shard| shard["index"].as_u64());
    let expected: Vec<Value> = (1..=4)
        .map(|index| serde_json::json!({ "index": index, "count": 4, "pairs": EXAMPLES.len() }))
        .collect();
    assert_eq!(shards, expected);
    let merged = comparable(crate::support::report(
        &fs_err::read_to_string(root.join("reports/grade.json")).unwrap(),
    ));
    let whole = comparable(crate::support::report(
        &fs_err::read_to_string(root.join("whole.json")).unwrap(),
    ));
    assert_eq!(merged["results"].as_array().unwrap().len(), EXAMPLES.len());
    assert!(
        merged == whole,
        "the merged shards differ from the unsharded run:\n{}",
        difference(&merged, &whole)
    );
}

/// A copy of the repository's parts the docs' commands use, with a
/// judge.toml grading [`EXAMPLES`] only, and the judge under test as
/// `target/release/judge` (the docs build it with `cargo build --release`).
fn lay_out_repository(root: &Path) {
    let copy = |from: &Path, to: &Path| {
        fs_err::create_dir_all(to.parent().unwrap()).unwrap();
        fs_err::copy(from, to).unwrap();
    };
    copy(
        &repository().join("deploy/slurm/grade.sbatch"),
        &root.join("deploy/slurm/grade.sbatch"),
    );
    copy(
        Path::new(assert_cmd::cargo::cargo_bin!("judge")),
        &root.join("target/release/judge"),
    );
    for example in EXAMPLES {
        copy(
            &repository().join("submissions").join(example),
            &root.join("submissions").join(example),
        );
    }
    fs_err::write(
        root.join("judge.toml"),
        "seed = 1\nlayout = \"expected\"\nrandom-tests = 2\n",
    )
    .unwrap();
}

/// The shell block after "Slurm, from the repository root" in
/// docs/sharding.md.
fn docs_slurm_commands() -> String {
    let docs = fs_err::read_to_string(repository().join("docs/sharding.md")).unwrap();
    let after = docs
        .split_once("Slurm, from the repository root")
        .expect("docs/sharding.md has the Slurm commands")
        .1;
    let block = after.split_once("```sh\n").expect("a ```sh block").1;
    block
        .split_once("```")
        .expect("the block ends")
        .0
        .to_owned()
}

/// The report without what differs between runs: every load-dependent
/// field, the shard and the temporary workspace's path in compiler
/// messages and stderr excerpts.
fn comparable(report: Value) -> Value {
    let mut report = crate::support::without_load(report, &["shard"]);
    strip_workspaces(&mut report);
    report
}

fn strip_workspaces(value: &mut Value) {
    match value {
        Value::String(text) => *text = without_workspace(text),
        Value::Array(items) => items.iter_mut().for_each(strip_workspaces),
        Value::Object(fields) => fields.values_mut().for_each(strip_workspaces),
        _ => {}
    }
}

/// The lines where two reports differ, pretty-printed.
fn difference(left: &Value, right: &Value) -> String {
    let left = serde_json::to_string_pretty(left).unwrap();
    let right = serde_json::to_string_pretty(right).unwrap();
    similar::TextDiff::from_lines(&left, &right)
        .unified_diff()
        .context_radius(3)
        .header("merged", "unsharded")
        .to_string()
}

/// `text` with each `/…/judge-XXXX/submission-N/` replaced by `<workspace>/`.
fn without_workspace(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("/judge-") {
        let Some(end) = rest[start..].find("/submission-").map(|at| start + at) else {
            break;
        };
        let digits = rest[end + "/submission-".len()..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(rest.len(), |at| end + "/submission-".len() + at);
        let path_start = rest[..start]
            .rfind([' ', '\n', '\'', '"'])
            .map_or(0, |at| at + 1);
        out.push_str(&rest[..path_start]);
        out.push_str("<workspace>");
        rest = &rest[digits..];
    }
    out.push_str(rest);
    out
}

/// `Key=value` of one line of `scontrol show job -o`.
fn field(job: &str, key: &str) -> String {
    job.split_whitespace()
        .find_map(|word| word.strip_prefix(key)?.strip_prefix('='))
        .unwrap_or_default()
        .to_owned()
}

/// A program on PATH or in the sbin folders, or a failed test naming it.
fn program(name: &str) -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin".into(), "/sbin".into()])
        .map(|folder| folder.join(name))
        .find(|candidate| candidate.is_file())
        .unwrap_or_else(|| {
            panic!(
                "`{name}` is not installed: this test needs Slurm and MUNGE \
                 (Debian: apt-get install slurm-wlm munge; .ci/run installs them)"
            )
        })
}

/// A free TCP port on the loopback interface.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A single-node Slurm cluster of this test's own. Dropping it kills every
/// process it started, the jobs' included, and removes its folder.
struct Cluster {
    dir: PathBuf,
    _temp: tempfile::TempDir,
    conf: PathBuf,
    /// The freezer cgroup every daemon (and so every job) runs in.
    cgroup: Option<PathBuf>,
    daemons: Vec<(&'static str, Child)>,
}

impl Cluster {
    fn start() -> Cluster {
        let uid = fs_err::read_to_string("/proc/self/status")
            .unwrap()
            .lines()
            .find_map(|line| line.strip_prefix("Uid:"))
            .and_then(|ids| ids.split_whitespace().nth(1).map(str::to_owned))
            .unwrap_or_default();
        assert_eq!(
            uid, "0",
            "this test runs Slurm's daemons and must run as root"
        );
        let [munged, slurmctld, slurmd] = ["munged", "slurmctld", "slurmd"].map(program);
        for client in ["sbatch", "squeue", "scontrol", "sinfo"] {
            program(client);
        }

        let temp = tempfile::Builder::new()
            .prefix("judge-slurm-")
            .tempdir()
            .unwrap();
        let dir = temp.path().to_owned();
        for folder in ["munge", "state", "spool", "log"] {
            fs_err::create_dir_all(dir.join(folder)).unwrap();
        }
        let freezer = Path::new("/sys/fs/cgroup/freezer");
        let cgroup = freezer.is_dir().then(|| {
            let name = dir.file_name().unwrap();
            let cgroup = freezer.join(name);
            fs_err::create_dir(&cgroup).unwrap();
            cgroup
        });
        let mut cluster = Cluster {
            conf: dir.join("slurm.conf"),
            dir,
            _temp: temp,
            cgroup,
            daemons: Vec::new(),
        };
        let dir = cluster.dir.clone();

        // MUNGE with a fresh key and its own socket.
        let mut key = vec![0; 1024];
        std::io::Read::read_exact(&mut fs_err::File::open("/dev/urandom").unwrap(), &mut key)
            .unwrap();
        let key_file = dir.join("munge/munge.key");
        fs_err::write(&key_file, key).unwrap();
        fs_err::set_permissions(&key_file, std::fs::Permissions::from_mode(0o600)).unwrap();
        let socket = dir.join("munge/munge.socket");
        let arg = |name: &str, path: PathBuf| format!("--{name}={}", path.display());
        let munge_args = [
            "--foreground".to_owned(),
            "--force".to_owned(),
            arg("key-file", key_file.clone()),
            arg("socket", socket.clone()),
            arg("pid-file", dir.join("munge/munged.pid")),
            arg("seed-file", dir.join("munge/munged.seed")),
            arg("log-file", dir.join("log/munged.log")),
        ];
        cluster.spawn("munged", &munged, &munge_args);
        cluster.wait_until("munged's socket", || socket.exists());

        // The node is this host as slurmd sees it (`slurmd -C`).
        let host = String::from_utf8(Command::new("hostname").arg("-s").output().unwrap().stdout)
            .unwrap()
            .trim()
            .to_owned();
        let hardware =
            String::from_utf8(Command::new(&slurmd).arg("-C").output().unwrap().stdout).unwrap();
        let node = hardware
            .lines()
            .find(|line| line.starts_with("NodeName="))
            .unwrap_or_else(|| panic!("`slurmd -C` printed no node: {hardware}"))
            .to_owned();
        let cpus: u32 = field(&node, "CPUs").parse().unwrap_or(0);
        assert!(
            cpus >= 2,
            "grade.sbatch asks for 2 CPUs per task; this host has {cpus}"
        );
        let path = |name: &str| dir.join(name).display().to_string();
        let conf = format!(
            "ClusterName=judgetest
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={ctld_port}
SlurmdPort={d_port}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={socket}
StateSaveLocation={state}
SlurmdSpoolDir={spool}
SlurmctldPidFile={ctld_pid}
SlurmdPidFile={d_pid}
SlurmctldLogFile={ctld_log}
SlurmdLogFile={d_log}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
MinJobAge=3600
KillWait=5
{node} NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=judge Nodes=ALL Default=YES MaxTime=INFINITE State=UP
",
            ctld_port = free_port(),
            d_port = free_port(),
            socket = socket.display(),
            state = path("state"),
            spool = path("spool"),
            ctld_pid = path("slurmctld.pid"),
            d_pid = path("slurmd.pid"),
            ctld_log = path("log/slurmctld.log"),
            d_log = path("log/slurmd.log"),
        );
        fs_err::write(&cluster.conf, conf).unwrap();
        let conf = cluster.conf.display().to_string();
        cluster.spawn(
            "slurmctld",
            &slurmctld,
            &["-D".into(), "-f".into(), conf.clone()],
        );
        cluster.spawn("slurmd", &slurmd, &["-D".into(), "-f".into(), conf]);
        cluster.wait_until("the node to be idle", || {
            let output = cluster
                .command("sinfo")
                .args(["-h", "-o", "%T"])
                .output()
                .unwrap();
            String::from_utf8_lossy(&output.stdout).trim() == "idle"
        });
        cluster
    }

    /// A command that talks to this cluster (and is marked as the test's).
    /// Jobs inherit the submitter's environment, so another engine's shard
    /// variables (a CI runner's) are removed: with them `--shard auto`
    /// would rightly refuse to choose.
    fn command(&self, program: &str) -> Command {
        let mut command = Command::new(program);
        command
            .env("SLURM_CONF", &self.conf)
            .env("JUDGE_SLURM_TEST", &self.dir);
        for name in [
            "JOB_COMPLETION_INDEX",
            "CI_NODE_INDEX",
            "CI_NODE_TOTAL",
            "JUDGE_SHARD_INDEX",
            "JUDGE_SHARD_COUNT",
        ] {
            command.env_remove(name);
        }
        command
    }

    /// Starts a daemon in the foreground, inside the cgroup, logging to
    /// `log/NAME.out`.
    fn spawn(&mut self, name: &'static str, program: &Path, args: &[String]) {
        let log = fs_err::File::create(self.dir.join(format!("log/{name}.out")))
            .unwrap()
            .into_parts()
            .0;
        let mut command = self.command("sh");
        // The shell joins the cgroup, then becomes the daemon.
        let tasks = self
            .cgroup
            .as_ref()
            .map(|cgroup| cgroup.join("tasks").display().to_string())
            .unwrap_or_else(|| "/dev/null".into());
        command
            .args(["-c", "echo $$ > \"$0\" && exec \"$@\"", &tasks])
            .arg(program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log);
        let child = command.spawn().unwrap();
        self.daemons.push((name, child));
    }

    /// Waits (bounded by [`START`]) until `ready`, failing with the logs
    /// when a daemon exits or time runs out.
    fn wait_until(&self, what: &str, mut ready: impl FnMut() -> bool) {
        let deadline = Instant::now() + START;
        loop {
            if ready() {
                return;
            }
            for (name, child) in &self.daemons {
                // Exited: gone, or a zombie not yet waited for.
                let stat = fs_err::read_to_string(format!("/proc/{}/stat", child.id()))
                    .unwrap_or_default();
                let state = stat.rsplit_once(") ").map(|(_, rest)| rest.chars().next());
                if matches!(state, None | Some(Some('Z' | 'X'))) {
                    self.fail(
                        &format!("{name} exited while waiting for {what}"),
                        &self.dir,
                    );
                }
            }
            if Instant::now() > deadline {
                self.fail(&format!("no {what} after {START:?}"), &self.dir);
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// Waits (bounded by [`JOBS`]) until the queue is empty.
    fn wait_for_jobs(&self, root: &Path) {
        let deadline = Instant::now() + JOBS;
        loop {
            let output = self
                .command("squeue")
                .args(["-h", "-o", "%i"])
                .output()
                .unwrap();
            if output.status.success() && output.stdout.iter().all(u8::is_ascii_whitespace) {
                return;
            }
            if Instant::now() > deadline {
                self.fail(&format!("jobs still queued after {JOBS:?}"), root);
            }
            std::thread::sleep(Duration::from_millis(500));
        }
    }

    /// Every job the cluster ran, one `scontrol show job -o` line each.
    fn jobs(&self) -> Vec<String> {
        let output = self
            .command("scontrol")
            .args(["show", "job", "-o"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .filter(|line| line.starts_with("JobId="))
            .map(str::to_owned)
            .collect()
    }

    /// Fails the test with the daemons' logs, the jobs and the logs of the
    /// jobs (the `*.out` under `root`).
    fn fail(&self, message: &str, root: &Path) -> ! {
        let mut report = format!("{message}\n");
        let mut files: Vec<PathBuf> = Vec::new();
        for folder in [self.dir.join("log"), root.to_owned(), root.join("reports")] {
            if let Ok(entries) = fs_err::read_dir(&folder) {
                let mut found: Vec<PathBuf> = entries
                    .filter_map(Result::ok)
                    .map(|entry| entry.path())
                    .filter(|path| {
                        path.extension()
                            .is_some_and(|extension| extension == "log" || extension == "out")
                    })
                    .collect();
                found.sort();
                files.extend(found);
            }
        }
        for file in files {
            let text = fs_err::read_to_string(&file).unwrap_or_default();
            let tail: Vec<&str> = text.lines().rev().take(30).collect();
            let _ = writeln!(report, "--- {} (last lines)", file.display());
            for line in tail.into_iter().rev() {
                let _ = writeln!(report, "{line}");
            }
        }
        let _ = writeln!(report, "--- jobs\n{}", self.jobs().join("\n"));
        panic!("{report}");
    }

    /// Kills everything in the cgroup (freezing it first, so nothing forks
    /// past the kill) and every process marked with this cluster's folder,
    /// until none is left (bounded).
    fn kill_all(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let mut pids = self.marked_processes();
            if let Some(cgroup) = &self.cgroup {
                let _ = fs_err::write(cgroup.join("freezer.state"), "FROZEN");
                let frozen = Instant::now() + Duration::from_secs(5);
                while fs_err::read_to_string(cgroup.join("freezer.state"))
                    .is_ok_and(|state| state.trim() == "FREEZING")
                    && Instant::now() < frozen
                {
                    std::thread::sleep(Duration::from_millis(20));
                }
                if let Ok(tasks) = fs_err::read_to_string(cgroup.join("tasks")) {
                    pids.extend(tasks.split_whitespace().map(str::to_owned));
                }
            }
            pids.sort();
            pids.dedup();
            if !pids.is_empty() {
                let _ = Command::new("kill").arg("-KILL").args(&pids).status();
            }
            if let Some(cgroup) = &self.cgroup {
                let _ = fs_err::write(cgroup.join("freezer.state"), "THAWED");
            }
            for (_, child) in &mut self.daemons {
                let _ = child.try_wait();
            }
            if pids.is_empty() || Instant::now() > deadline {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        for (_, child) in &mut self.daemons {
            let _ = child.kill();
            let _ = child.wait();
        }
        if let Some(cgroup) = &self.cgroup {
            let _ = fs_err::remove_dir(cgroup);
        }
    }

    /// Processes whose environment holds `JUDGE_SLURM_TEST=<this folder>`.
    fn marked_processes(&self) -> Vec<String> {
        let marker = format!("JUDGE_SLURM_TEST={}", self.dir.display());
        let Ok(entries) = fs_err::read_dir("/proc") else {
            return Vec::new();
        };
        entries
            .filter_map(Result::ok)
            .filter_map(|entry| {
                let pid = entry.file_name().to_string_lossy().into_owned();
                if !pid.bytes().all(|byte| byte.is_ascii_digit())
                    || pid == std::process::id().to_string()
                {
                    return None;
                }
                let environ = fs_err::read(entry.path().join("environ")).ok()?;
                environ
                    .split(|byte| *byte == 0)
                    .any(|variable| variable == marker.as_bytes())
                    .then_some(pid)
            })
            .collect()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.kill_all();
        // A daemon still alive after all this is a failure of the test.
        let left = self.marked_processes();
        if !left.is_empty() && !std::thread::panicking() {
            panic!("processes left running after the cluster stopped: {left:?}");
        }
    }
}

#[test]
fn workspace_paths_are_taken_out_of_compiler_messages() {
    assert_eq!(
        without_workspace(
            "exit 1\n/tmp/judge-xlw3UJ/submission-2/type_error.cpp: In function\n/tmp/judge-ab/submission-13/a.cpp:65:29: error"
        ),
        "exit 1\n<workspace>/type_error.cpp: In function\n<workspace>/a.cpp:65:29: error"
    );
    assert_eq!(
        without_workspace("  File \"/tmp/judge-majx6B/submission-2/scan.py\", line 66"),
        "  File \"<workspace>/scan.py\", line 66"
    );
    assert_eq!(without_workspace("no path"), "no path");
}
