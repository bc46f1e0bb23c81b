/**
 * The Recent Works strip: the last 12 works of the play history, each with the track it
 * stopped at, a link to the work and a resume button; the heading links to the history page. Shown
 * when the preference is on and the list is not narrowed by a search.
 */
import { memo } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { ActionIcon, Anchor, Box, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { IconHistory, IconPlayerPlayFilled } from '@tabler/icons-react';
import { HoverTip } from '../../components/HoverTip.js';
import { Cover } from '../../components/cover/Cover.js';
import { t } from '../../i18n/index.js';
import { parsePlayState } from '../player/queue-entry.js';
import { formatTime } from '../../i18n/format.js';
import { usePlayer } from '../player/store.js';
import { fetchHistory, HISTORY_KEY, type HistoryListWork } from '../favourites/api.js';

/** The strip shows this many works. */
export const RECENT_COUNT = 12;

function RecentItem({ work }: { work: HistoryListWork }) {
  const resumeHistory = usePlayer((s) => s.resumeHistory);
  const state = parsePlayState(work.state);
  const current = state?.queue[state.index];
  return (
    <Stack gap={4} w={140} style={{ flexShrink: 0 }} data-testid="recent-item">
      <Box pos="relative">
        <Link to={`/work/${work.id}`} aria-label={work.title} style={{ display: 'block' }}>
          <Cover workId={work.id} alt={t.library.card.cover(work.title)} size="thumb" radius="var(--mantine-radius-md)" />
        </Link>
        {state && (
          <HoverTip label={t.library.favourites.resume}>
            <ActionIcon pos="absolute" right={6} bottom={6} radius="xl" size="lg" onClick={() => resumeHistory(work.state)} aria-label={`${t.library.favourites.resume} ${work.title}`}>
              <IconPlayerPlayFilled size={16} />
            </ActionIcon>
          </HoverTip>
        )}
      </Box>
      <Anchor component={Link} to={`/work/${work.id}`} size="xs" fw={600} lineClamp={2} c="var(--mantine-color-text)" title={work.title}>
        {work.title}
      </Anchor>
      {current && (
        <Text size="xs" c="dimmed" lineClamp={1} title={current.title}>
          {t.library.works.recentAt(current.title, formatTime(state?.seconds ?? 0))}
        </Text>
      )}
    </Stack>
  );
}

/** Memoised: the works page re-renders for every page the waterfall loads; this part only when its own inputs change. */
export const RecentWorks = memo(function RecentWorks() {
  const history = useQuery({ queryKey: [...HISTORY_KEY, 1], queryFn: ({ signal }) => fetchHistory(1, signal), meta: { silent: true } });
  const works = (history.data?.works ?? []).slice(0, RECENT_COUNT);
  if (!works.length) return null;
  return (
    <Stack gap="xs" data-testid="recent-works">
      <Group justify="space-between" gap="xs">
        <Group gap={6}>
          <IconHistory size={18} aria-hidden />
          <Text fw={600}>{t.library.works.recent}</Text>
        </Group>
        <Anchor component={Link} to="/favourites/histroy" size="sm">
          {t.library.works.recentAll}
        </Anchor>
      </Group>
      <ScrollArea type="hover" scrollbarSize={6} offsetScrollbars>
        <Group gap="sm" wrap="nowrap" align="flex-start" pb={4}>
          {works.map((work) => (
            <RecentItem key={work.id} work={work} />
          ))}
        </Group>
      </ScrollArea>
    </Stack>
  );
});
