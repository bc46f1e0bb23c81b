/**
 * The main layout: header, drawer (230 px; a mini rail by default on desktop, an overlay
 * on phones) and the main area. The main area needs a session: a 401 from GET /api/auth/me sends the
 * user to /login (through the generic handler), any other failure offers a retry.
 *
 * When a page load opens on the work list, the header's controls, the drawer and the player come just
 * after its first cards (lib/first-screen.ts); the list says itself when its cards are in.
 */
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { AppShell, Drawer } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { isAdminUser } from '../../api/types.js';
import { useSession } from '../../features/auth/use-session.js';
import { t } from '../../i18n/index.js';
import { FirstScreenStage, markFirstScreen, useFirstScreenShown } from '../../lib/first-screen.js';
import { useBootstrap } from '../use-bootstrap.js';
import { PlayerBar, PlayerHost, usePlayerFooter } from '../../features/player/index.js';
import { ShortcutHelpHost } from '../../features/shortcuts/ShortcutHelpHost.js';
import { AppHeader } from './AppHeader.js';
import { DESKTOP_QUERY, DRAWER_WIDTH, HEADER_HEIGHT, MINI_WIDTH } from './layout-sizes.js';
import { MainNav } from './MainNav.js';
import { SessionOutlet } from './SessionOutlet.js';

/** The screens that say themselves when their first content is drawn (the work list). */
const LIST_PATH = /^\/(works|search)?\/?$/;

export function MainLayout() {
  const session = useSession();
  const { pathname } = useLocation();
  const listScreen = LIST_PATH.test(pathname);
  // other screens draw the layout with them, as always
  const header = useFirstScreenShown(FirstScreenStage.header) || !listScreen;
  const navigation = useFirstScreenShown(FirstScreenStage.navigation) || !listScreen;
  const player = useFirstScreenShown(FirstScreenStage.player) || !listScreen;
  useEffect(() => {
    if (session.isError || (session.isSuccess && !listScreen)) markFirstScreen();
  }, [session.isError, session.isSuccess, listScreen]);
  useBootstrap(session.isSuccess && player, isAdminUser(session.data?.user));
  const desktop = useMediaQuery(DESKTOP_QUERY, undefined, { getInitialValueInEffect: false });
  const [expanded, setExpanded] = useState(false);
  const [phoneOpen, setPhoneOpen] = useState(false);
  const footer = usePlayerFooter();

  const toggle = () => (desktop ? setExpanded((v) => !v) : setPhoneOpen((v) => !v));

  return (
    <AppShell
      header={{ height: HEADER_HEIGHT }}
      footer={footer}
      navbar={{ width: expanded ? DRAWER_WIDTH : MINI_WIDTH, breakpoint: 'sm', collapsed: { mobile: true } }}
      padding={{ base: 'sm', sm: 'md' }}
    >
      <AppShell.Header>{header && <AppHeader menuOpen={desktop ? expanded : phoneOpen} onToggleMenu={toggle} />}</AppShell.Header>
      <AppShell.Navbar>{navigation && desktop && <MainNav session={session.data} mini={!expanded} />}</AppShell.Navbar>
      {navigation && (
        <Drawer
          opened={!desktop && phoneOpen}
          onClose={() => setPhoneOpen(false)}
          size={DRAWER_WIDTH}
          withCloseButton={false}
          padding={0}
          // the dialog's name: a title in a header not shown
          title={t.header.menu}
          styles={{ header: { display: 'none' }, body: { height: '100%' } }}
        >
          <MainNav session={session.data} mini={false} onNavigate={() => setPhoneOpen(false)} brand />
        </Drawer>
      )}
      <AppShell.Main>
        <SessionOutlet session={session} />
      </AppShell.Main>
      <AppShell.Footer>{player && <PlayerBar />}</AppShell.Footer>
      {player && <PlayerHost session={session.data} />}
      <ShortcutHelpHost />
    </AppShell>
  );
}
