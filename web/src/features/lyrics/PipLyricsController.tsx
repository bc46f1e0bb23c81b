/**
 * Drives the picture-in-picture lyrics from the `pipLyrics` preference: turning it on asks
 * the user, then opens the window ('桌面歌词打开失败，请播放音频5秒后再次尝试打开' when the video is not
 * ready or the browser refuses); closing the window turns it off; an empty queue stops it; play state
 * is synced both ways. Renders nothing.
 */
import { useEffect, useRef } from 'react';
import { useComputedColorScheme } from '@mantine/core';
import { modals } from '@mantine/modals';
import { create } from 'zustand';
import { t } from '../../i18n/index.js';
import { notifyWarning } from '../../lib/notify.js';
import { getPref, setPref, usePref } from '../../lib/prefs.js';
import { usePlayer } from '../player/store.js';
import { PipLyrics, pipSupported } from './pip-lyrics.js';
import { useActiveText } from './use-active-line.js';

/** Whether the PIP window shows (the on-page lyric bar hides meanwhile). */
export const usePipOpen = create<{ open: boolean }>()(() => ({ open: false }));

let pip: PipLyrics | null = null;

function ensurePip(): PipLyrics {
  pip ??= new PipLyrics(
    (playing) => usePlayer.getState().setPlaying(playing),
    () => {
      usePipOpen.setState({ open: false });
      if (getPref('pipLyrics')) setPref('pipLyrics', false);
    },
  );
  return pip;
}

function fail(): void {
  notifyWarning(t.player.lyrics.pipFailed);
  usePipOpen.setState({ open: false });
  setPref('pipLyrics', false);
}

export function PipLyricsController() {
  const [enabled] = usePref('pipLyrics');
  const hasQueue = usePlayer((s) => s.queue.length > 0);
  const playing = usePlayer((s) => s.playing);
  const text = useActiveText();
  const dark = useComputedColorScheme('light') === 'dark';
  const asked = useRef(false);

  // Get the canvas video going as soon as something plays, so it is ready when asked for.
  useEffect(() => {
    if (hasQueue && pipSupported()) ensurePip();
  }, [hasQueue]);

  useEffect(() => {
    if (!enabled) {
      asked.current = false;
      pip?.close();
      usePipOpen.setState({ open: false });
      return;
    }
    if (!hasQueue) {
      // an empty queue stops it
      pip?.close();
      usePipOpen.setState({ open: false });
      setPref('pipLyrics', false);
      return;
    }
    if (asked.current || pip?.isOpen) return;
    asked.current = true;
    if (!pipSupported()) return fail();
    const target = ensurePip();
    if (!target.isReady) return fail();
    let confirmed = false;
    modals.openConfirmModal({
      title: t.player.lyrics.pipTitle,
      children: t.player.lyrics.pipPrompt,
      labels: { confirm: t.player.lyrics.pipOpen, cancel: t.player.lyrics.pipCancel },
      zIndex: 320,
      onConfirm: () => {
        confirmed = true;
        target
          .open(usePlayer.getState().playing)
          .then(() => usePipOpen.setState({ open: true }))
          .catch(fail);
      },
      onClose: () => {
        if (!confirmed) setPref('pipLyrics', false);
      },
    });
  }, [enabled, hasQueue]);

  useEffect(() => {
    if (pip) pip.draw(text, dark);
  }, [text, dark]);

  useEffect(() => {
    pip?.follow(playing);
  }, [playing]);

  return null;
}
