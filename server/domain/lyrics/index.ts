export type { EditableLyricLine, LyricFormat, LyricLine } from './types.js';
export { LYRIC_FORMATS } from './types.js';
export { parseLrc, parseLrcSteps } from './parse-lrc.js';
export { parseCues, parseSrt, parseVtt } from './parse-cues.js';
export { detectLyricFormat, lyricFormatOfExtension, parseLyric, parseLyricSteps, parseLyricWithFormat } from './parse-lyric.js';
export { runSteps, runStepsPaused, type Steps } from './steps.js';
export { FAR_FUTURE_MS, linesToSave, toLrc, toWebVtt } from './write-lyrics.js';
export { formatClockTime, formatLrcTime } from './timestamps.js';
