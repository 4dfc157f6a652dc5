-- Rooms, their seats, their numbered events, finished games, players and ratings.
CREATE TABLE rooms (
    id         TEXT PRIMARY KEY,
    variant    TEXT NOT NULL,
    mode       TEXT NOT NULL,
    level      INTEGER NOT NULL,
    settings   TEXT NOT NULL,
    start      TEXT NOT NULL,
    device     TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    finished   INTEGER NOT NULL DEFAULT 0
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
    seq     INTEGER NOT NULL,
    at      INTEGER NOT NULL,
    kind    TEXT NOT NULL,
    data    TEXT NOT NULL,
    PRIMARY KEY (room_id, seq)
);

CREATE TABLE games (
    room_id       TEXT NOT NULL REFERENCES rooms (id),
    number        INTEGER NOT NULL,
    variant       TEXT NOT NULL,
    rated         INTEGER NOT NULL,
    first_player  TEXT NOT NULL,
    second_player TEXT NOT NULL,
    winner        TEXT,
    reason        TEXT NOT NULL,
    finished_at   INTEGER NOT NULL,
    PRIMARY KEY (room_id, number)
);
CREATE INDEX games_variant ON games (variant);

CREATE TABLE ratings (
    player     TEXT NOT NULL,
    variant    TEXT NOT NULL,
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL,
    games      INTEGER NOT NULL,
    PRIMARY KEY (player, variant)
);

CREATE TABLE players (
    id   TEXT PRIMARY KEY,
    name TEXT NOT NULL
);
