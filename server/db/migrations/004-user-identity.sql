--------------------------------------------------------------------------------
-- Up
-- Tokens name a user by a random uid that is never reused, and user ids are never handed out again
-- (AUTOINCREMENT): a deleted user's token can never name the next user created. Rebuilds the users
-- table with the same ids, so reviews, play_history and ai_tasks keep their rows and references
-- (Database.open runs migrations with foreign keys off, so the DROP cascades nowhere, and checks
-- them afterwards). A logout revokes one token: its id is kept until the token would expire.
--------------------------------------------------------------------------------

CREATE TABLE users_new (
  id             INTEGER PRIMARY KEY AUTOINCREMENT,
  uid            TEXT    NOT NULL UNIQUE DEFAULT (lower(hex(randomblob(16)))), -- names the user in tokens
  name           TEXT    NOT NULL UNIQUE,
  password_hash  TEXT    NOT NULL,                -- scrypt$N$r$p$salt$hash
  role           TEXT    NOT NULL CHECK (role IN ('admin', 'user', 'guest')),
  token_version  INTEGER NOT NULL DEFAULT 0,      -- bumped on password and role change: revokes tokens
  created_at     TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now')),
  updated_at     TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now'))
);
INSERT INTO users_new (id, uid, name, password_hash, role, token_version, created_at, updated_at)
  SELECT id, lower(hex(randomblob(16))), name, password_hash, role, token_version, created_at, updated_at FROM users;
DROP TABLE users;
ALTER TABLE users_new RENAME TO users;

-- Token ids revoked by a logout, kept until the token expires (seconds since the epoch).
CREATE TABLE revoked_tokens (
  jti         TEXT    PRIMARY KEY,
  expires_at  INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX revoked_tokens_by_expiry ON revoked_tokens (expires_at);

--------------------------------------------------------------------------------
-- Down
--------------------------------------------------------------------------------
DROP TABLE revoked_tokens;
CREATE TABLE users_old (
  id             INTEGER PRIMARY KEY,
  name           TEXT    NOT NULL UNIQUE,
  password_hash  TEXT    NOT NULL,
  role           TEXT    NOT NULL CHECK (role IN ('admin', 'user', 'guest')),
  token_version  INTEGER NOT NULL DEFAULT 0,
  created_at     TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now')),
  updated_at     TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now'))
);
INSERT INTO users_old (id, name, password_hash, role, token_version, created_at, updated_at)
  SELECT id, name, password_hash, role, token_version, created_at, updated_at FROM users;
DROP TABLE users;
ALTER TABLE users_old RENAME TO users;
