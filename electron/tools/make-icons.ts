/**
 * Draws docloom's icon (a page with a title and lines of text on a blue rounded square) and writes the icon set
 * electron-builder packs: resources/icons/<N>x<N>.png (Linux, and the source it derives others from),
 * icon.png (1024 px), icon.ico (Windows) and icon.icns (macOS).
 * Run: node --import tsx electron/tools/make-icons.ts   (the files are committed; rerun only to change the icon)
 * Not part of the app: electron-builder.yml leaves dist/electron/tools out of the package.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodePng } from '../../scripts/lib/png.js';
import { encodeIcns, encodeIco } from './icon-containers.js';

type Rgba = readonly [number, number, number, number];

interface Shape {
  contains(x: number, y: number): boolean;
  color(x: number, y: number): Rgba;
}

function hex(value: string, alpha = 255): Rgba {
  const n = Number.parseInt(value.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255, alpha];
}

function roundedRect(x0: number, y0: number, x1: number, y1: number, radius: number, color: (x: number, y: number) => Rgba): Shape {
  return {
    contains(x, y) {
      const cx = Math.min(Math.max(x, x0 + radius), x1 - radius);
      const cy = Math.min(Math.max(y, y0 + radius), y1 - radius);
      return x >= x0 && x <= x1 && y >= y0 && y <= y1 && (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
    },
    color,
  };
}

/** A convex polygon, points in clockwise order (y grows downwards). */
function polygon(points: ReadonlyArray<readonly [number, number]>, fill: Rgba): Shape {
  return {
    contains(x, y) {
      for (let i = 0; i < points.length; i++) {
        const [ax, ay] = points[i]!;
        const [bx, by] = points[(i + 1) % points.length]!;
        if ((bx - ax) * (y - ay) - (by - ay) * (x - ax) < 0) return false;
      }
      return true;
    },
    color: () => fill,
  };
}

function iconShapes(): Shape[] {
  const top = hex('#4c6ef5');
  const bottom = hex('#3042b0');
  const background = roundedRect(0.04, 0.04, 0.96, 0.96, 0.2, (_x, y) => {
    const t = Math.min(Math.max((y - 0.04) / 0.92, 0), 1);
    return [0, 1, 2].map((i) => Math.round(top[i]! + (bottom[i]! - top[i]!) * t)).concat(255) as unknown as Rgba;
  });
  const [x0, y0, x1, y1, fold] = [0.27, 0.17, 0.73, 0.83, 0.13];
  const page = (dx: number, dy: number, fill: Rgba): Shape =>
    polygon(
      [
        [x0 + dx, y0 + dy],
        [x1 - fold + dx, y0 + dy],
        [x1 + dx, y0 + fold + dy],
        [x1 + dx, y1 + dy],
        [x0 + dx, y1 + dy],
      ],
      fill,
    );
  const line = (y: number, end: number, height: number, fill: Rgba): Shape =>
    roundedRect(x0 + 0.07, y, end, y + height, height / 2, () => fill);
  const ink = hex('#4c6ef5');
  return [
    background,
    page(0.015, 0.02, hex('#1b2566', 90)), // shadow
    page(0, 0, hex('#ffffff')),
    polygon(
      [
        [x1 - fold, y0],
        [x1, y0 + fold],
        [x1 - fold, y0 + fold],
      ],
      hex('#c5d0fa'),
    ),
    line(0.27, 0.5, 0.055, hex('#3042b0')),
    line(0.41, 0.66, 0.035, ink),
    line(0.495, 0.62, 0.035, ink),
    line(0.58, 0.66, 0.035, ink),
    line(0.665, 0.53, 0.035, ink),
  ];
}

/** Renders the icon at `size` px with 4×4 supersampling (anti-aliased edges). */
export function renderIcon(size: number): Uint8Array {
  const shapes = iconShapes();
  const samples = 4;
  const out = new Uint8Array(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0, g = 0, b = 0, a = 0; // premultiplied sums
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = (px + (sx + 0.5) / samples) / size;
          const y = (py + (sy + 0.5) / samples) / size;
          let cr = 0, cg = 0, cb = 0, ca = 0; // "over" compositing, premultiplied, 0..1
          for (const shape of shapes) {
            if (!shape.contains(x, y)) continue;
            const [sr, sg, sb, sa] = shape.color(x, y);
            const alpha = sa / 255;
            cr = (sr / 255) * alpha + cr * (1 - alpha);
            cg = (sg / 255) * alpha + cg * (1 - alpha);
            cb = (sb / 255) * alpha + cb * (1 - alpha);
            ca = alpha + ca * (1 - alpha);
          }
          r += cr; g += cg; b += cb; a += ca;
        }
      }
      const n = samples * samples;
      const o = (py * size + px) * 4;
      const alpha = a / n;
      out[o] = alpha > 0 ? Math.round((r / n / alpha) * 255) : 0;
      out[o + 1] = alpha > 0 ? Math.round((g / n / alpha) * 255) : 0;
      out[o + 2] = alpha > 0 ? Math.round((b / n / alpha) * 255) : 0;
      out[o + 3] = Math.round(alpha * 255);
    }
  }
  return out;
}

export const LINUX_SIZES = [16, 32, 48, 64, 128, 256, 512] as const;
const ICO_SIZES = [16, 32, 48, 64, 128, 256] as const;
const ICNS_SIZES = [32, 64, 128, 256, 512, 1024] as const;

function main(): void {
  const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../resources/icons');
  fs.mkdirSync(outDir, { recursive: true });
  const pngs = new Map<number, Buffer>();
  for (const size of new Set<number>([...LINUX_SIZES, ...ICO_SIZES, ...ICNS_SIZES])) {
    pngs.set(size, encodePng(size, size, renderIcon(size), { level: 9 }));
  }
  const png = (size: number): Buffer => pngs.get(size)!;
  for (const size of LINUX_SIZES) fs.writeFileSync(path.join(outDir, `${size}x${size}.png`), png(size));
  fs.writeFileSync(path.join(outDir, 'icon.png'), png(1024));
  fs.writeFileSync(path.join(outDir, 'icon.ico'), encodeIco(ICO_SIZES.map((size) => ({ size, png: png(size) }))));
  fs.writeFileSync(path.join(outDir, 'icon.icns'), encodeIcns(ICNS_SIZES.map((size) => ({ size, png: png(size) }))));
  console.log(`icons written to ${outDir}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
