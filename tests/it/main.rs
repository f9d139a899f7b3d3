//! The one integration test binary (STYLE.md 7.10): one module per area.

mod cli;
mod mayan;
mod packages;
mod rooks;
mod support;
