import { Center, Loader } from '@mantine/core';
import { t } from '../i18n/index.js';

/** Shown while a route's code or the session loads. */
export function PageLoader() {
  return (
    <Center py={80} aria-label={t.app.loading} role="status">
      <Loader type="dots" />
    </Center>
  );
}
