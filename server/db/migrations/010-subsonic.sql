--------------------------------------------------------------------------------
-- Up
-- The Subsonic API (/rest): per-user API keys (only their sha256 is stored), the separate Subsonic
-- password (encrypted with the key file `subsonic-key` of the data dir, never the login password),
-- and the stars native apps set on albums (works), songs (audio files) and artists (circles).
--------------------------------------------------------------------------------

CREATE TABLE subsonic_api_keys (
  id            INTEGER PRIMARY KEY,
  user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name          TEXT    NOT NULL,
  key_hash      TEXT    NOT NULL UNIQUE,            -- sha256 of the key
  created_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now')),
  last_used_at  TEXT,
  UNIQUE (user_id, name)
);

CREATE TABLE subsonic_passwords (
  user_id     INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  secret      TEXT    NOT NULL,                     -- AES-256-GCM: iv.tag.ciphertext (base64url)
  updated_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now'))
);

CREATE TABLE subsonic_stars (
  user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind        TEXT    NOT NULL CHECK (kind IN ('album', 'song', 'artist')),
  item        TEXT    NOT NULL,                     -- work id, '<workId>/<n>' or circle id
  created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now')),
  PRIMARY KEY (user_id, kind, item)
) WITHOUT ROWID;

-- the name order of album lists, and the album count of every circle, read from indexes
CREATE INDEX works_by_title ON works (missing, title COLLATE NOCASE, id);
CREATE INDEX works_by_circle ON works (missing, circle_id);

--------------------------------------------------------------------------------
-- Down
--------------------------------------------------------------------------------
DROP INDEX works_by_circle;
DROP INDEX works_by_title;
DROP TABLE subsonic_stars;
DROP TABLE subsonic_passwords;
DROP TABLE subsonic_api_keys;
