-- A player's list of games finds their seats by player.
CREATE INDEX seats_player ON seats (player);
