/**
 * A spectrum of the playing audio from the analysers of the audio graph (fft 256): the left channel
 * mirrored to the left of the centre, the right channel to the right, low notes in the middle.
 * Draws only while mounted and visible.
 */
import { useEffect, useRef, type CSSProperties } from 'react';
import type { AudioGraph } from './audio-graph.js';

export function Visualizer({ graph, height = 120, color = 'var(--mantine-primary-color-filled)', style }: { graph: AudioGraph; height?: number; color?: string; style?: CSSProperties }) {
  const canvas = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const ctx = el.getContext('2d');
    if (!ctx) return;
    const bins = graph.left.frequencyBinCount;
    const left = new Uint8Array(bins);
    const right = new Uint8Array(bins);
    const fill = getComputedStyle(el).color || '#7950f2';
    const used = Math.floor(bins * 0.75); // the top quarter is mostly empty for voice
    let frame = 0;
    const draw = () => {
      frame = requestAnimationFrame(draw);
      const ratio = window.devicePixelRatio || 1;
      const w = Math.round(el.clientWidth * ratio);
      const h = Math.round(el.clientHeight * ratio);
      if (el.width !== w || el.height !== h) {
        el.width = w;
        el.height = h;
      }
      graph.left.getByteFrequencyData(left);
      graph.right.getByteFrequencyData(right);
      ctx.clearRect(0, 0, w, h);
      ctx.fillStyle = fill;
      const half = w / 2;
      const bar = half / used;
      for (let i = 0; i < used; i++) {
        const hl = (left[i] / 255) * h;
        const hr = (right[i] / 255) * h;
        ctx.globalAlpha = 0.55 + 0.45 * (left[i] / 255);
        ctx.fillRect(half - (i + 1) * bar, h - hl, Math.max(1, bar - 1), hl);
        ctx.globalAlpha = 0.55 + 0.45 * (right[i] / 255);
        ctx.fillRect(half + i * bar, h - hr, Math.max(1, bar - 1), hr);
      }
      ctx.globalAlpha = 1;
    };
    draw();
    return () => cancelAnimationFrame(frame);
  }, [graph]);

  return <canvas ref={canvas} data-testid="visualizer" style={{ width: '100%', height, display: 'block', color, ...style }} />;
}
