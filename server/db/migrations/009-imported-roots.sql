--------------------------------------------------------------------------------
-- Up
-- Root folders `kikoplay import kikoeru` found in the kikoeru installation but could not add to the
-- configuration because they are unreachable now (a disk unplugged, a share down): the configuration
-- takes only folders that exist. Kept here, never deleted by a scan, so the admin sees them and a later
-- import adds them once they are back; their works are kept under `name`, marked missing.
--------------------------------------------------------------------------------

CREATE TABLE imported_root_folders (
  name         TEXT    PRIMARY KEY,                 -- the alias the works are stored under
  path         TEXT    NOT NULL,                    -- where the other installation had it
  source       TEXT    NOT NULL DEFAULT 'kikoeru',
  problem      TEXT    NOT NULL,                    -- why it was not added (e.g. the folder does not exist)
  created_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now'))
) WITHOUT ROWID;

--------------------------------------------------------------------------------
-- Down
--------------------------------------------------------------------------------
DROP TABLE imported_root_folders;
