-- The engine's analysis of a finished game, kept so that it loads at once
-- the next time: one per game of a room, its positions as the server's JSON text.
CREATE TABLE analyses (
    room_id    TEXT NOT NULL REFERENCES rooms (id),
    game       BIGINT NOT NULL,
    plies      TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (room_id, game)
);
