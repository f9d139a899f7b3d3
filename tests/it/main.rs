//! The one integration test binary (see STYLE.md 7.10).
mod rooks;
