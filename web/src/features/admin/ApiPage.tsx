/**
 * /admin/api: the server's API reference (GET /api/openapi.json, built from its route table) grouped by
 * area: method, path, who may call it, and the parameters and body fields with their types and limits.
 */
import { useMemo, useState } from 'react';
import { Alert, Badge, Button, Code, Group, Paper, Skeleton, Stack, Table, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconDownload, IconSearch } from '@tabler/icons-react';
import { t } from '../../i18n/index.js';
import { API_REFERENCE_KEY, fetchApiReference } from './api.js';
import { apiAreas, filterAreas, type Endpoint, type FieldRow, type OpenApiDocument } from './api-reference.js';

const p = t.dashboard.api;

const METHOD_COLORS: Record<string, string> = { GET: 'blue', POST: 'green', PUT: 'orange', PATCH: 'grape', DELETE: 'red' };
const ACCESS_COLORS: Record<string, string> = { public: 'gray', login: 'blue', admin: 'red', worker: 'violet' };

const NOWRAP = { whiteSpace: 'nowrap' } as const;

const size = (bytes: number) => (bytes >= 1024 * 1024 ? `${+(bytes / 1024 / 1024).toFixed(1)} MB` : `${+(bytes / 1024).toFixed(1)} KB`);

function FieldTable({ fields }: { fields: FieldRow[] }) {
  if (fields.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {p.noFields}
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped withTableBorder verticalSpacing={4} fz="sm" data-testid="api-fields">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{p.name}</Table.Th>
            <Table.Th style={NOWRAP}>{p.in}</Table.Th>
            <Table.Th style={NOWRAP}>{p.type}</Table.Th>
            <Table.Th style={NOWRAP}>{p.required}</Table.Th>
            <Table.Th>{p.constraints}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {fields.map((f) => (
            <Table.Tr key={`${f.in}:${f.name}`}>
              <Table.Td>
                <Code>{f.name}</Code>
              </Table.Td>
              <Table.Td style={NOWRAP}>{p.where[f.in] ?? f.in}</Table.Td>
              <Table.Td>
                <Code>{f.type}</Code>
              </Table.Td>
              <Table.Td style={NOWRAP}>{f.required ? p.required : p.optional}</Table.Td>
              <Table.Td>
                <Stack gap={2}>
                  {f.description && <Text size="sm">{f.description}</Text>}
                  {f.constraints.map((c) => (
                    <Text key={c} size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                      {c}
                    </Text>
                  ))}
                </Stack>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function EndpointCard({ endpoint }: { endpoint: Endpoint }) {
  return (
    <Paper withBorder radius="md" p="sm" data-testid="api-endpoint" data-method={endpoint.method} data-path={endpoint.path} data-access={endpoint.access}>
      <Stack gap="xs">
        <Group gap="xs" wrap="wrap">
          <Badge color={METHOD_COLORS[endpoint.method] ?? 'gray'} variant="filled" radius="sm" w={72} ff="monospace">
            {endpoint.method}
          </Badge>
          <Code fz="sm" style={{ wordBreak: 'break-all' }}>
            {endpoint.path}
          </Code>
          <Tooltip label={p.accessHint[endpoint.access] ?? endpoint.access} withArrow>
            <Badge color={ACCESS_COLORS[endpoint.access] ?? 'gray'} variant="light" data-testid="api-access">
              {p.access[endpoint.access] ?? endpoint.access}
            </Badge>
          </Tooltip>
          {endpoint.queryToken && (
            <Tooltip label={p.queryTokenHint} withArrow multiline w={280}>
              <Badge color="teal" variant="outline">
                {p.queryToken}
              </Badge>
            </Tooltip>
          )}
        </Group>
        <Text size="sm">{endpoint.summary}</Text>
        {endpoint.bodyLimit !== undefined && (
          <Text size="xs" c="dimmed">
            {[p.bodyLimit(size(endpoint.bodyLimit)), endpoint.formBody ? p.formBody : null, endpoint.fields.some((f) => f.in === 'body') && !endpoint.bodyRequired ? p.bodyOptional : null]
              .filter(Boolean)
              .join(' · ')}
          </Text>
        )}
        <FieldTable fields={endpoint.fields} />
      </Stack>
    </Paper>
  );
}

function download(doc: OpenApiDocument) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(doc, null, 2)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'kikoplay-openapi.json';
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function ApiPage() {
  const query = useQuery({ queryKey: API_REFERENCE_KEY, queryFn: ({ signal }) => fetchApiReference(signal), staleTime: Infinity });
  const [filter, setFilter] = useState('');
  const areas = useMemo(() => (query.data ? apiAreas(query.data, p.limits) : []), [query.data]);
  const shown = useMemo(() => filterAreas(areas, filter), [areas, filter]);
  const count = shown.reduce((n, area) => n + area.endpoints.length, 0);

  return (
    <Stack gap="lg" maw={1000} mx="auto" w="100%">
      <Title order={2} size="h3">
        {p.title}
      </Title>
      {query.data && (
        <Text size="sm" c="dimmed">
          {p.intro(query.data.info.version)}
        </Text>
      )}
      {query.isError && <Alert color="red">{query.error.message}</Alert>}
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label={p.filter}
          placeholder={p.filterPlaceholder}
          leftSection={<IconSearch size={16} />}
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
          style={{ flex: '1 1 260px' }}
          spellCheck={false}
          autoCapitalize="none"
          data-testid="api-filter"
        />
        <Button variant="default" leftSection={<IconDownload size={16} />} disabled={!query.data} onClick={() => query.data && download(query.data)}>
          {p.download}
        </Button>
      </Group>
      {!query.data && !query.isError && <Skeleton h={240} radius="md" />}
      {query.data && (
        <Text size="sm" c="dimmed" data-testid="api-count">
          {count > 0 ? p.count(count) : p.empty}
        </Text>
      )}
      {shown.map((area) => (
        <Stack key={area.name} gap="xs" data-testid="api-area" data-area={area.name}>
          <Title order={3} size="h5">
            {p.areas[area.name] ?? area.name}
          </Title>
          {area.endpoints.map((endpoint) => (
            <EndpointCard key={`${endpoint.method} ${endpoint.path}`} endpoint={endpoint} />
          ))}
        </Stack>
      ))}
    </Stack>
  );
}
