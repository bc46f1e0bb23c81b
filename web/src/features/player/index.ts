/** What the layouts mount and what the screens use from the player. */
export { PlayerBar } from './PlayerBar.js';
export { PlayerHost, usePlayerFooter, PLAYER_BAR_HEIGHT } from './PlayerHost.js';
export { FullScreenLink } from './FullScreenLink.js';
export { usePlayer, useCurrentEntry, type QueueEntry } from './store.js';
export { entryFromNode, parsePlayState, type PlayState } from './queue-entry.js';
