//! Unguessable ids and secrets: room ids for invitation links, seat tokens,
//! anonymous player ids.

use std::fmt::Write;

/// 128 random bits as 32 lower-case hex digits.
pub(crate) fn secret() -> String {
    let bytes: [u8; 16] = rand::random();
    bytes
        .iter()
        .fold(String::with_capacity(32), |mut text, byte| {
            let _ = write!(text, "{byte:02x}");
            text
        })
}

/// Compares two secrets in time that does not depend on where they differ.
pub(crate) fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// Whether `text` could be an id this server made (room ids come from URLs).
pub(crate) fn is_id(text: &str) -> bool {
    text.len() == 32 && text.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_32_hex_digits_and_differ() {
        let (a, b) = (secret(), secret());
        assert!(is_id(&a) && is_id(&b));
        assert_ne!(a, b);
        assert!(same_secret(&a, &a.clone()));
        assert!(!same_secret(&a, &b));
        assert!(!same_secret(&a, &a[1..]));
    }
}
