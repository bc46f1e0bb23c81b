/**
 * The four-work library of the screen tours (test/e2e/language-tour.test.ts, accessibility.test.ts):
 * generated WAV tracks, a cover each, and for the first work a second track and an LRC file for its
 * first track; the titles, circles, tags and voice actors are set through the admin API after the scan.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from './app.js';
import type { E2eServer } from './e2e.js';
import { coverJpeg } from './scanned-app.js';
import { labelWorks, type WorkLabels } from './work-labels.js';
import { synthWav } from '../../server/library/demo-library.js';

/** The first work's first track (it has the LRC file). */
export const TOUR_TRACK = '01 はじめに.wav';
/** The LRC file's first line (from 0.2 s). */
export const TOUR_LYRIC_LINE = '星が見えるね';

export interface TourLibraryOptions {
  /** The first work's id; the others follow it. */
  firstId: number;
  /** The prefix of the library's temp dir. */
  tempPrefix: string;
  /** The length of the first work's second track. */
  secondTrackSeconds: number;
}

export interface TourLibrary {
  /** The works: id, folder title and the title, circle, tags and voice actors set by the admin. */
  works: WorkLabels[];
  /** For servedApp's `library`. */
  library(): Promise<{ root: string }>;
  /** For servedApp's `seed`. */
  seed(app: E2eServer): Promise<void>;
}

export function tourLibrary({ firstId, tempPrefix, secondTrackSeconds }: TourLibraryOptions): TourLibrary {
  const works: WorkLabels[] = [
    { id: firstId, title: '星空のささやき', circle: 'ほしぞら工房', tags: ['バイノーラル', '癒やし'], vas: ['山田花子'] },
    { id: firstId + 1, title: '雨音の夜', circle: 'ほしぞら工房', tags: ['環境音'], vas: ['佐藤さくら'] },
    { id: firstId + 2, title: '耳かきと添い寝', circle: 'しずく堂', tags: ['耳かき', 'バイノーラル'], vas: ['山田花子', '鈴木みどり'] },
    { id: firstId + 3, title: '朝のおはよう', circle: 'しずく堂', tags: ['癒やし'], vas: ['鈴木みどり'] },
  ];
  return {
    works,
    async library() {
      const root = tempDir(tempPrefix);
      const cover = await coverJpeg();
      for (const [i, work] of works.entries()) {
        const dir = path.join(root, `RJ${work.id} ${work.title}`);
        mkdirSync(dir, { recursive: true });
        writeFileSync(path.join(dir, 'cover.jpg'), cover);
        writeFileSync(path.join(dir, i === 0 ? TOUR_TRACK : '01 本編.wav'), synthWav([[392 + 49 * i, 30]], 0.2));
      }
      const first = path.join(root, `RJ${works[0].id} ${works[0].title}`);
      writeFileSync(path.join(first, '02 おやすみ.wav'), synthWav([[523, secondTrackSeconds]], 0.2));
      writeFileSync(path.join(first, '01 はじめに.lrc'), `[00:00.20]${TOUR_LYRIC_LINE}\n[00:10.00]おやすみなさい\n`);
      return { root };
    },
    seed: ({ api }) => labelWorks(api, works),
  };
}
