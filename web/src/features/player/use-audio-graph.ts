/**
 * The audio graph for the visualizer and the equalizer. It is built only from a user gesture (a
 * graph started without one would stay suspended and silence the player): `build()` in a click
 * handler, or — with the visualizer preference on after a reload — on the first press anywhere.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { t } from '../../i18n/index.js';
import { getPref, usePref } from '../../lib/prefs.js';
import type { AudioGraph } from './audio-graph.js';
import { getEngine, peekEngine } from './engine.js';
import { showOnce, isMobileSafari } from './warnings.js';

const listeners = new Set<() => void>();
const subscribe = (fn: () => void) => {
  listeners.add(fn);
  return () => listeners.delete(fn);
};
const current = (): AudioGraph | null => peekEngine()?.builtAudioGraph ?? null;

/** Build (or wake) the graph. Call from a user gesture. */
export function buildAudioGraph(): AudioGraph {
  if (isMobileSafari()) showOnce('safariVisualizer', t.player.warnings.safariVisualizer);
  const graph = getEngine().audioGraph();
  for (const fn of listeners) fn();
  return graph;
}

/** The graph once built (null before). With the visualizer on, the first press builds it. */
export function useAudioGraph(): AudioGraph | null {
  const [visualizer] = usePref('visualizer');
  const graph = useSyncExternalStore(subscribe, current);
  useEffect(() => {
    if (!visualizer || graph) return;
    const onPress = () => {
      if (getPref('visualizer')) buildAudioGraph();
    };
    document.addEventListener('pointerdown', onPress, { once: true, capture: true });
    return () => document.removeEventListener('pointerdown', onPress, { capture: true });
  }, [visualizer, graph]);
  return graph;
}
