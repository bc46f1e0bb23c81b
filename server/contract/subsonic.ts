/** The album list orders of the Subsonic API (getAlbumList / getAlbumList2 `type`, docs/API.md#subsonic-api). */
export const ALBUM_LIST_TYPES = ['random', 'newest', 'highest', 'frequent', 'recent', 'alphabeticalByName', 'alphabeticalByArtist', 'starred', 'byYear', 'byGenre'] as const;
export type AlbumListType = (typeof ALBUM_LIST_TYPES)[number];
