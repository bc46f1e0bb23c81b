/**
 * A light five-star input for the lists (dozens of cards on screen): five plain buttons whose star is
 * drawn by CSS (a mask), no hidden form inputs, tooltips or SVG elements to lay out per card. The work
 * page keeps Mantine's Rating with a tooltip per star.
 */
import { memo, useState } from 'react';
import classes from './stars.module.css';

const SIZES = { xs: 14, sm: 16, md: 20, lg: 24 } as const;

interface StarInputProps {
  value: number;
  onChange(value: number): void;
  /** Accessible name; each star is "<label> <n>". */
  label: string;
  size?: keyof typeof SIZES;
}

export const StarInput = memo(function StarInput({ value, onChange, label, size = 'sm' }: StarInputProps) {
  const [hover, setHover] = useState(0);
  const shown = hover || value;
  return (
    <span role="radiogroup" aria-label={label} className={classes.stars} style={{ ['--star-size' as string]: `${SIZES[size]}px` }} onMouseLeave={() => setHover(0)}>
      {[1, 2, 3, 4, 5].map((n) => (
        <button
          key={n}
          type="button"
          role="radio"
          aria-checked={value === n}
          aria-label={`${label} ${n}`}
          className={classes.star}
          data-on={n <= shown || undefined}
          onMouseEnter={() => setHover(n)}
          onFocus={() => setHover(n)}
          onBlur={() => setHover(0)}
          onClick={() => onChange(n)}
        />
      ))}
    </span>
  );
});
