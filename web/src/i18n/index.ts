/** The active message catalogue. Only zh-CN exists today; the shape is `Messages`. */
import { zhCN, type Messages } from './zh-CN.js';

export type { Messages };
export const t: Messages = zhCN;
