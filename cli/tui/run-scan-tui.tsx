/** Render the scan view for a running scan: subscribe to events, fold them into state, re-render. */
import React, { useEffect, useState } from 'react';
import { render } from 'ink';
import type { ScanEvent } from '../../server/contract/scan-events.js';
import { initialScanState, reduceScanState, type ScanState, type ScanStateLimits } from '../../server/contract/scan-state.js';
import { ScanView } from './scan-view.js';

export interface ScanTuiHandle {
  /** Feed an event. */
  push(e: ScanEvent): void;
  /** Render the final state and unmount. */
  finish(): Promise<void>;
}

type Feed = (update: (s: ScanState) => ScanState) => void;

/** What the terminal view keeps (the web dashboard keeps more log lines and results). */
export const TERMINAL_SCAN_LIMITS: ScanStateLimits = { mainLogs: 500, taskLogs: 50, failedTasks: 500, results: 1000 };

function App({ register, onCancel }: { register: (feed: Feed) => void; onCancel: () => void }) {
  const [state, setState] = useState<ScanState>(initialScanState());
  const [cancelling, setCancelling] = useState(false);
  useEffect(() => register((update) => setState(update)), [register]);
  return (
    <ScanView
      state={state}
      cancelling={cancelling}
      width={process.stdout.columns || 80}
      onCancel={() => {
        setCancelling(true);
        onCancel();
      }}
    />
  );
}

export function startScanTui(onCancel: () => void): ScanTuiHandle {
  let feed: Feed | null = null;
  let queued: ScanEvent[] = [];
  let timer: NodeJS.Timeout | null = null;
  // batch events: one re-render per 100 ms keeps a large scan cheap to draw
  const drain = () => {
    timer = null;
    if (!feed || !queued.length) return;
    const batch = queued;
    queued = [];
    feed((s) => batch.reduce((state, e) => reduceScanState(state, e, TERMINAL_SCAN_LIMITS), s));
  };
  const instance = render(
    <App
      register={(f) => {
        feed = f;
        drain();
      }}
      onCancel={onCancel}
    />,
    { exitOnCtrlC: false },
  );
  return {
    push(e) {
      queued.push(e);
      if (!timer) timer = setTimeout(drain, 100);
    },
    async finish() {
      if (timer) clearTimeout(timer);
      drain();
      await new Promise((r) => setTimeout(r, 50));
      instance.unmount();
      await instance.waitUntilExit().catch(() => undefined);
    },
  };
}
