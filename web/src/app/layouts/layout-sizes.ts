/** Sizes shared by the main and admin layouts (drawer width 230, mini by default). */
export const DRAWER_WIDTH = 230;
export const MINI_WIDTH = 64;
export const HEADER_HEIGHT = 56;
/** Mantine's `sm` breakpoint: below it the drawer is an overlay. */
export const DESKTOP_QUERY = '(min-width: 48em)';
