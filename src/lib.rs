//! `judge`: a grading harness in the style of an online judge.
//!
//! # From the top
//!
//! - [`problems`] knows the three problems of PROBLEMS.md: each parses and
//!   validates inputs, solves them, generates random ones and checks a
//!   contestant's output, behind the [`problems::Problem`] trait.
//! - [`verdict`] and [`exit`] are the leaf vocabulary every layer shares.
//! - `cli` turns command lines into calls of the layers above and decides
//!   exit codes; it is the only place that prints.

pub mod cli;
pub mod config;
pub mod diff;
pub mod exit;
pub mod problems;
pub mod verdict;
