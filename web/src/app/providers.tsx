import type { ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '../api/query-client.js';
import { prefsColorSchemeManager } from '../lib/color-scheme.js';
import { styleNonce } from '../lib/csp-nonce.js';
import { cssVariablesResolver, theme } from './theme.js';
import { LocaleRoot } from '../i18n/LocaleRoot.js';

const colorSchemeManager = prefsColorSchemeManager();

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} colorSchemeManager={colorSchemeManager} defaultColorScheme="auto" getStyleNonce={styleNonce}>
        <Notifications position="top-center" limit={4} zIndex={1000} />
        <ModalsProvider>
          <LocaleRoot>{children}</LocaleRoot>
        </ModalsProvider>
      </MantineProvider>
    </QueryClientProvider>
  );
}
