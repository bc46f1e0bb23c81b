/**
 * Worker threads that read media durations: from the container header where it tells plainly
 * (header-duration.mjs, a few reads per file), else with music-metadata, which costs about half a
 * millisecond per file (most of it building its tag tables for every file). In workers this runs on the
 * other cores while the main thread walks folders and writes the database. Started on first use, and stopped again after a
 * while without work so an idle server holds no extra threads.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';

export interface ProbeItem {
  file: string;
  size: number;
}

/** Duration in seconds (null: none found) and what read it, or music-metadata's error. */
export type PoolResult = { duration: number | null; via: 'header' | 'music-metadata' } | { error: string };

interface Pending {
  resolve: (results: PoolResult[]) => void;
  reject: (err: Error) => void;
  /** Files in the batch (the least busy worker gets the next one). */
  weight: number;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
}

/** Workers stop after this long without a request. */
const IDLE_MS = 15_000;

export class ProbePool {
  private slots: Slot[] = [];
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(private readonly size = Math.max(1, Math.min(4, os.availableParallelism()))) {}

  /** Durations of a batch of files (in order), read by one worker. Rejects only if the worker dies. */
  durations(items: ProbeItem[]): Promise<PoolResult[]> {
    if (!items.length) return Promise.resolve([]);
    if (!this.slots.length) this.start();
    this.touch();
    // the least busy worker
    const load = (s: Slot) => [...s.pending.values()].reduce((n, p) => n + p.weight, 0);
    let slot = this.slots[0];
    for (const s of this.slots) if (load(s) < load(slot)) slot = s;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // a worker with requests in flight keeps the process alive (nothing else may be waiting)
      if (slot.pending.size === 0) slot.worker.ref();
      slot.pending.set(id, { resolve, reject, weight: items.length });
      slot.worker.postMessage({ id, items });
    });
  }

  /** Stop the workers (requests in flight fail). */
  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const slots = this.slots;
    this.slots = [];
    await Promise.all(slots.map((s) => this.stopSlot(s, 'the probe pool was closed')));
  }

  private start(): void {
    for (let i = 0; i < this.size; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    // plain JavaScript: none of the parent's flags (loaders, --input-type …) are needed or always allowed
    const worker = new Worker(new URL('./probe-worker.mjs', import.meta.url), { execArgv: [] });
    const slot: Slot = { worker, pending: new Map() };
    worker.on('message', (m: { id: number; results: PoolResult[] }) => {
      const p = slot.pending.get(m.id);
      if (!p) return;
      slot.pending.delete(m.id);
      if (slot.pending.size === 0) worker.unref();
      p.resolve(m.results);
    });
    const fail = (err: Error) => {
      // a crashed worker: fail its requests and replace it
      for (const p of slot.pending.values()) p.reject(err);
      slot.pending.clear();
      const i = this.slots.indexOf(slot);
      if (i >= 0) this.slots[i] = this.spawn();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (this.slots.includes(slot)) fail(new Error(`probe worker exited with code ${code}`));
    });
    // after the listeners (adding one refs the worker again): an idle worker never keeps the process alive
    worker.unref();
    return slot;
  }

  private async stopSlot(slot: Slot, why: string): Promise<void> {
    for (const p of slot.pending.values()) p.reject(new Error(why));
    slot.pending.clear();
    await slot.worker.terminate();
  }

  private touch(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.slots.some((s) => s.pending.size > 0)) return this.touch();
      void this.close();
    }, IDLE_MS);
    this.idleTimer.unref();
  }
}

/** The process's pool. */
export const probePool = new ProbePool();
