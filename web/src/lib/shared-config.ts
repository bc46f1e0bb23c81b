/** The server's shared config (seek times), loaded once by the main layout. */
import { create } from 'zustand';
import type { SharedConfig } from '../api/types.js';

export const DEFAULT_SHARED_CONFIG: SharedConfig = { rewindSeekTime: 5, forwardSeekTime: 30 };

interface SharedConfigState extends SharedConfig {
  loaded: boolean;
  apply(config: Partial<SharedConfig>): void;
}

const seconds = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : fallback);

export const useSharedConfig = create<SharedConfigState>()((set) => ({
  ...DEFAULT_SHARED_CONFIG,
  loaded: false,
  apply: (config) =>
    set({
      rewindSeekTime: seconds(config.rewindSeekTime, DEFAULT_SHARED_CONFIG.rewindSeekTime),
      forwardSeekTime: seconds(config.forwardSeekTime, DEFAULT_SHARED_CONFIG.forwardSeekTime),
      loaded: true,
    }),
}));
