//! Any text given as a move in the start position of any variant: never a
//! panic, and a move that plays is one of the legal moves.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rules::{AnyPosition, Settings, Variant};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, text)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let variant = Variant::ALL[usize::from(selector) % Variant::ALL.len()];
    let start = AnyPosition::new(variant, None, &Settings::default()).expect("start position");
    let mut position = start.clone();
    if position.play_text(text).is_ok() {
        let mv = start.parse_move(text).expect("a played move parses");
        assert!(start.legal_moves().contains(&mv), "{text} played but is not listed");
    }
});
