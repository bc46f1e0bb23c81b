/**
 * The work list's controls: sort field, ascending/descending, age rating, the lyric filter
 * (multiple choice; "no lyric" excludes the others), the display toggles — grid/list, labels (list
 * mode, window wider than 700 px), detail, zoom (grid, window at least 1120 px) — and the display
 * settings (waterfall or pagination, the recent strip, the old card style). Everything is a preference.
 */
import { memo } from 'react';
import { ActionIcon, Checkbox, Group, Menu, Select, Button, Radio, Stack, Text, SegmentedControl } from '@mantine/core';
import {
  IconFilter,
  IconLayoutGrid,
  IconList,
  IconSettings,
  IconSortAscending,
  IconSortDescending,
  IconTag,
  IconTagOff,
  IconZoomIn,
  IconZoomOut,
  IconListDetails,
  IconLayoutList,
} from '@tabler/icons-react';
import { HoverTip } from '../../components/HoverTip.js';
import { t } from '../../i18n/index.js';
import { AGE_RATINGS, LYRIC_OPTIONS, SORT_FIELDS, usePref, type AgeRating, type ListMode, type SortField } from '../../lib/prefs.js';
import { LABEL_MIN_WIDTH, ZOOM_MIN_WIDTH } from './layout.js';
import { nextLyricOptions } from './works-source.js';

interface WorksToolbarProps {
  windowWidth: number;
  zoom: boolean;
  onZoom(zoom: boolean): void;
}

const M = t.library.works;

function Toggle({ label, active, disabled, onClick, icon, testId }: { label: string; active: boolean; disabled?: boolean; onClick(): void; icon: React.ReactNode; testId: string }) {
  return (
    <HoverTip label={label}>
      <ActionIcon variant={active ? 'filled' : 'default'} size="lg" onClick={onClick} disabled={disabled} aria-label={label} aria-pressed={active} data-testid={testId}>
        {icon}
      </ActionIcon>
    </HoverTip>
  );
}

