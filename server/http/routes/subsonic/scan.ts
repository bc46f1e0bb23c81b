import { subsonicMethod, type SubsonicModule } from './router.js';

const ADMIN_ONLY = 'Only an administrator may scan the library';

/** getScanStatus / startScan (admins): the library scan of the web app's dashboard. */
export const subsonicScan: SubsonicModule = (router, { scan, subsonic }) => {
  const status = async () => {
    const state = await scan.snapshot();
    const scanning = state.status === 'running';
    return { scanStatus: { scanning, count: scanning ? state.progress.done : await subsonic.albumCount() } };
  };

  subsonicMethod(router, 'getScanStatus', { summary: 'Subsonic: whether a scan runs', admin: ADMIN_ONLY }, status);

  subsonicMethod(router, 'startScan', { summary: 'Subsonic: start a library scan', admin: ADMIN_ONLY }, async ({ actor }) => {
    if (!(await scan.isRunning())) {
      const started = await scan.start(actor, { kind: 'scan' });
      // the run goes on in the background; its end is not this request's
      started.done.catch(() => undefined);
    }
    return status();
  });
};
