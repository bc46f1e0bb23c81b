export const ROLES = ['admin', 'user', 'guest'] as const;
export type Role = (typeof ROLES)[number];

/** The `group` value old kikoeru clients read: the admin is `administrator`. */
export const groupOfRole = (role: Role): string => (role === 'admin' ? 'administrator' : role);

export interface Actor {
  id: number;
  name: string;
  role: Role;
}

export const isAdmin = (actor: Actor | null | undefined): boolean => actor?.role === 'admin';
/** Users and admins write their own data; guests only read and play. */
export const canWrite = (actor: Actor | null | undefined): boolean => actor?.role === 'admin' || actor?.role === 'user';
