/** Where a printer writes its lines: process.stdout, or a guard in front of it. */
export interface LineSink {
  write(text: string): unknown;
}

let guards = 0;

/** True while a guardedOutput watches standard output (its owner handles a closed pipe itself). */
export const stdoutGuarded = (): boolean => guards > 0;

/**
 * Standard output that may be closed by its reader (`kikoplay scan | head -1`, `| grep -q`): the first
 * write error (EPIPE) calls `onClosed` once and every later line is dropped, instead of an unhandled
 * 'error' event ending the process with the scan lock's run unfinished.
 */
export function guardedOutput(stream: NodeJS.WriteStream, onClosed: () => void): LineSink & { readonly closed: boolean; dispose(): void } {
  let closed = false;
  const onError = () => {
    if (closed) return;
    closed = true;
    onClosed();
  };
  stream.on('error', onError);
  guards++;
  let disposed = false;
  return {
    get closed() {
      return closed;
    },
    write(text: string) {
      if (closed || stream.destroyed) return false;
      return stream.write(text);
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      guards--;
      stream.off('error', onError);
      // a late EPIPE after this must not be an unhandled 'error' event either
      stream.on('error', () => undefined);
    },
  };
}
