--------------------------------------------------------------------------------
-- Up
-- The interface language a user chose in the web app (en, ja or zh-CN); NULL until they choose one
-- (the web app then follows the browser). Not the metadata language of the scraped tags.
--------------------------------------------------------------------------------

ALTER TABLE users ADD COLUMN locale TEXT CHECK (locale IS NULL OR locale IN ('en', 'ja', 'zh-CN'));

--------------------------------------------------------------------------------
-- Down
--------------------------------------------------------------------------------
ALTER TABLE users DROP COLUMN locale;
