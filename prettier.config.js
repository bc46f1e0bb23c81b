// Prettier: the format check of `npm run lint` (`npm run format` applies it). The options follow the code as it
// was written before Prettier: single quotes, semicolons, trailing commas, long lines. The print width is where
// the first formatting of the repository changed the fewest lines: of the widths measured from 120 to 250, the
// diffs at 195-210 were within 1% of each other (about 2,600 lines) and grew on either side (7,500 at 140).
/** @type {import('prettier').Config} */
export default {
  printWidth: 200,
  singleQuote: true,
  trailingComma: 'all',
  semi: true,
  arrowParens: 'always',
};
