/** The drawer links of the main layout and of the admin layout. */
import {
  IconAdjustments,
  IconApi,
  IconFolder,
  IconHeart,
  IconHome,
  IconInfoCircle,
  IconLanguage,
  IconLayoutGrid,
  IconMicrophone,
  IconScan,
  IconSettings,
  IconTags,
  IconUser,
  IconUsersGroup,
  type Icon,
} from '@tabler/icons-react';
import { t } from '../../i18n/index.js';

export interface NavEntry {
  to: string;
  label: string;
  icon: Icon;
  /** Shown only to admins. */
  adminOnly?: boolean;
  /** Whether the entry is the current place. */
  isActive(pathname: string): boolean;
}

const under = (prefix: string) => (p: string) => p === prefix || p.startsWith(`${prefix}/`);
const exactly = (path: string) => (p: string) => p === path || p === `${path}/`;

/** Built at each render: the labels are read in the active language. */
export const mainNav = (): NavEntry[] => [
  { to: '/works', label: t.nav.works, icon: IconLayoutGrid, isActive: (p) => p === '/' || under('/works')(p) || under('/work')(p) || under('/search')(p) },
  { to: '/favourites', label: t.nav.favourites, icon: IconHeart, isActive: under('/favourites') },
  { to: '/circles', label: t.nav.circles, icon: IconUsersGroup, isActive: under('/circles') },
  { to: '/tags', label: t.nav.tags, icon: IconTags, isActive: under('/tags') },
  { to: '/vas', label: t.nav.vas, icon: IconMicrophone, isActive: under('/vas') },
  { to: '/ai_lyric', label: t.nav.aiLyric, icon: IconLanguage, isActive: under('/ai_lyric') },
  { to: '/admin', label: t.nav.admin, icon: IconSettings, adminOnly: true, isActive: under('/admin') },
  { to: '/about', label: t.nav.about, icon: IconInfoCircle, isActive: under('/about') },
];

export const adminNav = (): NavEntry[] => [
  { to: '/admin', label: t.admin.folders, icon: IconFolder, isActive: exactly('/admin') },
  { to: '/admin/scanner', label: t.admin.scanner, icon: IconScan, isActive: under('/admin/scanner') },
  { to: '/admin/usermanage', label: t.admin.users, icon: IconUser, isActive: under('/admin/usermanage') },
  { to: '/admin/advanced', label: t.admin.advanced, icon: IconAdjustments, isActive: under('/admin/advanced') },
  { to: '/admin/api', label: t.admin.api, icon: IconApi, isActive: under('/admin/api') },
  { to: '/', label: t.admin.backHome, icon: IconHome, isActive: () => false },
];
