/**
 * Starts what the player does besides drawing itself, once per page: the engine, play-history saving,
 * the reload-proof local session, the Media Session API, the sleep timer, lyric loading per track and
 * the notices of engine events. It runs for the life of the page (the admin layout too), so playback
 * and its bookkeeping never depend on which screen is open.
 */
import { api, ApiError } from '../../api/client.js';
import { queryClient } from '../../api/query-client.js';
import { t } from '../../i18n/index.js';
import { notifyError, notifyInfo } from '../../lib/notify.js';
import { useLyrics } from '../lyrics/lyric-store.js';
import { startSleepWatcher } from '../sleep-timer/sleep-watcher.js';
import { getEngine } from './engine.js';
import { HistorySync } from './history-sync.js';
import { restoreLocalSession, trackLocalSession } from './local-session.js';
import { bindMediaSession } from './media-session.js';
import { rememberedRate, usePlayerUser } from './player-user.js';
import { toPlayState } from './queue-entry.js';
import { usePlayer } from './store.js';
import { hasIosBackgroundBug, showOnce } from './warnings.js';
import { HISTORY_KEY } from '../favourites/api.js';

export const RESUMED_NOTICE_MS = 2500;

let started = false;
let history: HistorySync | null = null;

function start(): void {
  if (started) return;
  started = true;
  const engine = getEngine();

  history = new HistorySync({
    snapshot: () => {
      const s = usePlayer.getState();
      const entry = s.queue[s.index];
      return entry ? { work_id: entry.workId, state: toPlayState(s.queue, s.index, engine.currentTime) } : null;
    },
    isResuming: () => usePlayer.getState().resumePoint !== null,
    // a saved play state changes the history lists (the works page's recent strip, favourites): they load again
    // guests only listen: the server keeps no play history for them (it would refuse with 403)
    put: async (payload) => {
      if (!usePlayerUser.getState().canWrite) return;
      await api('PUT', '/api/histroy', { body: payload });
      void queryClient.invalidateQueries({ queryKey: HISTORY_KEY });
    },
    log: (message, detail) => (detail === undefined ? console.info(message) : console.warn(message, detail)),
    isFatal: (err) => err instanceof ApiError && (err.status === 401 || err.status === 403),
  });
  history.start();
  usePlayer.subscribe((s, prev) => {
    if (s.queue !== prev.queue || s.index !== prev.index || s.playing !== prev.playing) history?.schedule();
  });

  trackLocalSession(engine, () => usePlayerUser.getState().name);
  bindMediaSession(engine);
  startSleepWatcher();

  // lyrics follow the current track
  let lyricHash: string | null = null;
  const followLyrics = () => {
    const s = usePlayer.getState();
    const entry = s.queue[s.index];
    if ((entry?.hash ?? null) === lyricHash) return;
    lyricHash = entry?.hash ?? null;
    void useLyrics.getState().load(entry);
  };
  usePlayer.subscribe(followLyrics);
  followLyrics();

  engine.on((e) => {
    if (e.type === 'resumed') notifyInfo(t.player.resumed, { autoClose: RESUMED_NOTICE_MS, id: 'player-resumed' });
    else if (e.type === 'error') notifyError(t.player.playFailed(e.message), { id: 'player-error' });
    else if (e.type === 'blocked') notifyInfo(t.player.blocked, { id: 'player-blocked' });
  });
  usePlayer.subscribe((s, prev) => {
    if (s.playing && !prev.playing && hasIosBackgroundBug()) showOnce('iosBackground', t.player.warnings.iosBackground);
  });
}

/**
 * Start the player for the signed-in user (idempotent): speed and the stored session are per user; a
 * different user gets an empty player.
 */
export function startPlayer(user: { name: string; admin: boolean; canWrite: boolean } | null): void {
  start();
  const before = usePlayerUser.getState().name;
  const name = user?.name ?? null;
  usePlayerUser.setState({ name, admin: user?.admin ?? false, canWrite: user?.canWrite ?? false });
  if (name !== before || !usePlayerUser.getState().ready) {
    if (before !== null && name !== null && name !== before) usePlayer.getState().clear();
    getEngine().setRate(rememberedRate(name));
    restoreLocalSession(name);
  }
  usePlayerUser.setState({ ready: true });
}
