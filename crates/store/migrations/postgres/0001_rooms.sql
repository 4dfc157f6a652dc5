-- Rooms, their seats, their numbered events, finished games, players and ratings.
CREATE TABLE rooms (
    id         TEXT PRIMARY KEY,
    variant    TEXT NOT NULL,
    mode       TEXT NOT NULL,
    level      BIGINT NOT NULL,
    settings   TEXT NOT NULL,
    start      TEXT NOT NULL,
    device     TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    finished   BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX rooms_device ON rooms (device, created_at);

CREATE TABLE seats (
    room_id TEXT NOT NULL REFERENCES rooms (id),
    seat    TEXT NOT NULL,
    token   TEXT NOT NULL,
    player  TEXT NOT NULL,
    PRIMARY KEY (room_id, seat)
);

CREATE TABLE events (
    room_id TEXT NOT NULL REFERENCES rooms (id),
    seq     BIGINT NOT NULL,
    at      BIGINT NOT NULL,
    kind    TEXT NOT NULL,
    data    TEXT NOT NULL,
    PRIMARY KEY (room_id, seq)
);

CREATE TABLE games (
    room_id       TEXT NOT NULL REFERENCES rooms (id),
    number        BIGINT NOT NULL,
    variant       TEXT NOT NULL,
    rated         BIGINT NOT NULL,
    first_player  TEXT NOT NULL,
    second_player TEXT NOT NULL,
    winner        TEXT,
    reason        TEXT NOT NULL,
    finished_at   BIGINT NOT NULL,
    PRIMARY KEY (room_id, number)
);
CREATE INDEX games_variant ON games (variant);

CREATE TABLE ratings (
    player     TEXT NOT NULL,
    variant    TEXT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      BIGINT NOT NULL,
    PRIMARY KEY (player, variant)
);

CREATE TABLE players (
    id   TEXT PRIMARY KEY,
    name TEXT NOT NULL
);
