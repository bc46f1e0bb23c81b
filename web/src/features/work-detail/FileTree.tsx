/**
 * The work's file tree: breadcrumbs, an up entry, then the folder's folders, audio, text,
 * image and other files. A click opens a folder, plays the folder's audio from that file, previews an
 * image or opens a text / other file; each item's menu adds to the queue, plays next, downloads or
 * asks for an AI translation; each item shows its AI lyric status.
 */
import { memo } from 'react';
import { ActionIcon, Anchor, Badge, Breadcrumbs, Group, Menu, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import {
  IconCornerLeftUp,
  IconDots,
  IconDownload,
  IconFile,
  IconFileText,
  IconFileZip,
  IconFolder,
  IconLanguage,
  IconMusic,
  IconPhoto,
  IconPlayerPlay,
  IconPlaylistAdd,
  IconVideo,
} from '@tabler/icons-react';
import type { AiStatusName } from '../../../../server/domain/ai-status.js';
import { isVideo } from '../../../../server/domain/file-kinds.js';
import type { FileNode, FolderNode, TrackNode } from '../../../../server/contract/tracks.js';
import { downloadUrl, withToken } from '../../api/urls.js';
import { formatDuration } from '../../i18n/format.js';
import { t } from '../../i18n/index.js';
import { isFolder } from './tree.js';

const T = t.library.tree;

const STATUS_COLOR: Record<AiStatusName, string> = { none: 'gray', pending: 'yellow', transcribing: 'blue', success: 'grape', error: 'red' };

export function AiStatusBadge({ status }: { status: AiStatusName }) {
  if (status === 'none') return null;
  return (
    <Badge size="xs" color={STATUS_COLOR[status]} variant="light" radius="sm" data-testid="ai-status" data-status={status} style={{ flexShrink: 0 }}>
      {T.status[status]}
    </Badge>
  );
}

function NodeIcon({ node }: { node: TrackNode }) {
  const props = { size: 20, stroke: 1.6, style: { flexShrink: 0 } } as const;
  switch (node.type) {
    case 'folder':
      return <IconFolder {...props} color="var(--mantine-color-yellow-6)" />;
    case 'audio':
      return isVideo(node.title) ? <IconVideo {...props} color="var(--mantine-color-violet-6)" /> : <IconMusic {...props} color="var(--mantine-color-violet-6)" />;
    case 'image':
      return <IconPhoto {...props} color="var(--mantine-color-teal-6)" />;
    case 'text':
      return <IconFileText {...props} color="var(--mantine-color-blue-6)" />;
    default:
      return <IconFile {...props} color="var(--mantine-color-gray-6)" />;
  }
}

export interface TreeActions {
  open(node: TrackNode): void;
  addToQueue(node: TrackNode): void;
  playNext(node: TrackNode): void;
  translate(node: FileNode): void;
  /** The zip download of a folder of the tree. */
  folderZipUrl(folder: FolderNode): string;
}

interface RowProps {
  node: TrackNode;
  status: AiStatusName;
  playing: boolean;
  actions: TreeActions;
  canTranslate: boolean;
}

const TreeRow = memo(function TreeRow({ node, status, playing, actions, canTranslate }: RowProps) {
  const file = isFolder(node) ? null : node;
  const playable = node.type === 'audio' || node.type === 'folder';
  return (
    <Group
      gap="xs"
      wrap="nowrap"
      px="xs"
      py={6}
      style={{ borderRadius: 'var(--mantine-radius-sm)', background: playing ? 'var(--mantine-primary-color-light)' : undefined }}
      data-testid="tree-item"
      data-type={node.type}
      data-title={node.title}
      data-playing={playing || undefined}
    >
      <UnstyledButton onClick={() => actions.open(node)} style={{ flex: 1, minWidth: 0 }} aria-label={node.title}>
        <Group gap="sm" wrap="nowrap">
          <NodeIcon node={node} />
          <Text size="sm" style={{ overflowWrap: 'anywhere', minWidth: 0 }} fw={playing ? 600 : undefined} c={playing ? 'var(--mantine-primary-color-light-color)' : undefined}>
            {node.title}
          </Text>
        </Group>
      </UnstyledButton>
      <AiStatusBadge status={status} />
      {file?.duration !== undefined && (
        <Text size="xs" c="dimmed" style={{ flexShrink: 0, fontVariantNumeric: 'tabular-nums' }}>
          {formatDuration(file.duration)}
        </Text>
      )}
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={T.menu(node.title)} data-testid="tree-item-menu">
            <IconDots size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {playable && (
            <>
              <Menu.Item leftSection={<IconPlaylistAdd size={16} />} onClick={() => actions.addToQueue(node)}>
                {T.addToQueue}
              </Menu.Item>
              <Menu.Item leftSection={<IconPlayerPlay size={16} />} onClick={() => actions.playNext(node)}>
                {T.playNext}
              </Menu.Item>
            </>
          )}
          {isFolder(node) && (
            <Menu.Item leftSection={<IconFileZip size={16} />} component="a" href={actions.folderZipUrl(node)} data-testid="tree-folder-zip">
              {T.downloadFolder}
            </Menu.Item>
          )}
          {file && (
            <Menu.Item leftSection={<IconDownload size={16} />} component="a" href={file.mediaDownloadUrl ? withToken(file.mediaDownloadUrl) : downloadUrl(file.hash)} download={file.title}>
              {T.download}
            </Menu.Item>
          )}
          {file?.type === 'audio' && canTranslate && (
            <Menu.Item leftSection={<IconLanguage size={16} />} onClick={() => actions.translate(file)} data-testid="tree-translate">
              {T.aiTranslate}
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
});

interface FileTreeProps {
  path: string[];
  nodes: TrackNode[];
  statusOf(node: TrackNode): AiStatusName;
  playingHash: string | undefined;
  canTranslate: boolean;
  actions: TreeActions;
  onPath(path: string[]): void;
}

export function FileTree({ path, nodes, statusOf, playingHash, canTranslate, actions, onPath }: FileTreeProps) {
  const crumbs = [T.root, ...path];
  return (
    <Paper withBorder radius="md" p="xs" data-testid="file-tree">
      <Stack gap={4}>
        <Breadcrumbs separatorMargin={4} px="xs" py={4} styles={{ root: { flexWrap: 'wrap' } }} data-testid="tree-breadcrumbs">
          {crumbs.map((crumb, i) =>
            i === crumbs.length - 1 ? (
              <Text key={i} size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                {crumb}
              </Text>
            ) : (
              <Anchor key={i} component="button" type="button" size="sm" onClick={() => onPath(path.slice(0, i))}>
                {crumb}
              </Anchor>
            ),
          )}
        </Breadcrumbs>
        {path.length > 0 && (
          <UnstyledButton onClick={() => onPath(path.slice(0, -1))} px="xs" py={6} data-testid="tree-up" style={{ borderRadius: 'var(--mantine-radius-sm)' }}>
            <Group gap="sm" wrap="nowrap">
              <IconCornerLeftUp size={20} stroke={1.6} />
              <Text size="sm">{T.up}</Text>
            </Group>
          </UnstyledButton>
        )}
        {nodes.length === 0 ? (
          <Text size="sm" c="dimmed" px="xs" py="sm">
            {T.empty}
          </Text>
        ) : (
          nodes.map((node) => (
            <TreeRow
              key={isFolder(node) ? `d:${node.title}` : node.hash}
              node={node}
              status={statusOf(node)}
              playing={!isFolder(node) && node.hash === playingHash}
              actions={actions}
              canTranslate={canTranslate}
            />
          ))
        )}
      </Stack>
    </Paper>
  );
}
