/**
 * Issue 17 item 6: `kikoplay serve --no-auth` on an address other than loopback warns loudly that anyone
 * who reaches the port acts as the admin; on 127.0.0.1 it does not. The built command, as users run it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startCliServer } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/app.js';

describe('serve --no-auth', () => {
  let server: ReturnType<typeof startCliServer> | undefined;

  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('warns on all interfaces', async () => {
    server = startCliServer(['--data-dir', tempDir(), 'serve', '--port', '0', '--no-auth']);
    await server.ready;
    expect(server.output().stderr).toContain('WARNING: authentication is OFF');
    expect(server.output().stderr).toContain('ANYONE who can reach this port acts as the ADMIN');
  });

  it('stays quiet on a loopback address', async () => {
    server = startCliServer(['--data-dir', tempDir(), 'serve', '--port', '0', '--host', '127.0.0.1', '--no-auth']);
    await server.ready;
    expect(server.output().stderr).not.toContain('authentication is OFF');
  });
});
