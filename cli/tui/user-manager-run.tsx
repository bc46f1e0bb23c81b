/** Open the Ink user manager over UsersService (acting as the terminal's admin) until the user quits. */
import React from 'react';
import { render } from 'ink';
import type { Actor } from '../../server/auth/roles.js';
import type { UsersService } from '../../server/services/users-service.js';
import { UserManager, type UserManagerApi } from './user-manager.js';

/** The manager's API: the same UsersService calls (and rules) as the web's user management. */
export function usersApi(users: UsersService, actor: Actor): UserManagerApi {
  return {
    list: () => users.list(actor),
    create: (input) => users.create(actor, input),
    changePassword: (name, newPassword) => users.changePassword(actor, { name, newPassword }),
    setRole: (name, role) => users.setRole(actor, name, role),
    remove: async (name) => {
      await users.delete(actor, [name]);
    },
  };
}

export async function runUserManager(users: UsersService, actor: Actor): Promise<void> {
  const instance = render(<UserManager api={usersApi(users, actor)} width={process.stdout.columns || 80} onExit={() => instance.unmount()} />);
  await instance.waitUntilExit();
}
