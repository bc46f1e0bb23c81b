/** The Ink view of `kikoplay import kikoeru`: one line per phase with its progress bar. */
import React, { useEffect, useState } from 'react';
import { Box, Text, render } from 'ink';
import type { ImportPhase, ImportProgress } from '../../server/services/kikoeru-import/import-service.js';
import { cliText, type CliCatalog } from '../i18n/index.js';
import { ProgressBar } from './scan-view.js';

const PHASES: ImportPhase[] = ['check', 'roots', 'users', 'works', 'reviews', 'history', 'tasks', 'covers'];

export type ImportViewState = Partial<Record<ImportPhase, { done: number; total: number }>>;

export function ImportView({ state, texts, width = 80 }: { state: ImportViewState; texts?: CliCatalog; width?: number }) {
  const t = texts ?? cliText();
  const k = t.importKikoeru;
  const label = Math.max(...PHASES.map((p) => (k.phases[p] ?? p).length)) + 2;
  const bar = Math.max(10, Math.min(40, width - label - 24));
  return (
    <Box flexDirection="column">
      <Text bold>{k.title}</Text>
      {PHASES.filter((p) => state[p]).map((p) => (
        <Box key={p}>
          <Text>{(k.phases[p] ?? p).padEnd(label)}</Text>
          <ProgressBar done={state[p]!.done} total={state[p]!.total} width={bar} />
        </Box>
      ))}
    </Box>
  );
}

export interface ImportTuiHandle {
  push(p: ImportProgress): void;
  finish(): Promise<void>;
}

/** Render the view on the terminal; progress is folded in and drawn at most every 100 ms. */
export function startImportTui(): ImportTuiHandle {
  let feed: ((s: ImportViewState) => void) | null = null;
  let state: ImportViewState = {};
  let timer: NodeJS.Timeout | null = null;
  function App() {
    const [s, setS] = useState<ImportViewState>(state);
    useEffect(() => {
      feed = setS;
      return () => {
        feed = null;
      };
    }, []);
    return <ImportView state={s} width={process.stdout.columns || 80} />;
  }
  const instance = render(<App />, { exitOnCtrlC: true });
  const flush = () => {
    timer = null;
    feed?.(state);
  };
  return {
    push(p) {
      state = { ...state, [p.phase]: { done: p.done, total: p.total } };
      timer ??= setTimeout(flush, 100);
    },
    async finish() {
      if (timer) clearTimeout(timer);
      flush();
      await new Promise((resolve) => setTimeout(resolve, 20));
      instance.unmount();
      await instance.waitUntilExit();
    },
  };
}
