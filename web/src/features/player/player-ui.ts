/** Which parts of the player UI are open. One small store so any screen (the drawer, the header) can open them. */
import { create } from 'zustand';

export type PlayerDialog = 'queue' | 'lyricSelect' | 'syncHelper' | 'lyricEditor' | 'sleepTimer' | 'equalizer' | null;

export interface PlayerUi {
  /** The expanded player is shown. */
  expanded: boolean;
  /** The bottom bar was swiped away (a small button brings it back). */
  barHidden: boolean;
  dialog: PlayerDialog;
  /** A menu of the expanded player is open (Escape closes it, not the player). */
  menuOpen: boolean;
  /** Epoch ms until which the volume indicator shows (keyboard volume changes). */
  volumeShownUntil: number;
  setExpanded(expanded: boolean): void;
  setBarHidden(hidden: boolean): void;
  setMenuOpen(open: boolean): void;
  open(dialog: Exclude<PlayerDialog, null>): void;
  close(): void;
}

export const usePlayerUi = create<PlayerUi>()((set) => ({
  expanded: false,
  barHidden: false,
  dialog: null,
  menuOpen: false,
  volumeShownUntil: 0,
  setExpanded: (expanded) => set({ expanded }),
  setBarHidden: (barHidden) => set({ barHidden }),
  setMenuOpen: (menuOpen) => set({ menuOpen }),
  open: (dialog) => set({ dialog }),
  close: () => set({ dialog: null }),
}));
