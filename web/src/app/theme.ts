import { createTheme, type CSSVariablesResolver } from '@mantine/core';
import { t } from '../i18n/index.js';

export const theme = createTheme({
  primaryColor: 'violet',
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", "Noto Sans SC", "WenQuanYi Micro Hei", sans-serif',
  headings: { fontWeight: '600' },
  cursorType: 'pointer',
  components: {
    // a toast's close button is named in the interface language (read at each render: follows a switch)
    Notification: { defaultProps: () => ({ closeButtonProps: { 'aria-label': t.notices.dismiss } }) },
  },
});

/**
 * Colours small text can be read on and in (WCAG AA, 4.5:1). Mantine's default filled shades (6 in
 * light, 8 in dark) of these are too light for the white text of badges, chips and buttons, and so are
 * their outline variants (text in the colour on the page); a few light variants (text in shade 9 on
 * shade 1, in light) are too pale as well.
 */
const COLOURS: Record<string, { fill?: string; hover?: string; lightText?: string }> = {
  teal: { fill: 'var(--mantine-color-teal-9)', hover: '#06694b', lightText: '#06694b' },
  grape: { fill: 'var(--mantine-color-grape-7)', hover: 'var(--mantine-color-grape-8)' },
  red: { fill: 'var(--mantine-color-red-8)', hover: 'var(--mantine-color-red-9)' },
  blue: { fill: 'var(--mantine-color-blue-8)', hover: 'var(--mantine-color-blue-9)', lightText: '#0f4c81' },
  cyan: { fill: 'var(--mantine-color-cyan-9)', hover: '#0a5f6f' },
  green: { fill: '#267d38', hover: '#1f6b2f', lightText: '#1f6b2f' },
  orange: { fill: '#c44309', hover: '#a93a08', lightText: '#a93a08' },
  yellow: { lightText: '#8f5c00' },
};

const filled = (scheme: 'light' | 'dark') =>
  Object.fromEntries(
    Object.entries(COLOURS).flatMap(([name, { fill, hover, lightText }]) => [
      ...(fill ? [[`--mantine-color-${name}-filled`, fill]] : []),
      ...(hover ? [[`--mantine-color-${name}-filled-hover`, hover]] : []),
      // outline text on the page and the light variant's text: light scheme only (dark uses pale shades)
      ...(fill && scheme === 'light' ? [[`--mantine-color-${name}-outline`, fill]] : []),
      ...(lightText && scheme === 'light' ? [[`--mantine-color-${name}-light-color`, lightText]] : []),
    ]),
  );

/**
 * Contrast (WCAG AA) in both schemes, kept close to Mantine's look: dimmed text a step darker in light
 * and lighter in dark (4.5:1 on the page, the cards and the hovered rows), grey badges and outlines
 * at the dimmed colour, and the colours above.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': '#5c636b',
    '--mantine-color-gray-filled': '#5c636b',
    '--mantine-color-gray-outline': '#5c636b',
    ...filled('light'),
  },
  dark: {
    '--mantine-color-dimmed': '#a6a6a6',
    // the labels of a control that cannot be changed now (a role picker, a filter while loading)
    '--mantine-color-disabled-color': '#8c8c8c',
    ...filled('dark'),
  },
});
