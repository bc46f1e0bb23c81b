/** The picture shown for a work while it plays: the image the user chose as its visual cover, else its main cover. */
import { coverUrl, streamUrl } from '../../api/urls.js';
import { usePref } from '../../lib/prefs.js';

export function useVisualCover(workId: number | undefined): string | undefined {
  const [covers] = usePref('visualCovers');
  if (workId === undefined) return undefined;
  const chosen = covers[String(workId)];
  return chosen ? streamUrl(chosen) : coverUrl(workId, 'main');
}
