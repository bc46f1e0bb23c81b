/**
 * The player engine: the one owner of the `<audio>` and `<video>` elements (audio files play in the
 * audio element, video containers in the video element, which the full-screen page can show). It
 * follows the player store (current entry, playing) and reports back what the elements do (ended →
 * play-mode rules, pauses from the lock screen or a PIP window, failures). The time tick goes to the
 * playback clock, not to React state.
 *
 * One engine per page, created on first use; it outlives the layouts, so playback continues on every
 * route.
 */
import { ensureMediaToken } from '../../api/media-token.js';
import { getToken } from '../../api/token.js';
import { withToken } from '../../api/urls.js';
import { getPref, PLAYBACK_RATE, setPref } from '../../lib/prefs.js';
import { t, type Messages } from '../../i18n/index.js';
import { AudioGraph } from './audio-graph.js';
import { playerClock, type Clock } from './clock.js';
import { useEngineState } from './engine-state.js';
import { entryMediaPath, isVideoEntry } from './queue-entry.js';
import { usePlayer, type PlayerStore, type QueueEntry } from './store.js';

export type EngineEvent =
  | { type: 'resumed'; seconds: number }
  | { type: 'error'; message: string }
  /** The browser refused to start playback without a user gesture. */
  | { type: 'blocked' }
  | { type: 'seeked'; seconds: number }
  | { type: 'ended' };

type Store = typeof usePlayer;

/** MediaError codes → their message (read when the error happens: in the active language). */
const MEDIA_ERRORS: Record<number, keyof Messages['player']['mediaErrors']> = { 1: 'aborted', 2: 'network', 3: 'decode', 4: 'unsupported' };

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

