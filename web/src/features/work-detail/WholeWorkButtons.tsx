/**
 * Above the file tree: play every audio file of the work in tree order, play them in the player's
 * shuffle mode, and download the whole work as a zip (`GET /api/media/download-work/:id`).
 */
import { Button, Group } from '@mantine/core';
import { IconArrowsShuffle, IconFileZip, IconPlayerPlayFilled } from '@tabler/icons-react';
import type { TrackNode } from '../../../../server/contract/tracks.js';
import { workZipUrl } from '../../api/urls.js';
import { t } from '../../i18n/index.js';
import { notifyWarning } from '../../lib/notify.js';
import { usePlayer } from '../player/store.js';
import { allAudioEntries } from './tree.js';

const T = t.library.tree;

interface WholeWorkButtonsProps {
  workId: number;
  /** The work's file tree, once loaded. */
  tree: readonly TrackNode[] | undefined;
}

export function WholeWorkButtons({ workId, tree }: WholeWorkButtonsProps) {
  const play = (shuffle: boolean) => {
    const entries = tree ? allAudioEntries(tree) : [];
    if (!entries.length) {
      notifyWarning(T.noAudio);
      return;
    }
    const player = usePlayer.getState();
    if (shuffle) {
      player.playTracks(entries, Math.floor(Math.random() * entries.length));
      player.setMode('shuffle');
    } else {
      player.playTracks(entries, 0);
      // "play all" means in order: leave repeat modes alone, but not the random one
      if (player.mode === 'shuffle') player.setMode('order');
    }
  };
  const noAudio = tree !== undefined && allAudioEntries(tree).length === 0;

  return (
    <Group gap="xs" data-testid="whole-work">
      <Button size="xs" leftSection={<IconPlayerPlayFilled size={14} />} onClick={() => play(false)} disabled={!tree || noAudio} data-testid="play-all">
        {T.playAll}
      </Button>
      <Button size="xs" variant="light" leftSection={<IconArrowsShuffle size={14} />} onClick={() => play(true)} disabled={!tree || noAudio} data-testid="play-shuffle">
        {T.shuffle}
      </Button>
      <Button size="xs" variant="subtle" component="a" href={workZipUrl(workId)} leftSection={<IconFileZip size={14} />} title={T.downloadWorkTip} data-testid="download-work">
        {T.downloadWork}
      </Button>
    </Group>
  );
}
