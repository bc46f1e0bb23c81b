/**
 * Lyric parsers are written as generators that pause every {@link STEP_LINES} lines. Run to the end at
 * once they are plain functions (the web player's use); the server runs them with a pause between
 * steps, so a long lyric never holds its event loop for long (other requests are answered in between).
 */
export type Steps<T> = Generator<void, T, void>;

/** Lines handled between two pauses. */
export const STEP_LINES = 500;

/** Runs the steps without pausing. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Runs the steps, awaiting `pause()` between them. */
export async function runStepsPaused<T>(steps: Steps<T>, pause: () => Promise<void>): Promise<T> {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await pause();
  }
}
