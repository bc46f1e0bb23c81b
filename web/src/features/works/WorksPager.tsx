/**
 * Numbered pagination: two pages either side of the current one and a jump input
 * whose value is clamped to 1..max.
 */
import { useState } from 'react';
import { Button, Group, NumberInput, Pagination } from '@mantine/core';
import { t } from '../../i18n/index.js';
import { clampJump } from './works-source.js';

/** Pages shown on each side of the current one. */
export const PAGE_SIBLINGS = 2;

interface WorksPagerProps {
  page: number;
  total: number;
  onChange(page: number): void;
}

export function WorksPager({ page, total, onChange }: WorksPagerProps) {
  const [jump, setJump] = useState<string | number>('');
  const go = () => {
    const target = clampJump(jump, total);
    if (target === null) return;
    setJump('');
    if (target !== page) onChange(target);
  };
  return (
    <Group justify="center" gap="sm" py="md" data-testid="works-pager">
      <Pagination value={Math.min(page, total)} onChange={onChange} total={total} siblings={PAGE_SIBLINGS} boundaries={1} size="sm" withEdges />
      <Group gap={6} wrap="nowrap">
        <NumberInput
          value={jump}
          onChange={setJump}
          onKeyDown={(e) => {
            if (e.key === 'Enter') go();
          }}
          placeholder={t.library.works.jump}
          aria-label={t.library.works.jump}
          allowDecimal={false}
          allowNegative={false}
          hideControls
          size="xs"
          w={80}
          data-testid="page-jump"
        />
        <Button size="xs" variant="light" onClick={go}>
          {t.library.works.jumpGo}
        </Button>
      </Group>
    </Group>
  );
}
