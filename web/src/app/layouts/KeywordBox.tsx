/**
 * The header's keyword box: debounced 500 ms, it navigates to /works?keyword=…; while the
 * user stays on /works the box follows the URL (back/forward, links).
 */
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { CloseButton, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { t } from '../../i18n/index.js';

export const KEYWORD_DEBOUNCE_MS = 500;

export function KeywordBox() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const onWorks = pathname === '/works';
  const urlKeyword = onWorks ? (params.get('keyword') ?? '') : null;
  const [value, setValue] = useState(urlKeyword ?? '');
  const sent = useRef(urlKeyword ?? '');

  useEffect(() => {
    if (urlKeyword !== null && urlKeyword !== sent.current) {
      sent.current = urlKeyword;
      setValue(urlKeyword);
    }
  }, [urlKeyword]);

  const go = useDebouncedCallback((text: string) => {
    const keyword = text.trim();
    if (keyword === (urlKeyword ?? '') && onWorks) return;
    if (!keyword && !onWorks) return; // clearing the box elsewhere does not leave the page
    sent.current = keyword;
    // successive pauses while typing replace one history entry instead of stacking many
    const replace = onWorks && (urlKeyword ?? '') !== '';
    void navigate(keyword ? `/works?keyword=${encodeURIComponent(keyword)}` : '/works', { replace });
  }, KEYWORD_DEBOUNCE_MS);

  const change = (text: string) => {
    setValue(text);
    go(text);
  };

  return (
    <TextInput
      value={value}
      onChange={(e) => change(e.currentTarget.value)}
      placeholder={t.header.keywordPlaceholder}
      aria-label={t.header.keywordPlaceholder}
      type="search"
      enterKeyHint="search"
      onKeyDown={(e) => {
        if (e.key === 'Enter') go.flush();
      }}
      leftSection={<IconSearch size={16} aria-hidden />}
      rightSection={value ? <CloseButton size="sm" aria-label={t.header.clearKeyword} onClick={() => change('')} /> : null}
      radius="xl"
      w="100%"
      maw={320}
      style={{ flex: 1, minWidth: 0 }}
      data-testid="keyword-box"
    />
  );
}
