//! Any text, read as each format in turn: an error with a line and column
//! inside the text, or a record; never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use notation::{Format, Record};

fuzz_target!(|text: &str| {
    let lines = text.lines().count().max(1);
    for format in Format::ALL {
        if let Err(e) = Record::parse_as(text, format, None) {
            assert!(e.line >= 1 && e.line <= lines + 1, "{format}: {e}");
            assert!(e.column >= 1, "{format}: {e}");
        }
    }
});
