//! Secrets (seat tokens, player credentials) are stored as digests, so a
//! copy of the database lets no one act as a player.

use sha2::{Digest, Sha256};

/// The SHA-256 digest of `secret`, in hex. The secrets are 128-bit random
/// values made by the server, so a fast hash is enough: there is nothing to
/// guess, and no password stretching is needed.
/// Every acting request and socket frame digests its token: the hex is
/// written into one string, not formatted byte by byte.
pub fn digest(secret: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let hash = Sha256::digest(secret.as_bytes());
    let mut text = String::with_capacity(2 * hash.len());
    for byte in hash {
        text.push(char::from(HEX[usize::from(byte >> 4)]));
        text.push(char::from(HEX[usize::from(byte & 0x0f)]));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_is_sha256_in_hex() {
        assert_eq!(
            digest("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
