//! Any `KEY=VALUE` text given to `--rule`: never a panic, and an accepted
//! setting prints back to the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rules::Settings;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut settings = Settings::default();
    if settings.apply(text).is_ok() {
        let mut again = Settings::default();
        for (key, value) in settings.pairs() {
            again.set(key, &value).expect("printed settings read back");
        }
        assert_eq!(again, settings);
    }
});
