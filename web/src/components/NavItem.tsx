import { Link } from 'react-router';
import { NavLink } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import { HoverTip } from './HoverTip.js';
import { t } from '../i18n/index.js';

interface NavItemProps {
  icon: Icon;
  label: string;
  /** Second line under the label (the user name under logout). */
  description?: string;
  to?: string;
  onClick?: () => void;
  active?: boolean;
  /** Icon only, the label in a tooltip (the mini drawer). */
  mini?: boolean;
  testId?: string;
}

/** One drawer entry: a router link, or a button when `to` is absent. */
export function NavItem({ icon: Icon, label, description, to, onClick, active = false, mini = false, testId }: NavItemProps) {
  const common = {
    label: mini ? undefined : label,
    description: mini ? undefined : description,
    leftSection: <Icon size={22} stroke={1.6} aria-hidden />,
    active,
    variant: 'light' as const,
    'aria-label': mini ? label : undefined,
    'data-testid': testId,
    onClick,
    styles: mini
      ? { root: { justifyContent: 'center', paddingInline: 0, borderRadius: 'var(--mantine-radius-md)' }, section: { marginInlineEnd: 0 }, body: { display: 'none' } }
      : { root: { borderRadius: 'var(--mantine-radius-md)' }, label: { fontSize: 'var(--mantine-font-size-md)' } },
  };
  const item = to ? <NavLink component={Link} to={to} aria-current={active ? 'page' : undefined} {...common} /> : <NavLink component="button" type="button" {...common} />;
  if (!mini) return item;
  const tip = description ? t.punctuation.aside(label, description) : label;
  return (
    <HoverTip label={tip} position="right" withArrow openDelay={150}>
      {item}
    </HoverTip>
  );
}
