/** Desktop keyboard shortcuts bound to the document while the main layout is open. */
import { useEffect } from 'react';
import { isEditable } from '../../lib/editable.js';
import { useSharedConfig } from '../../lib/shared-config.js';
import { getEngine } from './engine.js';
import { commandForKey, stepVolume, VOLUME_INDICATOR_MS } from './keyboard.js';
import { usePlayerUi } from './player-ui.js';
import { usePlayer } from './store.js';

export function useShortcuts(enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      // a slider or a button with focus keeps its own arrow/space keys
      const target = e.target instanceof HTMLElement ? e.target : null;
      if (target && (target.getAttribute('role') === 'slider' || ((e.key === ' ' || e.key === 'Enter') && target.closest('button, a, [role="button"], [role="menuitem"]')))) return;
      const command = commandForKey({ key: e.key, shiftKey: e.shiftKey, ctrlKey: e.ctrlKey, metaKey: e.metaKey, altKey: e.altKey, editable: isEditable(e.target), repeat: e.repeat });
      if (!command) return;
      const player = usePlayer.getState();
      if (!player.queue.length) return;
      e.preventDefault();
      const engine = getEngine();
      switch (command.type) {
        case 'toggle':
          player.togglePlaying();
          break;
        case 'seek': {
          const { rewindSeekTime, forwardSeekTime } = useSharedConfig.getState();
          engine.seekBy(command.direction < 0 ? -rewindSeekTime : forwardSeekTime);
          break;
        }
        case 'volume':
          engine.setVolume(stepVolume(engine.element.volume, command.delta));
          usePlayerUi.setState({ volumeShownUntil: Date.now() + VOLUME_INDICATOR_MS });
          break;
        case 'next':
          player.next();
          break;
        case 'previous':
          player.previous();
          break;
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [enabled]);
}
