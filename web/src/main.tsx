import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { Providers } from './app/providers.js';
import { router } from './app/router.js';
import { localeReady } from './i18n/index.js';

// a page that starts in English or Japanese first loads that catalogue (i18n/index.ts)
void localeReady.then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  ),
);

// the installable app: service worker and release notices (loaded after the first render)
void import('./lib/pwa.js').then((m) => m.registerServiceWorker());
