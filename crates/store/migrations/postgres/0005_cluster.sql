-- A cluster of nodes on one database: the nodes alive (with the lobby of the
-- rooms each plays, as JSON), and which node plays each room (its lease). `fence` grows each time a room changes hands, so a
-- node that lost a room can no longer store its events.
CREATE TABLE nodes (
    id        TEXT PRIMARY KEY,
    url       TEXT NOT NULL,
    heartbeat BIGINT NOT NULL,
    lobby     TEXT NOT NULL DEFAULT ''
);

CREATE TABLE leases (
    room_id    TEXT PRIMARY KEY REFERENCES rooms (id),
    node       TEXT NOT NULL,
    fence      BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX leases_node ON leases (node);
CREATE INDEX leases_expires_at ON leases (expires_at);
