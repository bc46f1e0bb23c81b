/**
 * The image preview: the folder's images one at a time, previous/next wrapping around
 * (buttons and arrow keys), close, and — while something is playing — "use as visual cover", which
 * stores the image as this work's cover for the player (the `visualCovers` preference).
 */
import { useEffect } from 'react';
import { ActionIcon, Box, Button, Group, Modal, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconChevronLeft, IconChevronRight, IconPhotoStar, IconX } from '@tabler/icons-react';
import { HoverTip } from '../../components/HoverTip.js';
import type { FileNode } from '../../../../server/contract/tracks.js';
import { streamUrl, withToken } from '../../api/urls.js';
import { t } from '../../i18n/index.js';
import { notifySuccess } from '../../lib/notify.js';
import { getPref, setPref } from '../../lib/prefs.js';
import { usePlayer } from '../player/store.js';
import { wrapIndex } from './tree.js';

const I = t.library.image;

interface ImagePreviewProps {
  workId: number;
  images: FileNode[];
  index: number | null;
  onIndex(index: number | null): void;
}

export function ImagePreview({ workId, images, index, onIndex }: ImagePreviewProps) {
  const phone = useMediaQuery('(max-width: 48em)');
  const playing = usePlayer((s) => s.queue.length > 0);
  const open = index !== null && images.length > 0;
  const current = open ? images[Math.min(index, images.length - 1)] : null;
  const step = (delta: number) => index !== null && onIndex(wrapIndex(index, delta, images.length));

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'ArrowLeft') step(-1);
      if (e.key === 'ArrowRight') step(1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const useAsCover = () => {
    if (!current) return;
    setPref('visualCovers', { ...getPref('visualCovers'), [String(workId)]: current.hash });
    notifySuccess(I.coverSet);
  };

  return (
    <Modal
      opened={open}
      onClose={() => onIndex(null)}
      fullScreen={phone}
      size="xl"
      centered
      withCloseButton={false}
      padding={0}
      aria-label={current?.title}
      styles={{ body: { height: phone ? '100%' : undefined, display: 'flex', flexDirection: 'column' } }}
    >
      {current && index !== null && (
        <>
          <Group justify="space-between" px="sm" py={6} wrap="nowrap" gap="xs">
            <Text size="sm" lineClamp={1} title={current.title} style={{ minWidth: 0 }}>
              {I.title(index + 1, images.length)} · {current.title}
            </Text>
            <Group gap={4} wrap="nowrap">
              {playing && (
                <Button size="compact-sm" variant="light" leftSection={<IconPhotoStar size={16} />} onClick={useAsCover} data-testid="use-as-cover">
                  {I.useAsCover}
                </Button>
              )}
              <HoverTip label={I.close}>
                <ActionIcon variant="subtle" color="gray" onClick={() => onIndex(null)} aria-label={I.close}>
                  <IconX size={18} />
                </ActionIcon>
              </HoverTip>
            </Group>
          </Group>
          <Box pos="relative" style={{ flex: 1, minHeight: phone ? 0 : '60vh', background: 'var(--mantine-color-dark-8)', display: 'grid', placeItems: 'center' }}>
            <img
              key={current.hash}
              src={withToken(current.mediaStreamUrl || streamUrl(current.hash))}
              alt={current.title}
              style={{ maxWidth: '100%', maxHeight: phone ? 'calc(100dvh - 48px)' : '75vh', objectFit: 'contain', display: 'block' }}
              data-testid="preview-image"
            />
            {images.length > 1 && (
              <>
                <ActionIcon pos="absolute" left={8} top="50%" style={{ transform: 'translateY(-50%)' }} size="xl" radius="xl" variant="default" onClick={() => step(-1)} aria-label={I.prev}>
                  <IconChevronLeft />
                </ActionIcon>
                <ActionIcon pos="absolute" right={8} top="50%" style={{ transform: 'translateY(-50%)' }} size="xl" radius="xl" variant="default" onClick={() => step(1)} aria-label={I.next}>
                  <IconChevronRight />
                </ActionIcon>
              </>
            )}
          </Box>
        </>
      )}
    </Modal>
  );
}