export class PlayerEngine {
  readonly audio: HTMLAudioElement;
  readonly video: HTMLVideoElement;
  private media: HTMLMediaElement;
  private readonly host: HTMLDivElement;
  private readonly stages: HTMLElement[] = [];
  private loadedHash: string | null = null;
  /** The loaded track's URL without its token (the token in the element's URL may be older). */
  private loadedPath = '';
  /**
   * Set while the loaded track is being reloaded after a failure: the URL's media token may have
   * expired (a long track, a long pause) or been replaced; the track reloads with a fresh one and
   * carries on where it was. Once per failure: cleared when the track plays again.
   */
  private recovery: { seconds: number; play: boolean } | null = null;
  private recovered = false;
  private frame = 0;
  private graph: AudioGraph | null = null;
  private readonly listeners = new Set<(e: EngineEvent) => void>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly store: Store = usePlayer,
    readonly clock: Clock = playerClock,
  ) {
    this.host = document.createElement('div');
    this.host.dataset.testid = 'player-media';
    // a sound source off screen, not content (a video shown is moved out of it)
    this.host.setAttribute('aria-hidden', 'true');
    Object.assign(this.host.style, { position: 'fixed', width: '1px', height: '1px', left: '0', bottom: '0', opacity: '0', overflow: 'hidden', pointerEvents: 'none' });
    this.audio = document.createElement('audio');
    this.video = document.createElement('video');
    this.video.playsInline = true;
    this.video.setAttribute('playsinline', '');
    Object.assign(this.video.style, { width: '100%', height: '100%', objectFit: 'contain', display: 'block', background: '#000' });
    const volume = getPref('volume');
    for (const el of [this.audio, this.video]) {
      el.preload = 'auto';
      el.volume = volume;
      this.listen(el);
    }
    this.media = this.audio;
    this.host.append(this.audio, this.video);
    document.body.append(this.host);
    this.unsubscribe = this.store.subscribe((s, prev) => this.follow(s, prev));
    this.follow(this.store.getState(), undefined);
  }

  /** The element playing now. */
  get element(): HTMLMediaElement {
    return this.media;
  }

  on(fn: (e: EngineEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private emit(e: EngineEvent): void {
    for (const fn of this.listeners) fn(e);
  }

  // ---- following the store ------------------------------------------------------------------

  private follow(s: PlayerStore, prev: PlayerStore | undefined): void {
    const entry = s.queue[s.index];
    const path = entry ? entryMediaPath(entry) : '';
    if ((entry?.hash ?? null) !== this.loadedHash || path !== this.loadedPath) {
      this.load(entry, path);
      return;
    }
    // a resume of the track that is loaded already: no new canplay is coming
    if (s.resumePoint && s.resumePoint !== prev?.resumePoint) this.applyResume();
    if (prev && s.playing === prev.playing) return;
    if (s.playing) this.tryPlay();
    else if (!this.media.paused) this.media.pause();
  }

  /** Seek to a pending resume point of the loaded track once it can play; '已恢复播放历史' follows. */
  private applyResume(): void {
    const el = this.media;
    const resume = this.store.getState().resumePoint;
    if (!resume || resume.hash !== this.loadedHash || el.readyState < HTMLMediaElement.HAVE_FUTURE_DATA) return;
    const seconds = Number.isFinite(el.duration) && el.duration > 0 ? Math.min(resume.seconds, el.duration) : resume.seconds;
    el.currentTime = seconds;
    this.store.getState().clearResume();
    this.tick();
    this.emit({ type: 'resumed', seconds });
  }

  private load(entry: QueueEntry | undefined, path: string): void {
    this.loadedHash = entry?.hash ?? null;
    this.loadedPath = path;
    this.recovery = null;
    this.recovered = false;
    const next = entry && isVideoEntry(entry) ? this.video : this.audio;
    if (next !== this.media) {
      this.unload(this.media);
      this.media = next;
    }
    this.stopTicking();
    useEngineState.setState({ video: next === this.video, buffering: false, failed: false, ended: false });
    const resume = this.store.getState().resumePoint;
    if (resume && resume.hash !== this.loadedHash) this.store.getState().clearResume();
    if (!entry) {
      this.unload(this.media);
      this.clock.set({ currentTime: 0, duration: 0, buffered: 0 });
      return;
    }
    this.clock.set({ currentTime: 0, duration: entry.duration ?? 0, buffered: 0 });
    this.media.src = withToken(path);
    this.media.defaultPlaybackRate = this.media.playbackRate = useEngineState.getState().rate;
    if (this.store.getState().playing) this.tryPlay();
  }

  private unload(el: HTMLMediaElement): void {
    el.pause();
    if (el.hasAttribute('src')) {
      el.removeAttribute('src');
      el.load();
    }
  }

  private tryPlay(): void {
    if (!this.loadedHash) return;
    // a graph suspended by the browser (background, no gesture yet) would keep the player silent
    if (this.graph) void this.graph.resume().catch(() => undefined);
    const el = this.media;
    el.play().catch((err: unknown) => {
      if (el !== this.media) return;
      const name = err instanceof DOMException ? err.name : '';
      if (name === 'AbortError') return; // a new source or a pause came first
      if (this.store.getState().playing) this.store.getState().setPlaying(false);
      if (name === 'NotAllowedError') this.emit({ type: 'blocked' });
    });
  }

  // ---- element events -----------------------------------------------------------------------

  private listen(el: HTMLMediaElement): void {
    const active = (fn: () => void) => () => {
      if (el === this.media && this.loadedHash) fn();
    };
    el.addEventListener(
      'play',
      active(() => {
        if (!this.store.getState().playing) this.store.getState().setPlaying(true);
      }),
    );
    el.addEventListener(
      'playing',
      active(() => {
        this.recovered = false;
        useEngineState.setState({ buffering: false });
        this.startTicking();
      }),
    );
    el.addEventListener(
      'pause',
      active(() => {
        this.stopTicking();
        this.tick();
        // the end of a track pauses it too; `ended` decides what comes next; a reload keeps playing
        if (el.ended || this.recovery) return;
        if (this.store.getState().playing) this.store.getState().setPlaying(false);
      }),
    );
    el.addEventListener(
      'waiting',
      active(() => useEngineState.setState({ buffering: this.store.getState().playing })),
    );
    el.addEventListener(
      'ended',
      active(() => {
        this.stopTicking();
        this.tick();
        this.emit({ type: 'ended' });
        const effect = this.store.getState().trackEnded();
        if (effect === 'restart') {
          el.currentTime = 0;
          this.tryPlay();
        }
      }),
    );
    el.addEventListener(
      'canplay',
      active(() => {
        useEngineState.setState({ buffering: false });
        this.finishRecovery();
        this.applyResume();
      }),
    );
    el.addEventListener(
      'seeked',
      active(() => {
        this.tick();
        this.emit({ type: 'seeked', seconds: el.currentTime });
      }),
    );
    el.addEventListener(
      'error',
      active(() => {
        if (this.recover()) return;
        this.recovery = null;
        const code = el.error?.code ?? 0;
        useEngineState.setState({ failed: true, buffering: false });
        if (this.store.getState().playing) this.store.getState().setPlaying(false);
        this.emit({ type: 'error', message: t.player.mediaErrors[MEDIA_ERRORS[code] ?? 'unknown'] });
      }),
    );
    for (const type of ['timeupdate', 'durationchange', 'loadedmetadata', 'progress', 'emptied'])
      el.addEventListener(
        type,
        active(() => this.tick()),
      );
    el.addEventListener('volumechange', () => {
      if (el === this.media) useEngineState.setState({ volume: el.volume });
    });
  }

  /**
   * After a load failure, once: fetch a fresh media token and reload the track with it, to resume at
   * the same time (and play on if it was playing). False when there is nothing to try.
   */
  private recover(): boolean {
    const el = this.media;
    // a file the browser cannot decode stays so; network and source failures are what a token does
    if (this.recovered || this.recovery || !getToken() || !this.loadedHash || el.error?.code === MediaError.MEDIA_ERR_DECODE) return false;
    const hash = this.loadedHash;
    this.recovered = true;
    this.recovery = { seconds: el.currentTime, play: this.store.getState().playing };
    useEngineState.setState({ buffering: true });
    ensureMediaToken({ force: true }).then(
      () => {
        if (el !== this.media || hash !== this.loadedHash || !this.recovery) return;
        el.src = withToken(this.loadedPath);
        if (this.recovery.play) this.tryPlay();
      },
      () => {
        // no fresh token (offline, or the login is gone): the failure stands
        if (el !== this.media || hash !== this.loadedHash) return;
        this.recovery = null;
        el.dispatchEvent(new Event('error'));
      },
    );
    return true;
  }

  /** The reloaded track can play: back to where it was. */
  private finishRecovery(): void {
    const recovery = this.recovery;
    if (!recovery) return;
    this.recovery = null;
    if (recovery.seconds > 0) this.media.currentTime = recovery.seconds;
    this.tick();
  }

  private tick = (): void => {
    // while a failed track reloads, the clock keeps the time it failed at
    if (this.recovery) return;
    const el = this.media;
    const duration = Number.isFinite(el.duration) && el.duration > 0 ? el.duration : (this.store.getState().queue[this.store.getState().index]?.duration ?? 0);
    const t = el.currentTime;
    let buffered = 0;
    for (let i = 0; i < el.buffered.length; i++) {
      if (el.buffered.start(i) <= t + 0.5 && el.buffered.end(i) >= t) buffered = el.buffered.end(i);
    }
    this.clock.set({ currentTime: t, duration, buffered });
    // played to the end, or started again (a replay, a seek back)
    if (el.ended !== useEngineState.getState().ended) useEngineState.setState({ ended: el.ended });
  };

  private startTicking(): void {
    if (this.frame) return;
    const loop = () => {
      this.tick();
      this.frame = requestAnimationFrame(loop);
    };
    this.frame = requestAnimationFrame(loop);
  }

  private stopTicking(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
  }

  // ---- commands -----------------------------------------------------------------------------

  get currentTime(): number {
    return this.media.currentTime;
  }

  get duration(): number {
    return this.clock.get().duration;
  }

  /** Seek to `seconds` within the track. */
  seek(seconds: number): void {
    if (!this.loadedHash || !Number.isFinite(seconds)) return;
    const duration = this.duration;
    const target = duration > 0 ? clamp(seconds, 0, duration) : Math.max(0, seconds);
    this.media.currentTime = target;
    this.clock.set({ currentTime: target });
  }

  seekBy(delta: number): void {
    this.seek(this.media.currentTime + delta);
  }

  /** Volume 0..1, remembered. */
  setVolume(volume: number): void {
    const v = clamp(Number.isFinite(volume) ? volume : 1, 0, 1);
    this.audio.volume = v;
    this.video.volume = v;
    setPref('volume', v);
    useEngineState.setState({ volume: v });
  }

  /** Playback speed 0.5–3×. */
  setRate(rate: number): void {
    const r = clamp(Number.isFinite(rate) ? rate : 1, PLAYBACK_RATE.min, PLAYBACK_RATE.max);
    for (const el of [this.audio, this.video]) {
      el.defaultPlaybackRate = r;
      el.playbackRate = r;
    }
    useEngineState.setState({ rate: r });
  }

  /**
   * Show the video element in `stage` (the full-screen page, the expanded player). The most recent
   * stage wins; detaching returns the element to the previous one, else to the hidden host.
   */
  attachStage(stage: HTMLElement): () => void {
    this.stages.push(stage);
    stage.append(this.video);
    return () => {
      const i = this.stages.lastIndexOf(stage);
      if (i >= 0) this.stages.splice(i, 1);
      const target = this.stages.at(-1) ?? this.host;
      if (this.video.parentElement !== target) target.append(this.video);
    };
  }

  /** The visualizer/equalizer graph, built on first use (call from a user gesture). */
  audioGraph(): AudioGraph {
    this.graph ??= new AudioGraph([this.audio, this.video]);
    void this.graph.resume();
    return this.graph;
  }

  /** The graph if it was built already. */
  get builtAudioGraph(): AudioGraph | null {
    return this.graph;
  }

  destroy(): void {
    this.unsubscribe();
    this.stopTicking();
    this.unload(this.audio);
    this.unload(this.video);
    this.host.remove();
    this.listeners.clear();
  }
}

let engine: PlayerEngine | null = null;

/** The page's one engine (created on first call). */
export function getEngine(): PlayerEngine {
  engine ??= new PlayerEngine();
  return engine;
}

/** The engine if it exists already (no element is created just to ask). */
export const peekEngine = (): PlayerEngine | null => engine;
