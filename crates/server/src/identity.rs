//! Who a request speaks for. A device's player has a public id (shown in
//! rooms) and a secret credential (kept by the device, stored here only as a
//! digest); naming a player acts as them only with their credential, so no
//! device can rename, play rated games as, or otherwise be another's player.

use store::{Store, StoreError};

use crate::error::ApiError;
use crate::ids;

/// The player a request acts as, checked but not yet stored.
#[derive(Debug)]
pub(crate) enum Identity {
    /// A player who proved their credential.
    Known(String),
    /// A new player: the id and credential to give the device.
    New {
        /// The public id.
        player: String,
        /// The secret credential, sent to the device once.
        secret: String,
    },
}

impl Identity {
    /// The player that `player` and `secret` prove, or a new one when no
    /// player is named. Stores nothing.
    ///
    /// # Errors
    /// A player named without a credential ([`ApiError::MissingCredential`]),
    /// or with one that is not theirs, or one made before credentials
    /// existed ([`ApiError::WrongCredential`]); store failures.
    pub(crate) async fn check(
        store: &dyn Store,
        player: Option<String>,
        secret: Option<&str>,
    ) -> Result<Identity, ApiError> {
        let Some(player) = player else {
            return Ok(Identity::New {
                player: ids::secret(),
                secret: ids::secret(),
            });
        };
        let secret = secret.ok_or(ApiError::MissingCredential)?;
        let kept = match store.player_secret_hash(&player).await {
            Ok(kept) => kept,
            Err(StoreError::NotFound) => None,
            Err(err) => return Err(err.into()),
        };
        match kept {
            Some(hash) if ids::same_secret(&hash, &store::digest(secret)) => {
                Ok(Identity::Known(player))
            }
            _ => Err(ApiError::WrongCredential),
        }
    }

    /// The public id.
    pub(crate) fn player(&self) -> &str {
        match self {
            Identity::Known(player) | Identity::New { player, .. } => player,
        }
    }

    /// The credential to give the device: only a new player's.
    pub(crate) fn new_secret(&self) -> Option<String> {
        match self {
            Identity::Known(_) => None,
            Identity::New { secret, .. } => Some(secret.clone()),
        }
    }

    /// Stores the player (a new one with its credential's digest) under `name`.
    ///
    /// # Errors
    /// Store failures.
    pub(crate) async fn keep(&self, store: &dyn Store, name: &str) -> Result<(), ApiError> {
        match self {
            Identity::Known(player) => store.set_player_name(player, name).await?,
            Identity::New { player, secret } => {
                store
                    .create_player(player, &store::digest(secret), name)
                    .await?;
            }
        }
        Ok(())
    }
}

/// A display name as others see it: trimmed, at most 40 characters, never
/// empty, without control characters, bidirectional overrides or invisible
/// characters that would disguise it or the text around it.
pub(crate) fn display_name(given: Option<String>) -> String {
    let name: String = given
        .unwrap_or_default()
        .chars()
        .filter(|&c| !c.is_control() && !is_invisible_or_bidi(c))
        .collect::<String>()
        .trim()
        .chars()
        .take(40)
        .collect();
    if name.is_empty() {
        "Anonymous".to_owned()
    } else {
        name
    }
}

/// Bidirectional embeddings, overrides, isolates and marks, and zero-width
/// characters.
fn is_invisible_or_bidi(c: char) -> bool {
    matches!(
        c,
        '\u{061C}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{FEFF}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_lose_overrides_and_invisible_characters() {
        let disguised = "\u{202E}nA\u{200B}\u{2066} Sakura\u{FEFF}\u{0007} ".to_owned();
        assert_eq!(display_name(Some(disguised)), "nA Sakura");
        assert_eq!(
            display_name(Some("\u{200B}\u{202E}".to_owned())),
            "Anonymous"
        );
        assert_eq!(display_name(Some("将棋".repeat(30))).chars().count(), 40);
    }
}
