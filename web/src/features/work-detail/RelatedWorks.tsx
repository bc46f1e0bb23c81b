/** Related works: the other editions of the product in the library, shown when there are two or more. */
import { Link } from 'react-router';
import { Badge, Group, Text } from '@mantine/core';
import type { RelatedWork } from '../../../../server/contract/works.js';
import { formatWorkCode } from '../../../../server/domain/work-code.js';
import { t } from '../../i18n/index.js';

export function RelatedWorks({ workId, related }: { workId: number; related: RelatedWork[] }) {
  if (related.length <= 1) return null;
  return (
    <Group gap="xs" data-testid="related-works">
      <Text size="sm" fw={600}>
        {t.library.detail.related}
      </Text>
      {related.map((r) => (
        <Badge
          key={r.id}
          component={Link}
          to={`/work/${r.id}`}
          variant={r.id === workId ? 'filled' : 'light'}
          size="lg"
          radius="sm"
          tt="none"
          style={{ cursor: 'pointer' }}
          title={formatWorkCode(r.id)}
        >
          {r.name || formatWorkCode(r.id)}
        </Badge>
      ))}
    </Group>
  );
}
