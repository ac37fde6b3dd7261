/**
 * Packaging: electron-builder.yml, checked by electron-builder's own loader and schema validator, and the
 * icon set in resources/icons (decoded here: PNG chunks and CRCs, ICO and ICNS directories).
 * Building installers needs the Electron binary, which cannot be downloaded here; see docs/desktop.md.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { DebugLogger, log as builderLog } from 'builder-util';
import { crc32, encodePng, PNG_SIGNATURE } from '../../scripts/lib/png.js';
import { ROOT } from './helpers/node-fork.js';

const ICONS = path.join(ROOT, 'resources', 'icons');

interface Png {
  width: number;
  height: number;
  pixels: Buffer;
}

/** Decodes an 8-bit RGBA, non-interlaced PNG with filter 0 (what scripts/lib/png.ts writes for the icons), checking every CRC. */
function decodePng(bytes: Buffer): Png {
  assert.ok(bytes.subarray(0, 8).equals(PNG_SIGNATURE), 'PNG signature');
  let offset = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  const types: string[] = [];
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('ascii', offset + 4, offset + 8);
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    assert.equal(bytes.readUInt32BE(offset + 8 + length), crc32(bytes.subarray(offset + 4, offset + 8 + length)), `${type} CRC`);
    types.push(type);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      assert.deepEqual([...data.subarray(8)], [8, 6, 0, 0, 0], 'RGBA, 8 bits, no interlace');
    }
    if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  assert.deepEqual([types[0], types.at(-1)], ['IHDR', 'IEND']);
  const raw = zlib.inflateSync(Buffer.concat(idat));
  assert.equal(raw.length, height * (1 + width * 4));
  const pixels = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    assert.equal(raw[y * (1 + width * 4)], 0, 'filter 0');
    raw.copy(pixels, y * width * 4, y * (1 + width * 4) + 1, (y + 1) * (1 + width * 4));
  }
  return { width, height, pixels };
}

describe('icons', () => {
  it('the PNG writer round-trips pixels', () => {
    const rgba = Buffer.from(Array.from({ length: 3 * 2 * 4 }, (_, i) => (i * 37) % 256));
    const decoded = decodePng(encodePng(3, 2, rgba));
    assert.deepEqual([decoded.width, decoded.height], [3, 2]);
    assert.ok(decoded.pixels.equals(rgba));
  });

  for (const size of [16, 32, 48, 64, 128, 256, 512]) {
    it(`${size}x${size}.png is a valid ${size}×${size} image with a transparent corner and an opaque centre`, () => {
      const png = decodePng(fs.readFileSync(path.join(ICONS, `${size}x${size}.png`)));
      assert.deepEqual([png.width, png.height], [size, size]);
      assert.equal(png.pixels[3], 0, 'corner transparent (rounded square)');
      const centre = ((size / 2) * size + size / 2) * 4;
      assert.equal(png.pixels[centre + 3], 255, 'centre opaque');
    });
  }

  it('icon.png is 1024×1024', () => {
    const png = decodePng(fs.readFileSync(path.join(ICONS, 'icon.png')));
    assert.deepEqual([png.width, png.height], [1024, 1024]);
  });

  it('icon.ico holds PNG entries up to 256 px', () => {
    const ico = fs.readFileSync(path.join(ICONS, 'icon.ico'));
    assert.deepEqual([ico.readUInt16LE(0), ico.readUInt16LE(2)], [0, 1]);
    const count = ico.readUInt16LE(4);
    const sizes: number[] = [];
    for (let i = 0; i < count; i++) {
      const entry = 6 + i * 16;
      const size = ico[entry] === 0 ? 256 : ico[entry]!;
      const png = decodePng(ico.subarray(ico.readUInt32LE(entry + 12), ico.readUInt32LE(entry + 12) + ico.readUInt32LE(entry + 8)));
      assert.equal(png.width, size);
      sizes.push(size);
    }
    assert.ok(sizes.includes(256), 'electron-builder needs a 256 px entry');
  });

  it('icon.icns holds PNG entries up to 1024 px', () => {
    const icns = fs.readFileSync(path.join(ICONS, 'icon.icns'));
    assert.equal(icns.toString('ascii', 0, 4), 'icns');
    assert.equal(icns.readUInt32BE(4), icns.length);
    const found: Record<string, number> = {};
    for (let offset = 8; offset < icns.length; ) {
      const type = icns.toString('ascii', offset, offset + 4);
      const length = icns.readUInt32BE(offset + 4);
      found[type] = decodePng(icns.subarray(offset + 8, offset + length)).width;
      offset += length;
    }
    assert.deepEqual(found, { ic11: 32, ic12: 64, ic07: 128, ic08: 256, ic09: 512, ic10: 1024 });
  });
});

describe('electron-builder.yml', () => {
  it('passes electron-builder\'s own schema validation and packs what the app needs', async (t) => {
    // electron-builder logs to process.stdout in pieces ("• loaded configuration …"), which the test runner reads
    // as its own channel: interleaved with its messages they once made it fail ("Unable to deserialize cloned
    // data"). Its lines are collected here and passed on as one diagnostic.
    const logged: string[] = [];
    (builderLog as unknown as { stream: { write(chunk: string): boolean } }).stream = { write: (chunk) => logged.push(chunk) > 0 };
    t.after(() => logged.length && t.diagnostic(logged.join('').trim()));
    const config = await getConfig(ROOT, path.join(ROOT, 'electron-builder.yml'), null);
    await validateConfiguration(config, new DebugLogger(false));

    assert.deepEqual(config.linux?.target, ['AppImage', 'deb']);
    assert.equal(config.mac?.target, 'dmg');
    assert.equal(config.win?.target, 'nsis');
    assert.equal(config.asar, true);

    // The loader normalises `files` to [{ filter: [...] }].
    const files = (config.files as Array<string | { filter?: string[] }>).flatMap((entry) =>
      typeof entry === 'string' ? [entry] : (entry.filter ?? []),
    );
    for (const pattern of ['package.json', 'dist/electron/**/*', 'dist/server/**/*', 'dist/renderer/**/*', '!dist/electron/tools/**']) {
      assert.ok(files.includes(pattern), pattern);
    }
    const extra = config.extraResources as Array<{ from: string; to: string }>;
    assert.deepEqual(
      extra.filter((entry) => entry.from.startsWith('resources/')).map((entry) => [entry.from, entry.to]),
      [
        ['resources/fonts', 'resources/fonts'],
        ['resources/templates', 'resources/templates'],
      ],
    );
    const associations = config.fileAssociations as Array<{ ext: string; icon?: string }>;
    assert.deepEqual(associations.map((a) => a.ext), ['docloom']);

    for (const icon of [config.mac?.icon, config.win?.icon, `${associations[0]!.icon}.icns`, `${associations[0]!.icon}.ico`]) {
      assert.ok(icon && fs.existsSync(path.join(ROOT, icon)), `${icon} exists`);
    }
    assert.ok(fs.existsSync(path.join(ROOT, config.linux!.icon as string, '512x512.png')));
  });

  it('package.json starts the app from the compiled main process and has the dist script', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { main: string; scripts: Record<string, string> };
    assert.equal(pkg.main, 'dist/electron/main.js');
    assert.equal(pkg.scripts.start, 'electron .');
    assert.match(pkg.scripts.dist!, /electron-builder --config electron-builder\.yml/);
  });
});
