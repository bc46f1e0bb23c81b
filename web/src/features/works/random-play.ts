/**
 * Random play from the drawer: the first work of `GET /api/works?order=betterRandom`
 * is opened and its first folder with audio is handed to the player. Loaded on demand (the drawer is
 * part of the first page load; this is not).
 */
import type { NavigateFunction } from 'react-router';
import type { QueryClient } from '@tanstack/react-query';
import { reportError } from '../../api/errors.js';
import { t } from '../../i18n/index.js';
import { notifyInfo, notifyWarning } from '../../lib/notify.js';
import { usePlayer } from '../player/store.js';
import { fetchTracks, tracksKey } from '../work-detail/api.js';
import { firstAudioFolder, toEntries } from '../work-detail/tree.js';
import { fetchRandomWork } from './api.js';

export async function randomPlay(navigate: NavigateFunction, queryClient: QueryClient): Promise<void> {
  try {
    const work = await fetchRandomWork();
    if (!work) {
      notifyInfo(t.library.works.randomEmpty);
      return;
    }
    const tracks = queryClient.fetchQuery({ queryKey: tracksKey(work.id), queryFn: ({ signal }) => fetchTracks(work.id, signal) });
    await navigate(`/work/${work.id}`);
    const found = firstAudioFolder(await tracks);
    if (!found) {
      notifyWarning(t.library.works.randomNoAudio);
      return;
    }
    usePlayer.getState().playTracks(toEntries(found.nodes, found.folder), 0);
  } catch (err) {
    reportError(err);
  }
}
