/** The link to the full-screen player, shown only while a work plays; the header and the expanded player use it. */
import { Link, useLocation } from 'react-router';
import { ActionIcon } from '@mantine/core';
import { IconArrowsMaximize } from '@tabler/icons-react';
import { HoverTip } from '../../components/HoverTip.js';
import { t } from '../../i18n/index.js';
import { usePlayer } from './store.js';

export function FullScreenLink({ onClick, size = 'lg' }: { onClick?: () => void; size?: 'md' | 'lg' }) {
  const workId = usePlayer((s) => s.queue[s.index]?.workId);
  const { pathname } = useLocation();
  if (workId === undefined || pathname.startsWith('/fullScreenPlayer')) return null;
  return (
    <HoverTip label={t.player.fullScreen}>
      <ActionIcon component={Link} to={`/fullScreenPlayer/${workId}`} onClick={onClick} variant="subtle" color="gray" size={size} aria-label={t.player.fullScreen} data-testid="fullscreen-link">
        <IconArrowsMaximize size={20} />
      </ActionIcon>
    </HoverTip>
  );
}
