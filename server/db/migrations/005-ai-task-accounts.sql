--------------------------------------------------------------------------------
-- Up
-- Who moved an AI task along: the account that acquired it and the one that finished it, besides the
-- worker's self-chosen worker_name. kind = 'user' (a login account) or 'token' (a worker token); the
-- name is kept as it was then, so the record outlives a deleted user or a revoked token and never
-- points at whoever later gets the same id. NULL = nobody yet (or set before this migration).
--------------------------------------------------------------------------------

ALTER TABLE ai_tasks ADD COLUMN acquired_by_kind TEXT CHECK (acquired_by_kind IN ('user', 'token'));
ALTER TABLE ai_tasks ADD COLUMN acquired_by_name TEXT;
ALTER TABLE ai_tasks ADD COLUMN finished_by_kind TEXT CHECK (finished_by_kind IN ('user', 'token'));
ALTER TABLE ai_tasks ADD COLUMN finished_by_name TEXT;

--------------------------------------------------------------------------------
-- Down
--------------------------------------------------------------------------------
ALTER TABLE ai_tasks DROP COLUMN finished_by_name;
ALTER TABLE ai_tasks DROP COLUMN finished_by_kind;
ALTER TABLE ai_tasks DROP COLUMN acquired_by_name;
ALTER TABLE ai_tasks DROP COLUMN acquired_by_kind;
