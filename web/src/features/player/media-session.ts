/**
 * The Media Session API (lock screen, headset and media keys): title, work and artwork of the playing
 * track, the play state and position, and the play/pause/previous/next/seek actions.
 */
import { coverUrl } from '../../api/urls.js';
import { useSharedConfig } from '../../lib/shared-config.js';
import type { PlayerEngine } from './engine.js';
import { usePlayer } from './store.js';

export function bindMediaSession(engine: PlayerEngine): void {
  if (typeof navigator === 'undefined' || !('mediaSession' in navigator)) return;
  const session = navigator.mediaSession;
  const player = () => usePlayer.getState();

  const handlers: [MediaSessionAction, MediaSessionActionHandler][] = [
    ['play', () => player().setPlaying(true)],
    ['pause', () => player().setPlaying(false)],
    ['stop', () => player().setPlaying(false)],
    ['previoustrack', () => player().previous()],
    ['nexttrack', () => player().next()],
    ['seekbackward', (d) => engine.seekBy(-(d.seekOffset ?? useSharedConfig.getState().rewindSeekTime))],
    ['seekforward', (d) => engine.seekBy(d.seekOffset ?? useSharedConfig.getState().forwardSeekTime)],
    ['seekto', (d) => d.seekTime !== undefined && engine.seek(d.seekTime)],
  ];
  for (const [action, handler] of handlers) {
    try {
      session.setActionHandler(action, handler);
    } catch {
      /* an action this browser does not know */
    }
  }

  let shownHash: string | null = null;
  const update = () => {
    const s = player();
    const entry = s.queue[s.index];
    session.playbackState = entry ? (s.playing ? 'playing' : 'paused') : 'none';
    if ((entry?.hash ?? null) === shownHash) return;
    shownHash = entry?.hash ?? null;
    session.metadata = entry
      ? new MediaMetadata({
          title: entry.title,
          artist: entry.workTitle,
          album: entry.workTitle,
          artwork: [
            { src: new URL(coverUrl(entry.workId, '240x240'), location.href).href, sizes: '240x240', type: 'image/jpeg' },
            { src: new URL(coverUrl(entry.workId, 'main'), location.href).href, sizes: '560x420', type: 'image/jpeg' },
          ],
        })
      : null;
  };
  usePlayer.subscribe(update);
  update();

  const position = () => {
    const duration = engine.duration;
    if (!session.setPositionState || !(duration > 0) || !Number.isFinite(duration)) return;
    try {
      session.setPositionState({ duration, position: Math.min(engine.currentTime, duration), playbackRate: engine.element.playbackRate || 1 });
    } catch {
      /* a position past the end while the next track loads */
    }
  };
  for (const el of [engine.audio, engine.video]) {
    for (const type of ['durationchange', 'ratechange', 'seeked', 'play', 'pause']) el.addEventListener(type, position);
  }
}
