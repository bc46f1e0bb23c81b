/**
 * The Web Audio graph behind the visualizer and the equalizer, built on first use (it needs a user
 * gesture to start, and once an element is routed through it, it stays routed):
 *
 *   element sources → bass → middle → treble (2 channels) → splitter ─┬→ analyser L / R (visualizer)
 *                                                                     └→ merger (L/R may be swapped) → speakers
 *
 * `createMediaElementSource` only hears same-origin media (or CORS-enabled): the player's own stream
 * URLs are same-origin.
 */
export const FFT_SIZE = 256;
export const EQ_BANDS = [
  { key: 'bass', type: 'lowshelf', frequency: 200 },
  { key: 'middle', type: 'peaking', frequency: 1500 },
  { key: 'treble', type: 'highshelf', frequency: 5000 },
] as const;
export type EqBand = (typeof EQ_BANDS)[number]['key'];
export const EQ_RANGE_DB = 12;

export class AudioGraph {
  readonly context: AudioContext;
  readonly left: AnalyserNode;
  readonly right: AnalyserNode;
  private readonly filters: Record<EqBand, BiquadFilterNode>;
  private readonly splitter: ChannelSplitterNode;
  private readonly merger: ChannelMergerNode;
  private swapped = false;

  constructor(elements: HTMLMediaElement[]) {
    const AudioContextClass = window.AudioContext ?? (window as unknown as { webkitAudioContext: typeof AudioContext }).webkitAudioContext;
    this.context = new AudioContextClass();
    const ctx = this.context;
    const filters = EQ_BANDS.map((band) => {
      const f = ctx.createBiquadFilter();
      f.type = band.type;
      f.frequency.value = band.frequency;
      f.gain.value = 0;
      return f;
    });
    this.filters = { bass: filters[0], middle: filters[1], treble: filters[2] };
    // Mono sources are up-mixed to two channels here, so both ears hear them after the split.
    const last = filters[filters.length - 1];
    last.channelCount = 2;
    last.channelCountMode = 'explicit';
    last.channelInterpretation = 'speakers';
    filters.reduce((a, b) => (a.connect(b), b));
    for (const el of elements) ctx.createMediaElementSource(el).connect(filters[0]);

    this.splitter = ctx.createChannelSplitter(2);
    this.merger = ctx.createChannelMerger(2);
    this.left = ctx.createAnalyser();
    this.right = ctx.createAnalyser();
    for (const a of [this.left, this.right]) {
      a.fftSize = FFT_SIZE;
      a.smoothingTimeConstant = 0.8;
    }
    last.connect(this.splitter);
    this.splitter.connect(this.left, 0);
    this.splitter.connect(this.right, 1);
    this.route();
    this.merger.connect(ctx.destination);
  }

  private route(): void {
    this.splitter.disconnect();
    this.splitter.connect(this.left, 0);
    this.splitter.connect(this.right, 1);
    this.splitter.connect(this.merger, 0, this.swapped ? 1 : 0);
    this.splitter.connect(this.merger, 1, this.swapped ? 0 : 1);
  }

  /** Swap the left and right channels (the analysers keep showing the source's own channels). */
  setSwapped(swapped: boolean): void {
    if (swapped === this.swapped) return;
    this.swapped = swapped;
    this.route();
  }

  get isSwapped(): boolean {
    return this.swapped;
  }

  setGain(band: EqBand, db: number): void {
    this.filters[band].gain.value = Math.max(-EQ_RANGE_DB, Math.min(EQ_RANGE_DB, db));
  }

  gain(band: EqBand): number {
    return this.filters[band].gain.value;
  }

  /** Browsers start an AudioContext suspended until a user gesture. */
  resume(): Promise<void> {
    return this.context.state === 'running' ? Promise.resolve() : this.context.resume();
  }
}
