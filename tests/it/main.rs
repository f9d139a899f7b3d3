//! The one integration test binary: one module per area.

// Helpers outside `#[test]` functions are test code too; clippy's
// allow-unwrap-in-tests does not reach them.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a panic is a failed test"
)]

mod bundled;
mod cgroup_mounts;
mod ci_script;
mod ci_templates;
mod class_page;
mod classroom_import;
mod cli;
mod concurrent;
mod console;
mod container;
mod counters_between_runs;
mod data_files_bounded;
mod data_out_of_reach;
mod data_out_of_reach_per_command;
mod deadlock;
mod doc_commands;
mod docs;
mod duel;
mod expected_results_marker;
mod export;
mod generators;
mod generators_copy_beneath;
mod grade;
mod gradescope_autograder;
mod hand_ins;
mod hints;
mod honest;
mod host_load;
mod host_out_of_reach;
mod hostile_programs;
mod interactive;
mod interrupt;
mod interrupt_before_tests;
mod interrupt_phases;
mod journal;
mod junit;
mod kattis;
mod kattis_constants;
mod kattis_default_validator;
mod kattis_edges;
mod kattis_export;
mod kattis_formats;
mod kattis_group_tree;
mod kattis_groups;
mod kattis_languages;
mod kattis_links;
mod kattis_programs_cxx_standard;
mod kattis_scripts;
mod kattis_shapes;
mod kattis_submission_files;
mod kattis_time_limit_files;
mod learning_platforms;
mod left_files;
mod leftovers_in_flight;
mod link_scope;
mod long_validator_messages;
mod matchsticks;
mod mayan;
mod memory_tree;
mod merge_incomplete;
mod messages;
mod package_special_files;
mod packages;
mod platforms;
mod polygon;
mod polygon_export;
mod polygon_refusals;
mod problems_list;
mod proc_mount;
mod process_tree;
mod programs;
mod progress;
mod report_command;
mod report_leaks;
mod reports;
mod rooks;
mod run;
mod run_isolation;
mod scoring;
mod shard;
mod similar;
mod slurm;
mod space_change_sensitive;
mod stress;
mod student_view;
mod submissions_yaml;
mod submissions_yaml_at_load;
mod support;
mod teacher;
mod testlib_interactor;
mod toolchain_lending;
mod toolchain_lending_aliases;
mod tools;
mod unix_sockets;
mod vm;
