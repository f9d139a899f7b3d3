//! Unit tests of [`super`]: the words about a run's tests, and the
//! conversion to and from the wire.

use super::*;
use crate::report::json;

const EVERY_ASKER: [RandomAskedBy; 5] = [
    RandomAskedBy::Flag,
    RandomAskedBy::JudgeToml,
    RandomAskedBy::Default,
    RandomAskedBy::Nobody,
    RandomAskedBy::Platform,
];

/// The JSON report names who asked for the random tests as
/// [`RandomAskedBy::name`] does, and reads each name back to the same one.
#[test]
fn the_report_names_each_random_source_as_name_does() {
    for asked_by in EVERY_ASKER {
        let value = serde_json::to_value(json::RandomFrom::from(asked_by)).expect("serialises");
        assert_eq!(value, asked_by.name(), "{asked_by:?}");
        let back: json::RandomFrom = serde_json::from_value(value).expect("reads back");
        assert_eq!(RandomAskedBy::from(back), asked_by);
    }
}
