--------------------------------------------------------------------------------
-- Up
-- Indexes of the list orders the mobile apps send (issue 19): `updated_at` (the last change of a
-- work's files or metadata; `create_date` reuses works_by_created) and `nsfw` (the direction picks
-- which age group comes first, newest release first within each: one index per direction). Like the
-- other order indexes they lead with `missing`, so a list walks only the listed works in order.
-- The columns exist since 001 and are filled for every work: nothing to backfill.
--------------------------------------------------------------------------------

CREATE INDEX works_by_updated    ON works (missing, updated_at DESC, id DESC);
CREATE INDEX works_by_nsfw_asc   ON works (missing, nsfw ASC, release DESC, id DESC);
CREATE INDEX works_by_nsfw_desc  ON works (missing, nsfw DESC, release DESC, id DESC);

--------------------------------------------------------------------------------
-- Down
--------------------------------------------------------------------------------
DROP INDEX works_by_nsfw_desc;
DROP INDEX works_by_nsfw_asc;
DROP INDEX works_by_updated;
