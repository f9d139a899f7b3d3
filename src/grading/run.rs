//! `judge run`: the command ([`command`]).

mod command;

pub(crate) use self::command::{run, RunCommand, RunRequest};
