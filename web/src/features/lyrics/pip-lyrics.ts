/**
 * Desktop lyrics in a picture-in-picture window: the current line is drawn
 * on a canvas whose stream plays in a muted `<video>`; that video goes picture-in-picture. Its play and
 * pause buttons drive the player and follow it (both ways, without echo). Closing the window calls
 * `onClosed`.
 */
const WIDTH = 1000;
const HEIGHT = 120;
const FONT = '"PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", system-ui, sans-serif';

export const pipSupported = (): boolean => typeof document !== 'undefined' && document.pictureInPictureEnabled === true && typeof HTMLCanvasElement.prototype.captureStream === 'function';

export class PipLyrics {
  private readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  readonly video: HTMLVideoElement;
  private ready = false;
  private text = '';
  private dark = false;
  private syncing = false;

  constructor(
    private readonly onPlayState: (playing: boolean) => void,
    private readonly onClosed: () => void,
  ) {
    this.canvas = document.createElement('canvas');
    this.canvas.width = WIDTH;
    this.canvas.height = HEIGHT;
    this.ctx = this.canvas.getContext('2d')!;
    this.video = document.createElement('video');
    this.video.muted = true;
    this.video.playsInline = true;
    this.video.setAttribute('aria-hidden', 'true'); // only the carrier of the picture-in-picture window
    Object.assign(this.video.style, { position: 'fixed', right: '0', bottom: '0', width: '2px', height: '2px', opacity: '0', pointerEvents: 'none' });
    this.video.srcObject = this.canvas.captureStream();
    this.video.addEventListener('loadedmetadata', () => (this.ready = true));
    this.video.addEventListener('leavepictureinpicture', () => {
      this.detachSync();
      this.video.pause();
      this.onClosed();
    });
    document.body.append(this.video);
    // a few frames so the stream has data and metadata before the user asks for the window
    this.draw('');
    void this.video.play().catch(() => undefined);
    let frames = 10;
    const warm = () => {
      this.draw(this.text);
      if (--frames > 0) requestAnimationFrame(warm);
    };
    requestAnimationFrame(warm);
  }

  get isReady(): boolean {
    return this.ready && this.video.readyState >= HTMLMediaElement.HAVE_METADATA;
  }

  get isOpen(): boolean {
    return document.pictureInPictureElement === this.video;
  }

  draw(text: string, dark = this.dark): void {
    this.text = text;
    this.dark = dark;
    const { ctx } = this;
    ctx.fillStyle = dark ? '#25262b' : '#ffffff';
    ctx.fillRect(0, 0, WIDTH, HEIGHT);
    ctx.fillStyle = dark ? '#d0bfff' : '#7048e8';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    let size = 52;
    ctx.font = `bold ${size}px ${FONT}`;
    const oneLine = text.replace(/\s*\n\s*/g, ' ');
    while (size > 24 && ctx.measureText(oneLine).width > WIDTH - 40) {
      size -= 4;
      ctx.font = `bold ${size}px ${FONT}`;
    }
    const lines = wrap(ctx, oneLine, WIDTH - 40).slice(0, 2);
    const lineHeight = size * 1.15;
    lines.forEach((line, i) => ctx.fillText(line, WIDTH / 2, HEIGHT / 2 + (i - (lines.length - 1) / 2) * lineHeight));
  }

  /** Enter picture-in-picture (needs a user gesture and a ready video). */
  async open(playing: boolean): Promise<void> {
    if (!this.isReady) throw new Error('PIP video not ready');
    this.draw(this.text);
    await this.video.play();
    await this.video.requestPictureInPicture();
    if (!playing) this.video.pause();
    this.video.addEventListener('play', this.fromVideo);
    this.video.addEventListener('pause', this.fromVideo);
  }

  close(): void {
    this.detachSync();
    if (this.isOpen) void document.exitPictureInPicture().catch(() => undefined);
    this.video.pause();
  }

  /** The player started or paused: the PIP window's button follows. */
  follow(playing: boolean): void {
    if (!this.isOpen || playing === !this.video.paused) return;
    this.syncing = true;
    const done = () => (this.syncing = false);
    if (playing) void this.video.play().then(done, done);
    else {
      this.video.pause();
      queueMicrotask(done);
    }
  }

  private fromVideo = (): void => {
    if (this.syncing) return;
    this.onPlayState(!this.video.paused);
  };

  private detachSync(): void {
    this.video.removeEventListener('play', this.fromVideo);
    this.video.removeEventListener('pause', this.fromVideo);
  }

  destroy(): void {
    this.close();
    this.video.srcObject = null;
    this.video.remove();
  }
}

function wrap(ctx: CanvasRenderingContext2D, text: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const ch of text) {
    if (ctx.measureText(line + ch).width > width && line) {
      out.push(line);
      line = ch;
    } else line += ch;
  }
  if (line || !out.length) out.push(line);
  if (out.length > 2) out[1] = out[1].slice(0, -1) + '…';
  return out;
}
