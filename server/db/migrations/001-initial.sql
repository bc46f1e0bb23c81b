--------------------------------------------------------------------------------
-- Up
-- The whole product's schema. Timestamps are UTC 'YYYY-MM-DD HH:MM:SS' strings.
--------------------------------------------------------------------------------

-- Circles (makers). id = DLsite maker id (digits of RGxxxxx); custom circles made in the
-- metadata editor get ids from 900000000 upwards, a range DLsite does not use. id 0 = unknown circle.
CREATE TABLE circles (
  id          INTEGER PRIMARY KEY,
  name        TEXT    NOT NULL,
  work_count  INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX circles_by_count ON circles (work_count DESC, name);

-- Tags (DLsite genres). name is in the configured tagLanguage; original_name keeps the name
-- DLsite gave when "uncensor tags" replaced it, so the change can be undone.
CREATE TABLE tags (
  id             INTEGER PRIMARY KEY,
  name           TEXT    NOT NULL,
  original_name  TEXT,
  work_count     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX tags_by_count ON tags (work_count DESC, name);

-- Voice actors. id = uuidv5(name) as in the kikoeru contract; 'N/A' placeholder has id '0'.
CREATE TABLE vas (
  id          TEXT    PRIMARY KEY,
  name        TEXT    NOT NULL,
  work_count  INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX vas_by_count ON vas (work_count DESC, name);

CREATE TABLE works (
  id                   INTEGER PRIMARY KEY,          -- RJ digits; BJ 1e12 + digits; VJ 2e12 + digits
  code                 TEXT    NOT NULL,             -- display code, e.g. RJ123456, RJ01234567
  title                TEXT    NOT NULL,
  circle_id            INTEGER NOT NULL DEFAULT 0 REFERENCES circles (id),
  nsfw                 INTEGER NOT NULL DEFAULT 0,
  release              TEXT    NOT NULL DEFAULT '',  -- YYYY-MM-DD or ''
  dl_count             INTEGER NOT NULL DEFAULT 0,
  price                INTEGER NOT NULL DEFAULT 0,
  review_count         INTEGER NOT NULL DEFAULT 0,
  rate_count           INTEGER NOT NULL DEFAULT 0,
  rate_average_2dp     REAL    NOT NULL DEFAULT 0,
  rate_count_detail    TEXT,                         -- JSON [{review_point,count,ratio}] or NULL
  rank                 TEXT,                         -- JSON [{term,category,rank,rank_date}] or NULL
  related              TEXT,                         -- JSON [{id,name}] language editions, or NULL
  has_local_lyric      INTEGER NOT NULL DEFAULT 0,
  has_ai_lyric         INTEGER NOT NULL DEFAULT 0,   -- at least one successful AI task
  total_duration       REAL    NOT NULL DEFAULT 0,   -- seconds, sum of audio durations
  -- where the work lives
  root_folder          TEXT    NOT NULL,             -- alias of a configured root folder
  dir                  TEXT    NOT NULL,             -- folder path relative to the root, '/' separated
  fingerprint          TEXT,                         -- hash of relative paths + sizes + mtimes
  next_file_n          INTEGER NOT NULL DEFAULT 0,   -- file numbers are never reused
  missing              INTEGER NOT NULL DEFAULT 0,   -- folder vanished; user data kept
  missing_since        TEXT,
  -- covers
  cover_source         TEXT,                         -- 'dlsite' | 'local' | NULL (none yet)
  cover_updated_at     TEXT,
  -- metadata enrichment (a persisted queue over the works table)
  metadata_status      TEXT    NOT NULL DEFAULT 'pending'
                         CHECK (metadata_status IN ('pending', 'ok', 'failed', 'not_found')),
  metadata_source      TEXT,                         -- dlsite | dlsite-json | asmr.one | local
  metadata_attempts    INTEGER NOT NULL DEFAULT 0,
  metadata_error       TEXT,
  metadata_next_at     TEXT,                         -- earliest next attempt (UTC)
  metadata_updated_at  TEXT,
  edited_fields        TEXT    NOT NULL DEFAULT '[]',-- JSON array: fields a user edited (title, circle, tags, vas)
  created_at           TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now')),
  updated_at           TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now'))
);
CREATE UNIQUE INDEX works_location      ON works (root_folder, dir);
CREATE INDEX works_circle               ON works (circle_id, release DESC, id DESC);
CREATE INDEX works_by_release           ON works (missing, release DESC, id DESC);
CREATE INDEX works_by_created           ON works (missing, created_at DESC, id DESC);
CREATE INDEX works_by_dl_count          ON works (missing, dl_count DESC, release DESC, id DESC);
CREATE INDEX works_by_price             ON works (missing, price DESC, release DESC, id DESC);
CREATE INDEX works_by_rate              ON works (missing, rate_average_2dp DESC, release DESC, id DESC);
CREATE INDEX works_by_review_count      ON works (missing, review_count DESC, release DESC, id DESC);
CREATE INDEX works_metadata_queue       ON works (metadata_status, metadata_next_at);

CREATE TABLE work_tags (
  work_id  INTEGER NOT NULL REFERENCES works (id) ON DELETE CASCADE,
  tag_id   INTEGER NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
  PRIMARY KEY (work_id, tag_id)
) WITHOUT ROWID;
CREATE INDEX work_tags_by_tag ON work_tags (tag_id, work_id);

CREATE TABLE work_vas (
  work_id  INTEGER NOT NULL REFERENCES works (id) ON DELETE CASCADE,
  va_id    TEXT    NOT NULL REFERENCES vas (id) ON DELETE CASCADE,
  position INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (work_id, va_id)
) WITHOUT ROWID;
CREATE INDEX work_vas_by_va ON work_vas (va_id, work_id);

-- Files of a work. n is the stable per-work number behind the public hash '<workId>/<n>':
-- it stays while the relative path exists and is never reused (works.next_file_n).
CREATE TABLE files (
  work_id   INTEGER NOT NULL REFERENCES works (id) ON DELETE CASCADE,
  n         INTEGER NOT NULL,
  path      TEXT    NOT NULL,                      -- relative to the work folder, '/' separated
  kind      TEXT    NOT NULL CHECK (kind IN ('audio', 'text', 'image', 'other')),
  is_lyric  INTEGER NOT NULL DEFAULT 0,            -- .lrc .srt .vtt .ass
  size      INTEGER NOT NULL,
  mtime_ms  INTEGER NOT NULL,
  duration  REAL,                                  -- seconds; NULL when unknown or not media
  PRIMARY KEY (work_id, n),
  UNIQUE (work_id, path)
) WITHOUT ROWID;

-- Full-text search over code, title, circle, tags and voice actors (NFKC + lower-cased text).
-- rowid = works.id. Trigram tokenizer: Japanese and Chinese have no word boundaries.
CREATE VIRTUAL TABLE works_fts USING fts5 (body, tokenize = 'trigram');

CREATE TABLE users (
  id             INTEGER PRIMARY KEY,
  name           TEXT    NOT NULL UNIQUE,
  password_hash  TEXT    NOT NULL,                -- scrypt$N$r$p$salt$hash
  role           TEXT    NOT NULL CHECK (role IN ('admin', 'user', 'guest')),
  token_version  INTEGER NOT NULL DEFAULT 0,      -- bumped on password change: revokes tokens
  created_at     TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now')),
  updated_at     TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now'))
);

CREATE TABLE reviews (
  user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  work_id      INTEGER NOT NULL REFERENCES works (id) ON DELETE CASCADE,
  rating       INTEGER CHECK (rating IS NULL OR rating BETWEEN 1 AND 5),
  review_text  TEXT,
  progress     TEXT CHECK (progress IS NULL OR progress IN ('marked', 'listening', 'listened', 'replay', 'postponed')),
  created_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now')),
  updated_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now')),
  PRIMARY KEY (user_id, work_id)
) WITHOUT ROWID;
CREATE INDEX reviews_by_user_updated ON reviews (user_id, updated_at DESC);
CREATE INDEX reviews_by_work ON reviews (work_id);

CREATE TABLE play_history (
  user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  work_id     INTEGER NOT NULL REFERENCES works (id) ON DELETE CASCADE,
  state       TEXT    NOT NULL,                   -- client JSON, stored verbatim
  created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now')),
  updated_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now')),
  PRIMARY KEY (user_id, work_id)
) WITHOUT ROWID;
CREATE INDEX play_history_by_user_updated ON play_history (user_id, updated_at DESC);

-- AI transcription tasks. status: 0 NONE, 1 PENDING, 2 TRASCRIPTING, 3 SUCCESS, 4 ERROR.
CREATE TABLE ai_tasks (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  work_id         INTEGER NOT NULL REFERENCES works (id) ON DELETE CASCADE,
  audio_path      TEXT    NOT NULL,               -- relative to the work folder, '/' separated
  status          INTEGER NOT NULL DEFAULT 1 CHECK (status BETWEEN 0 AND 4),
  worker_name     TEXT    NOT NULL DEFAULT '',
  worker_status   TEXT    NOT NULL DEFAULT '',
  secret          TEXT,                           -- NULL unless acquired; never matches an empty secret
  lease_expires_at TEXT,
  lrc             TEXT,                           -- result of a successful task
  created_by      INTEGER REFERENCES users (id) ON DELETE SET NULL,
  created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now')),
  updated_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now')),
  UNIQUE (work_id, audio_path)
);
CREATE INDEX ai_tasks_queue ON ai_tasks (status, id);
CREATE INDEX ai_tasks_by_updated ON ai_tasks (updated_at DESC, id DESC);

-- Long-lived credentials for transcription workers; only reach the worker endpoints.
CREATE TABLE worker_tokens (
  id            INTEGER PRIMARY KEY,
  name          TEXT    NOT NULL UNIQUE,
  token_hash    TEXT    NOT NULL UNIQUE,          -- sha256 of the token
  created_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now')),
  last_used_at  TEXT,
  revoked       INTEGER NOT NULL DEFAULT 0
);

-- Scan runs and their events, so a scan started by `kikoplay scan` or cron in another process
-- can be followed live by the server's dashboard.
CREATE TABLE scan_runs (
  id           INTEGER PRIMARY KEY,
  kind         TEXT    NOT NULL,                  -- scan | refresh | files | work | purge
  pid          INTEGER NOT NULL,
  status       TEXT    NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'finished', 'error', 'cancelled')),
  summary      TEXT,                              -- JSON counts
  started_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now')),
  finished_at  TEXT
);
CREATE TABLE scan_events (
  id      INTEGER PRIMARY KEY,
  run_id  INTEGER NOT NULL REFERENCES scan_runs (id) ON DELETE CASCADE,
  event   TEXT    NOT NULL                        -- JSON ScanEvent
);
CREATE INDEX scan_events_by_run ON scan_events (run_id, id);

-- Unknown circle: works appear at once, before metadata is known.
INSERT INTO circles (id, name) VALUES (0, '');

--------------------------------------------------------------------------------
-- Down
--------------------------------------------------------------------------------
DROP TABLE scan_events;
DROP TABLE scan_runs;
DROP TABLE worker_tokens;
DROP TABLE ai_tasks;
DROP TABLE play_history;
DROP TABLE reviews;
DROP TABLE users;
DROP TABLE works_fts;
DROP TABLE files;
DROP TABLE work_vas;
DROP TABLE work_tags;
DROP TABLE works;
DROP TABLE vas;
DROP TABLE tags;
DROP TABLE circles;
