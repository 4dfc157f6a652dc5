//! Any bytes: `Record::parse` returns, never panics; a record it reads is
//! written in every format that holds it and read back as the same game.
#![no_main]

use libfuzzer_sys::fuzz_target;
use notation::{Format, Record};
use rules::Variant;

fuzz_target!(|data: &[u8]| {
    let (hint, bytes) = match data.split_first() {
        Some((&b, rest)) => (Variant::ALL.get(usize::from(b % 5)).copied(), rest),
        None => (None, data),
    };
    let Ok(record) = Record::parse(bytes, hint) else {
        return;
    };
    for format in Format::ALL.into_iter().filter(|f| f.supports(record.variant())) {
        let text = record.write(format).expect("supported format");
        let back = Record::parse(&text, Some(record.variant())).expect("own output reads back");
        assert_eq!(back.moves_text(), record.moves_text(), "{format}:\n{text}");
        assert_eq!(back.start().to_string(), record.start().to_string(), "{format}:\n{text}");
    }
});
