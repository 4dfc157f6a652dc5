//! Any text given as a position (SFEN, FEN, handicap name) for any variant:
//! never a panic, and whatever is accepted prints back to text that reads
//! as the same position.
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
    let settings = Settings::default();
    if let Ok(position) = AnyPosition::new(variant, Some(text), &settings) {
        let printed = position.to_string();
        let again = AnyPosition::new(variant, Some(&printed), &settings)
            .expect("a printed position reads back");
        assert_eq!(again.to_string(), printed);
        let _ = position.legal_moves();
    }
});
