/**
 * Ids of the Subsonic API: an album is a work (`al-<work id>`), an artist a circle (`ar-<circle id>`),
 * a song an audio file of a work (`tr-<work id>-<n>`, n the file's stable number), a folder of the
 * library `d-<music folder id>-<base64url of its path in the root folder>`. Cover art ids are album ids. Clients treat ids as opaque strings.
 */
export const albumId = (workId: number) => `al-${workId}`;
export const artistId = (circleId: number) => `ar-${circleId}`;
export const songId = (workId: number, n: number) => `tr-${workId}-${n}`;

const num = (s: string) => (/^\d{1,16}$/.test(s) ? Number(s) : null);

export function parseAlbumId(id: string): number | null {
  return id.startsWith('al-') ? num(id.slice(3)) : null;
}

export function parseArtistId(id: string): number | null {
  return id.startsWith('ar-') ? num(id.slice(3)) : null;
}

export function parseSongId(id: string): { workId: number; n: number } | null {
  const m = /^tr-(\d{1,16})-(\d{1,9})$/.exec(id);
  return m ? { workId: Number(m[1]), n: Number(m[2]) } : null;
}

export const directoryId = (folderId: number, rel: string) => `d-${folderId}-${Buffer.from(rel, 'utf8').toString('base64url')}`;

export function parseDirectoryId(id: string): { folderId: number; rel: string } | null {
  const m = /^d-(\d{1,4})-([A-Za-z0-9_-]{0,4000})$/.exec(id);
  if (!m) return null;
  const rel = Buffer.from(m[2], 'base64url').toString('utf8');
  // only paths in the stored index's form: no empty, dot or dot-dot segments, no backslashes
  if (rel && rel.split('/').some((s) => s === '' || s === '.' || s === '..')) return null;
  if (rel.includes('\\') || rel.includes('\0')) return null;
  return { folderId: Number(m[1]), rel };
}
