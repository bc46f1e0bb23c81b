/**
 * The routes. Every screen is its own chunk (route `lazy`). Screens not built yet are
 * deliberately absent: their paths fall to the not-found page until they exist.
 */
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { setUnauthorizedHandler } from '../api/errors.js';
import { clearToken } from '../api/token.js';
import { PageLoader } from '../components/PageLoader.js';
import { RouteError } from '../components/RouteError.js';
import { LOGIN_PATH, loginPathFor } from '../features/auth/redirect.js';
import { withChunkTimeout } from '../lib/pwa-chunks.js';
import { prefetchSession, prefetchWorks } from '../features/works/prefetch.js';

const notFound = async () => ({ Component: (await import('../components/NotFoundPage.js')).NotFoundPage });

export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    hydrateFallbackElement: <PageLoader />,
    children: [
      { path: LOGIN_PATH, lazy: async () => ({ Component: (await import('../features/auth/LoginPage.js')).LoginPage }) },
      {
        path: '/admin',
        lazy: async () => ({ Component: (await import('./layouts/AdminLayout.js')).AdminLayout }),
        children: [
          { index: true, lazy: async () => ({ Component: (await import('../features/admin/FoldersPage.js')).FoldersPage }) },
          { path: 'scanner', lazy: async () => ({ Component: (await import('../features/admin/ScannerPage.js')).ScannerPage }) },
          { path: 'usermanage', lazy: async () => ({ Component: (await import('../features/admin/UsersPage.js')).UsersPage }) },
          { path: 'advanced', lazy: async () => ({ Component: (await import('../features/admin/AdvancedPage.js')).AdvancedPage }) },
          { path: 'api', lazy: async () => ({ Component: (await import('../features/admin/ApiPage.js')).ApiPage }) },
          // folder organising was never built: its old address shows the ratings
          { path: 'favourites/folder', element: <Navigate to="/favourites" replace /> },
          { path: '*', lazy: notFound },
        ],
      },
      {
        path: '/',
        // the session and the first works are requested while the screens' code downloads
        loader: prefetchSession,
        lazy: async () => ({ Component: (await import('./layouts/MainLayout.js')).MainLayout }),
        children: [
          { index: true, element: <Navigate to="/works" replace /> },
          { path: 'account', lazy: async () => ({ Component: (await import('../features/account/AccountPage.js')).AccountPage }) },
          { path: 'about', lazy: async () => ({ Component: (await import('../features/about/AboutPage.js')).AboutPage }) },
          { path: 'ai_lyric', lazy: async () => ({ Component: (await import('../features/ai-lyrics/AiLyricPage.js')).AiLyricPage }) },
          // the full-screen player; the work id is optional
          { path: 'fullScreenPlayer/:workId?', lazy: async () => ({ Component: (await import('../features/fullscreen-player/FullScreenPlayerPage.js')).FullScreenPlayerPage }) },
          // the library screens
          { path: 'works', loader: prefetchWorks, lazy: async () => ({ Component: (await import('../features/works/WorksPage.js')).WorksPage }) },
          { path: 'search', loader: prefetchWorks, lazy: async () => ({ Component: (await import('../features/works/WorksPage.js')).WorksPage }) },
          { path: 'work/:id', lazy: async () => ({ Component: (await import('../features/work-detail/WorkDetailPage.js')).WorkDetailPage }) },
          { path: 'circles', lazy: async () => ({ Component: (await import('../features/labels/LabelsPage.js')).CirclesPage }) },
          { path: 'tags', lazy: async () => ({ Component: (await import('../features/labels/LabelsPage.js')).TagsPage }) },
          { path: 'vas', lazy: async () => ({ Component: (await import('../features/labels/LabelsPage.js')).VasPage }) },
          ...['favourites', 'favourites/review', 'favourites/progress', 'favourites/progress/:state', 'favourites/histroy'].map((path): RouteObject => ({
            path,
            lazy: async () => ({ Component: (await import('../features/favourites/FavouritesPage.js')).FavouritesPage }),
          })),
          // folder organising was never built: its old address shows the ratings
          { path: 'favourites/folder', element: <Navigate to="/favourites" replace /> },
          { path: '*', lazy: notFound },
        ],
      },
    ],
  },
];

// every route chunk loads under the 120 s limit
export const router = createBrowserRouter(withChunkTimeout(routes));

// A 401 anywhere: the stored token is no good; log in again and come back here afterwards.
setUnauthorizedHandler(() => {
  clearToken();
  const { pathname, search, hash } = router.state.location;
  if (pathname === LOGIN_PATH) return;
  void router.navigate(loginPathFor(pathname + search + hash), { replace: true });
});
