--------------------------------------------------------------------------------
-- Up
-- Browse support: a library version counter. Every write that can change what a list, a count or
-- a label list shows bumps it (triggers, so every writer — server, `kikoplay scan`, cron — is
-- covered). Readers cache counts, ordered id lists, list-form works, file trees and label lists per version.
-- A writer that changes works_fts alone (virtual tables have no triggers) bumps it itself:
--   UPDATE library_state SET version = version + 1 WHERE id = 1;
--------------------------------------------------------------------------------

CREATE TABLE library_state (
  id       INTEGER PRIMARY KEY CHECK (id = 1),
  version  INTEGER NOT NULL DEFAULT 0
);
INSERT INTO library_state (id, version) VALUES (1, 0);

CREATE TRIGGER works_version_insert AFTER INSERT ON works
BEGIN UPDATE library_state SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER works_version_delete AFTER DELETE ON works
BEGIN UPDATE library_state SET version = version + 1 WHERE id = 1; END;
-- Every column a list orders, filters, searches or shows (not the scanner's bookkeeping: fingerprint,
-- next_file_n, metadata queue, covers), so list-form works can be cached per version too.
CREATE TRIGGER works_version_update AFTER UPDATE OF
  code, title, circle_id, nsfw, release, dl_count, price, review_count, rate_count, rate_average_2dp,
  rate_count_detail, rank, related, has_local_lyric, has_ai_lyric, total_duration, missing,
  created_at, updated_at ON works
BEGIN UPDATE library_state SET version = version + 1 WHERE id = 1; END;

-- A work's file list (the track tree is cached per version too).
CREATE TRIGGER files_version_insert AFTER INSERT ON files
BEGIN UPDATE library_state SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER files_version_delete AFTER DELETE ON files
BEGIN UPDATE library_state SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER files_version_update AFTER UPDATE ON files
BEGIN UPDATE library_state SET version = version + 1 WHERE id = 1; END;

CREATE TRIGGER work_tags_version_insert AFTER INSERT ON work_tags
BEGIN UPDATE library_state SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER work_tags_version_delete AFTER DELETE ON work_tags
BEGIN UPDATE library_state SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER work_tags_version_update AFTER UPDATE ON work_tags
BEGIN UPDATE library_state SET version = version + 1 WHERE id = 1; END;

CREATE TRIGGER work_vas_version_insert AFTER INSERT ON work_vas
BEGIN UPDATE library_state SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER work_vas_version_delete AFTER DELETE ON work_vas
BEGIN UPDATE library_state SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER work_vas_version_update AFTER UPDATE ON work_vas
BEGIN UPDATE library_state SET version = version + 1 WHERE id = 1; END;

CREATE TRIGGER circles_version_insert AFTER INSERT ON circles
BEGIN UPDATE library_state SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER circles_version_delete AFTER DELETE ON circles
BEGIN UPDATE library_state SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER circles_version_update AFTER UPDATE ON circles
BEGIN UPDATE library_state SET version = version + 1 WHERE id = 1; END;

CREATE TRIGGER tags_version_insert AFTER INSERT ON tags
BEGIN UPDATE library_state SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER tags_version_delete AFTER DELETE ON tags
BEGIN UPDATE library_state SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER tags_version_update AFTER UPDATE ON tags
BEGIN UPDATE library_state SET version = version + 1 WHERE id = 1; END;

CREATE TRIGGER vas_version_insert AFTER INSERT ON vas
BEGIN UPDATE library_state SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER vas_version_delete AFTER DELETE ON vas
BEGIN UPDATE library_state SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER vas_version_update AFTER UPDATE ON vas
BEGIN UPDATE library_state SET version = version + 1 WHERE id = 1; END;

--------------------------------------------------------------------------------
-- Down
--------------------------------------------------------------------------------
DROP TRIGGER vas_version_update;
DROP TRIGGER vas_version_delete;
DROP TRIGGER vas_version_insert;
DROP TRIGGER tags_version_update;
DROP TRIGGER tags_version_delete;
DROP TRIGGER tags_version_insert;
DROP TRIGGER circles_version_update;
DROP TRIGGER circles_version_delete;
DROP TRIGGER circles_version_insert;
DROP TRIGGER work_vas_version_update;
DROP TRIGGER work_vas_version_delete;
DROP TRIGGER work_vas_version_insert;
DROP TRIGGER work_tags_version_update;
DROP TRIGGER work_tags_version_delete;
DROP TRIGGER work_tags_version_insert;
DROP TRIGGER files_version_update;
DROP TRIGGER files_version_delete;
DROP TRIGGER files_version_insert;
DROP TRIGGER works_version_update;
DROP TRIGGER works_version_delete;
DROP TRIGGER works_version_insert;
DROP TABLE library_state;
