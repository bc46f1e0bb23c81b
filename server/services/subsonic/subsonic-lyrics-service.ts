import type { Actor } from '../../auth/roles.js';
import { CostlySearchGate } from '../works/costly-search-gate.js';
import type { SubsonicLibraryRepo } from '../../db/repos/subsonic-library-repo.js';
import type { LyricLine } from '../../domain/lyrics/types.js';
import type { LyricsService } from '../lyrics-service.js';
import { parseSongId } from './ids.js';
import type { SubsonicLibraryService } from './subsonic-library-service.js';
import { subsonicNotFound } from './subsonic-error.js';

/** The best lyric is used when it matches the audio file at least by containment (exact or `contains`, any folder). */
const GOOD_MATCH = 1.5;

/**
 * Lyrics for native apps (getLyricsBySongId: OpenSubsonic structured, synced lyrics; getLyrics: the
 * plain text), through the lyric service: the lyric the web player would pick for the audio file — a
 * local LRC/VTT/SRT file in any encoding, or a successful AI lyric.
 */
export class SubsonicLyricsService {
  /** getLyrics without an artist tests every audio file's name: one at a time, time-limited, like short searches. */
  private readonly gate: CostlySearchGate;

  constructor(
    private readonly lyrics: LyricsService,
    private readonly library: SubsonicLibraryService,
    private readonly repo: SubsonicLibraryRepo,
  ) {
    this.gate = new CostlySearchGate(repo);
  }

  private async lines(workId: number, n: number): Promise<LyricLine[] | null> {
    const { lyricList } = await this.lyrics.query(workId, n);
    const best = lyricList.find((l) => l.matchLevel >= 0 && l.matchLevel <= GOOD_MATCH);
    if (!best) return null;
    if (best.isAI) return (await this.lyrics.fetchAi(workId, Number(best.hash))).lrc;
    const m = /^(\d+)\/(\d+)$/.exec(String(best.hash));
    return m ? (await this.lyrics.fetchLocal(Number(m[1]), Number(m[2]))).lrc : null;
  }

  async bySongId(actor: Actor, id: string) {
    const ref = parseSongId(id);
    if (!ref) throw subsonicNotFound('Song');
    const song = await this.library.song(actor, id);
    const lines = await this.lines(ref.workId, ref.n);
    if (!lines?.length) return { structuredLyrics: [] };
    return {
      structuredLyrics: [
        {
          displayArtist: song.artist,
          displayTitle: song.title,
          lang: 'und',
          synced: true,
          offset: 0,
          line: lines.map((l) => ({ start: Math.round(l.time), value: l.text })),
        },
      ],
    };
  }

  /** Legacy getLyrics: the plain text of the first song titled `title` (of the circle `artist`, when given). */
  async byTitle(actor: Actor, artist: string | undefined, title: string | undefined) {
    if (!title) return {};
    const refs = artist ? await this.repo.songsTitled(title, artist) : await this.gate.run(`user:${actor.id}`, () => this.repo.songsTitled(title));
    for (const ref of refs) {
      const lines = await this.lines(ref.work_id, ref.n).catch(() => null);
      if (!lines?.length) continue;
      const song = await this.library.song(actor, `tr-${ref.work_id}-${ref.n}`);
      return { artist: song.artist, title: song.title, value: lines.map((l) => l.text).join('\n') };
    }
    return {};
  }
}
