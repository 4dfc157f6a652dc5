-- Secrets are kept as SHA-256 digests, never in plain text: a player's
-- credential (NULL for players made before credentials existed, whom no one
-- can act as any more) and each seat's token. Seats stored before this
-- migration are hashed by the store when it opens (`token` is then emptied).
ALTER TABLE players ADD COLUMN secret_hash TEXT;
ALTER TABLE seats ADD COLUMN token_hash TEXT;
