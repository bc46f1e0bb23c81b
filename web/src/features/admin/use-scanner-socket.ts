/**
 * The admin socket of the scanner page: `ws` at /api/ws?token=… (docs/API.md#admin-socket).
 * On `success` it asks for a snapshot (ON_SCANNER_PAGE) and then folds the incremental frames into
 * the page state. A socket error (the server refusing the token or the role) shows a
 * warning in the interface language (the frame's `reason`, else the close code), closes, and goes
 * to /login; a socket that cannot connect says '连接Socket失败'. A dropped
 * connection is re-opened with a back-off, and the snapshot brings the page up to date again.
 */
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { CLOSE_FORBIDDEN, CLOSE_UNAUTHORIZED, WS_PATH, decode, type ClientEvent, type Frame } from '../../../../server/contract/realtime.js';
import { getToken } from '../../api/token.js';
import { t } from '../../i18n/index.js';
import { notifyError, notifyWarning } from '../../lib/notify.js';
import { loginPathFor } from '../auth/redirect.js';
import { initialScanState, type ScanState } from '../../../../server/contract/scan-state.js';
import { reduceFrame, started } from './scanner-state.js';
import { socketCloseText, socketErrorText } from './socket-text.js';

export type SocketPhase = 'connecting' | 'open' | 'reconnecting' | 'failed';

type Action = { type: 'frame'; frame: Frame } | { type: 'started' };

function reducer(state: ScanState, action: Action): ScanState {
  return action.type === 'started' ? started(state) : reduceFrame(state, action.frame);
}

/** Re-open attempts after a drop before giving up (the page then offers a button). */
const MAX_RETRIES = 5;
const backoffMs = (attempt: number) => Math.min(10_000, 1000 * 2 ** attempt);

export function socketUrl(): string {
  const token = getToken();
  const proto = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${window.location.host}${WS_PATH}${token ? `?token=${encodeURIComponent(token)}` : ''}`;
}

export interface ScannerSocket {
  state: ScanState;
  phase: SocketPhase;
  /** Send a client event; start events set the page to running at once. False when not connected. */
  send(event: ClientEvent): boolean;
  reconnect(): void;
}

export function useScannerSocket(): ScannerSocket {
  const [state, dispatch] = useReducer(reducer, undefined, initialScanState);
  const [phase, setPhase] = useState<SocketPhase>('connecting');
  const [generation, setGeneration] = useState(0);
  const navigate = useNavigate();
  const location = useLocation();
  const here = useRef(location.pathname + location.search);
  here.current = location.pathname + location.search;
  const socket = useRef<WebSocket | null>(null);

  useEffect(() => {
    let disposed = false;
    let retries = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const open = () => {
      let admitted = false;
      let refused = false;
      const ws = new WebSocket(socketUrl());
      socket.current = ws;

      const refuse = (message: string) => {
        refused = true;
        notifyWarning(message);
        ws.close();
        void navigate(loginPathFor(here.current), { replace: true });
      };

      ws.onmessage = (msg) => {
        if (typeof msg.data !== 'string') return;
        const frame = decode(msg.data);
        if (!frame || disposed) return;
        if (frame.event === 'success') {
          admitted = true;
          retries = 0;
          setPhase('open');
          ws.send(JSON.stringify({ event: 'ON_SCANNER_PAGE' }));
          return;
        }
        if (frame.event === 'error') {
          const p = (frame.payload ?? {}) as { code?: unknown };
          const message = socketErrorText(frame.payload);
          // a refusal (bad token, not an admin); other error frames are answers to a bad message
          if (!admitted || p.code === CLOSE_UNAUTHORIZED || p.code === CLOSE_FORBIDDEN) refuse(message);
          else notifyWarning(message);
          return;
        }
        dispatch({ type: 'frame', frame });
      };

      ws.onclose = (ev) => {
        if (socket.current === ws) socket.current = null;
        if (disposed || refused) return;
        if (ev.code === CLOSE_UNAUTHORIZED || ev.code === CLOSE_FORBIDDEN) return refuse(socketCloseText(ev.code, ev.reason));
        if (!admitted && retries === 0) {
          // never got in: the server cannot be reached (or the upgrade was refused)
          notifyError(t.dashboard.scanner.socketFailed);
          setPhase('failed');
          return;
        }
        if (retries >= MAX_RETRIES) {
          notifyError(t.dashboard.scanner.socketFailed);
          setPhase('failed');
          return;
        }
        setPhase('reconnecting');
        timer = setTimeout(open, backoffMs(retries++));
      };
    };

    setPhase('connecting');
    open();
    return () => {
      disposed = true;
      clearTimeout(timer);
      socket.current?.close(1000, 'page closed');
      socket.current = null;
    };
  }, [navigate, generation]);

  const send = useCallback((event: ClientEvent): boolean => {
    const ws = socket.current;
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify({ event }));
    if (event.startsWith('PERFORM_')) dispatch({ type: 'started' });
    return true;
  }, []);

  const reconnect = useCallback(() => setGeneration((g) => g + 1), []);

  return { state, phase, send, reconnect };
}