/** Memoised: the works page re-renders for every page the waterfall loads; this part only when its own inputs change. */
export const WorksToolbar = memo(function WorksToolbar({ windowWidth, zoom, onZoom }: WorksToolbarProps) {
  const [sortField, setSortField] = usePref('sortField');
  const [sortDirection, setSortDirection] = usePref('sortDirection');
  const [ageRating, setAgeRating] = usePref('ageRating');
  const [lyricOptions, setLyricOptions] = usePref('lyricOptions');
  const [listView, setListView] = usePref('listView');
  const [showLabel, setShowLabel] = usePref('showLabel');
  const [showDetail, setShowDetail] = usePref('showDetail');
  const [listMode, setListMode] = usePref('listMode');
  const [showRecent, setShowRecent] = usePref('showRecent');
  const [oldCardUi, setOldCardUi] = usePref('oldCardUi');

  const labelAllowed = windowWidth > LABEL_MIN_WIDTH;
  const zoomAllowed = windowWidth >= ZOOM_MIN_WIDTH;
  const lyricCount = lyricOptions.length;

  return (
    <Group gap="xs" wrap="wrap" justify="space-between" data-testid="works-toolbar">
      <Group gap="xs" wrap="wrap">
        <Select
          value={sortField}
          onChange={(v) => v && setSortField(v as SortField)}
          data={SORT_FIELDS.map((f) => ({ value: f, label: M.sortFields[f] }))}
          allowDeselect={false}
          aria-label={M.sort}
          size="sm"
          // wide enough for the longest field name in every language ('Average rating')
          w={148}
          comboboxProps={{ withinPortal: true }}
          data-testid="sort-field"
        />
        <Toggle
          label={sortDirection === 'asc' ? M.asc : M.desc}
          active={false}
          onClick={() => setSortDirection(sortDirection === 'asc' ? 'desc' : 'asc')}
          icon={sortDirection === 'asc' ? <IconSortAscending size={18} /> : <IconSortDescending size={18} />}
          testId="sort-direction"
        />
        <Select
          value={ageRating}
          onChange={(v) => v && setAgeRating(v as AgeRating)}
          data={AGE_RATINGS.map((a) => ({ value: a, label: M.ages[a] }))}
          allowDeselect={false}
          aria-label={M.age}
          size="sm"
          w={96}
          data-testid="age-rating"
        />
        <Menu closeOnItemClick={false} position="bottom-start" withinPortal>
          <Menu.Target>
            <Button variant={lyricCount ? 'light' : 'default'} size="sm" leftSection={<IconFilter size={16} />} data-testid="lyric-filter" px="sm">
              {lyricCount ? lyricOptions.map((o) => M.lyrics[o]).join(t.punctuation.listSeparator) : M.lyricAny}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>{M.lyric}</Menu.Label>
            {LYRIC_OPTIONS.map((option) => {
              const checked = lyricOptions.includes(option);
              return (
                <Menu.Item
                  key={option}
                  onClick={() => {
                    const picked = checked ? lyricOptions.filter((o) => o !== option) : [...lyricOptions, option];
                    setLyricOptions(nextLyricOptions(lyricOptions, picked));
                  }}
                  leftSection={<Checkbox checked={checked} readOnly size="xs" tabIndex={-1} aria-hidden />}
                  role="menuitemcheckbox"
                  aria-checked={checked}
                  data-testid={`lyric-option-${option}`}
                >
                  {M.lyrics[option]}
                </Menu.Item>
              );
            })}
          </Menu.Dropdown>
        </Menu>
      </Group>
      <Group gap={6} wrap="nowrap">
        <SegmentedControl
          size="xs"
          value={listView ? 'list' : 'grid'}
          onChange={(v) => setListView(v === 'list')}
          data={[
            { value: 'grid', label: <IconLayoutGrid size={16} aria-label={M.grid} /> },
            { value: 'list', label: <IconList size={16} aria-label={M.list} /> },
          ]}
          data-testid="grid-list"
        />
        {listView && (
          <Toggle
            label={M.label}
            active={showLabel && labelAllowed}
            disabled={!labelAllowed}
            onClick={() => setShowLabel(!showLabel)}
            icon={showLabel ? <IconTag size={18} /> : <IconTagOff size={18} />}
            testId="toggle-label"
          />
        )}
        <Toggle
          label={M.detail}
          active={showDetail}
          onClick={() => setShowDetail(!showDetail)}
          icon={showDetail ? <IconListDetails size={18} /> : <IconLayoutList size={18} />}
          testId="toggle-detail"
        />
        {!listView && (
          <Toggle
            label={M.zoom}
            active={zoom && zoomAllowed}
            disabled={!zoomAllowed}
            onClick={() => onZoom(!zoom)}
            icon={zoom ? <IconZoomOut size={18} /> : <IconZoomIn size={18} />}
            testId="toggle-zoom"
          />
        )}
        <Menu position="bottom-end" withinPortal closeOnItemClick={false}>
          <Menu.Target>
            <HoverTip label={M.settings}>
              <ActionIcon variant="default" size="lg" aria-label={M.settings} data-testid="display-settings">
                <IconSettings size={18} />
              </ActionIcon>
            </HoverTip>
          </Menu.Target>
          <Menu.Dropdown p="sm">
            <Stack gap="sm">
              <Radio.Group
                value={listMode}
                onChange={(v) => setListMode(v as ListMode)}
                label={
                  <Text size="sm" fw={500}>
                    {M.listMode}
                  </Text>
                }
              >
                <Group gap="md" mt={6}>
                  <Radio value="waterfall" label={M.waterfall} size="xs" data-testid="mode-waterfall" />
                  <Radio value="pagination" label={M.pagination} size="xs" data-testid="mode-pagination" />
                </Group>
              </Radio.Group>
              <Checkbox size="xs" label={M.showRecent} checked={showRecent} onChange={(e) => setShowRecent(e.currentTarget.checked)} data-testid="show-recent" />
              <Checkbox size="xs" label={M.oldCard} checked={oldCardUi} onChange={(e) => setOldCardUi(e.currentTarget.checked)} data-testid="old-card" />
            </Stack>
          </Menu.Dropdown>
        </Menu>
      </Group>
    </Group>
  );
});
