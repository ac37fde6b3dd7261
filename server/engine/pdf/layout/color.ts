/** Colours as the model writes them (`#rrggbb`, also `rrggbb`, `#rgb` and Word's highlight names) → RGB. */

export type Rgb = readonly [number, number, number];

const NAMED: Record<string, Rgb> = {
  black: [0, 0, 0], white: [255, 255, 255], yellow: [255, 255, 0], green: [0, 255, 0], cyan: [0, 255, 255],
  magenta: [255, 0, 255], blue: [0, 0, 255], red: [255, 0, 0], darkblue: [0, 0, 128], darkcyan: [0, 128, 128],
  darkgreen: [0, 128, 0], darkmagenta: [128, 0, 128], darkred: [128, 0, 0], darkyellow: [128, 128, 0],
  darkgray: [128, 128, 128], lightgray: [192, 192, 192], gray: [128, 128, 128], grey: [128, 128, 128],
  orange: [255, 165, 0],
};

const cache = new Map<string, Rgb | null>();

/** The RGB of a colour, or null for none/auto/unreadable (the caller then draws nothing or its default). */
export function parseColor(value: string | undefined | null): Rgb | null {
  if (!value || typeof value !== 'string') return null;
  const hit = cache.get(value);
  if (hit !== undefined) return hit;
  const v = value.trim().toLowerCase();
  const hex = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/.exec(v);
  let rgb: Rgb | null;
  if (hex) {
    const h = hex[1].length === 3 ? hex[1].replace(/./g, '$&$&') : hex[1];
    rgb = [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)];
  } else {
    rgb = NAMED[v] ?? null;
  }
  if (cache.size < 4096) cache.set(value, rgb);
  return rgb;
}
