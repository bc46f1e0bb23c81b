/**
 * A work's cover (`/api/cover/:id?type=…&token=`), lazy-loaded and picked for the size it is shown at:
 * `sam` (100 px) for tiny thumbnails, `240x240` for list items and strips, `main` (~560 px) for the
 * work page; cards offer `200x150`, `280x210` and `main` and the browser takes the smallest that
 * their width and the screen's pixel density need (`sizes`: the card's width). The box keeps its
 * aspect ratio while the image loads, so nothing jumps. Plain elements (no Mantine box): long lists
 * draw many of these.
 */
import { useState, type CSSProperties, type ReactNode } from 'react';
import { IconPhotoOff } from '@tabler/icons-react';
import { coverUrl, type CoverType } from '../../api/urls.js';

export type CoverSize = 'tiny' | 'thumb' | 'card' | 'large';

const TYPE: Record<CoverSize, CoverType> = { tiny: 'sam', thumb: '240x240', card: 'main', large: 'main' };
/** DLsite main covers are 4:3; the small ones are square crops. */
const RATIO: Record<CoverSize, number> = { tiny: 1, thumb: 1, card: 4 / 3, large: 4 / 3 };
const INTRINSIC: Record<CoverSize, [number, number]> = { tiny: [100, 100], thumb: [240, 240], card: [560, 420], large: [560, 420] };

interface CoverProps {
  workId: number;
  alt: string;
  size: CoverSize;
  /** Load at once (the first screen, the work page) instead of when scrolled near. */
  eager?: boolean;
  radius?: string | number;
  /** How wide the cover is shown (an `<img sizes>` value), for the `card` size. */
  sizes?: string;
  /** Overlays (chips) drawn over the image. */
  children?: ReactNode;
  style?: CSSProperties;
  className?: string;
}

export function Cover({ workId, alt, size, eager = false, radius = 0, sizes, children, style, className }: CoverProps) {
  const [failed, setFailed] = useState(false);
  const [w, h] = INTRINSIC[size];
  return (
    <div
      className={className}
      style={{
        position: 'relative',
        aspectRatio: String(RATIO[size]),
        overflow: 'hidden',
        borderRadius: radius,
        background: 'var(--mantine-color-default-hover)',
        ...style,
      }}
      data-testid="cover"
    >
      {failed ? (
        <div style={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center', color: 'var(--mantine-color-dimmed)' }}>
          <IconPhotoOff size={size === 'tiny' ? 18 : 32} stroke={1.4} aria-label={alt} />
        </div>
      ) : (
        <img
          src={coverUrl(workId, TYPE[size])}
          srcSet={size === 'card' ? `${coverUrl(workId, '200x150')} 200w, ${coverUrl(workId, '280x210')} 280w, ${coverUrl(workId, 'main')} 560w` : undefined}
          sizes={size === 'card' ? (sizes ?? '(min-width: 48em) 25vw, 50vw') : undefined}
          alt={alt}
          width={w}
          height={h}
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
          onError={() => setFailed(true)}
          style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
        />
      )}
      {children}
    </div>
  );
}
