/**
 * JPEG EXIF orientation: every orientation 1–8 is drawn upright, as a photo viewer shows it (checked against
 * ImageMagick's -auto-orient when the expectations below were written), without decoding the JPEG.
 *
 * The photo is a 40 × 20 JPEG, blue, with a red square in its stored top-left corner and a green one in its stored
 * top-right corner; the test writes an EXIF APP1 segment with each orientation into it. The pair of corners where
 * red and green land is different for each of the eight orientations.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsPDF } from 'jspdf';
import type { ImageRun } from '../../../server/engine/model/types.js';
import { prepareImage } from '../../../server/engine/pdf/images.js';
import { drawOriented } from '../../../server/engine/pdf/image/orient.js';
import { countPixels, model, near, para, raster, render } from './helpers.js';
import type { Raster } from './png.js';

const PHOTO = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8QEBEQCgwSExIQEw8QEBD/2wBDAQMDAwQDBAgEBAgQCwkLEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBD/wAARCAAUACgDAREAAhEBAxEB/8QAGQAAAgMBAAAAAAAAAAAAAAAAAAYEBQgH/8QALxAAAQIEAwIPAQAAAAAAAAAAAQAEAgMFEgYRIQcTFBYXMTY3VVaDhKOks7TS0//EABoBAAIDAQEAAAAAAAAAAAAAAAAHBQYJCAT/xAAyEQAABAQCBwUJAAAAAAAAAAAAAQIRAwUGEgQhBxMxN1WDowgWGLTTFyI1U4KisrPS/9oADAMBAAIRAxEAPwDOiRg1THIcedK33hfFCtVOzduwlnO8xFGa+n7eJMeT+iEKBPIJwPGxPrOo3mPrzFz/ANqPdPNuR5mCKxWXwSP9P5pGqFkCESMfcfMV9q+hK/K2M8N2jDhnWxHqjQD2/aROI9GB6QqH793U3cx8+m72fNyuitEOeQAGgAHMAmrTdNyukJXCk0mhavDw7rU3KU1yjWeazUo3UozzM9rFkxBa1BUExqmYxJtNomsjxGuUyUvakklkkkpJkpIsiLY55iOp0QwnUSt1PDlTk1mjOeDvG927mWQx23QmE6RAg6REahV+qaWlNaSmLI55C1uGi23JuUl7VJWn3kKSomUkjyMnZjych5cbgoEwgKw2JTchTOTmWw3LMmPaQauWzad3m9k3/mk/4XNE/CuvifWEF3NknyPuX/QR10ALOBAAIABAAIAP/9k=',
  'base64',
);

/** The photo with an EXIF APP1 segment (big-endian TIFF, one IFD entry: Orientation) right after SOI. */
function photoWithOrientation(orientation: number): string {
  const tiff = Buffer.from([
    0x4d, 0x4d, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x08, // "MM", 42, first IFD at 8
    0x00, 0x01, // one entry
    0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, orientation, 0x00, 0x00, // Orientation, SHORT, 1
    0x00, 0x00, 0x00, 0x00, // no next IFD
  ]);
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const marker = Buffer.from([0xff, 0xe1, 0, 0]);
  marker.writeUInt16BE(body.length + 2, 2);
  const jpeg = Buffer.concat([PHOTO.subarray(0, 2), marker, body, PHOTO.subarray(2)]);
  return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
}

type Corner = 'TL' | 'TR' | 'BL' | 'BR';
/** Where a viewer shows the stored top-left (red) and top-right (green) corners. */
const EXPECTED: Record<number, { red: Corner; green: Corner }> = {
  1: { red: 'TL', green: 'TR' },
  2: { red: 'TR', green: 'TL' },
  3: { red: 'BR', green: 'BL' },
  4: { red: 'BL', green: 'BR' },
  5: { red: 'TL', green: 'BL' },
  6: { red: 'TR', green: 'BR' },
  7: { red: 'BR', green: 'TR' },
  8: { red: 'BL', green: 'TL' },
};

const RED: [number, number, number] = [255, 0, 0];
const GREEN: [number, number, number] = [0, 192, 0];
const BLUE: [number, number, number] = [0, 0, 255];
const WHITE: [number, number, number] = [255, 255, 255];
const DPI = 72;

interface Box { x: number; y: number; w: number; h: number }

/** Upright size: 120 × 60 pt, or 60 × 120 for the orientations that turn the photo a quarter. */
function uprightBox(orientation: number, x: number, y: number): Box {
  return orientation >= 5 ? { x, y, w: 60, h: 120 } : { x, y, w: 120, h: 60 };
}

function mostly(r: Raster, area: Box, colour: [number, number, number]): boolean {
  const n = countPixels(r, DPI, area, (p) => near(p, colour, 45));
  return n >= area.w * area.h * 0.8;
}

/** Checks the colour in each corner of the box (a 6 × 6 pt patch 4 pt inside it) and white just outside it. */
function assertUpright(r: Raster, box: Box, orientation: number): void {
  const patch = (corner: Corner): Box => ({
    x: corner.endsWith('L') ? box.x + 4 : box.x + box.w - 10,
    y: corner.startsWith('T') ? box.y + 4 : box.y + box.h - 10,
    w: 6,
    h: 6,
  });
  const want = EXPECTED[orientation];
  for (const corner of ['TL', 'TR', 'BL', 'BR'] as const) {
    const colour = want.red === corner ? RED : want.green === corner ? GREEN : BLUE;
    const name = colour === RED ? 'red' : colour === GREEN ? 'green' : 'blue';
    assert.ok(mostly(r, patch(corner), colour), `orientation ${orientation}: ${name} in the ${corner} corner`);
  }
  // Exactly the box: white 3 pt outside each edge.
  const outside: Box[] = [
    { x: box.x - 5, y: box.y + box.h / 2, w: 2, h: 2 },
    { x: box.x + box.w + 3, y: box.y + box.h / 2, w: 2, h: 2 },
    { x: box.x + box.w / 2, y: box.y - 5, w: 2, h: 2 },
    { x: box.x + box.w / 2, y: box.y + box.h + 3, w: 2, h: 2 },
  ];
  for (const area of outside) assert.ok(mostly(r, area, WHITE), `orientation ${orientation}: nothing drawn outside the box at ${JSON.stringify(area)}`);
}

test('the EXIF orientation is read from the JPEG header, and its bytes are kept (no decoding)', () => {
  for (let o = 1; o <= 8; o++) {
    const image = prepareImage(photoWithOrientation(o));
    assert.equal(image.format, 'JPEG');
    assert.equal(image.orientation, o === 1 ? undefined : o, `orientation ${o}`);
    assert.equal(image.pixelWidth, 40);
    assert.equal(image.pixelHeight, 20);
    assert.equal(image.data[0], 0xff, 'still the JPEG bytes');
  }
});

test('drawOriented draws each orientation 1–8 upright, filling exactly its box', async () => {
  const doc = new jsPDF({ unit: 'pt', format: 'a4', compress: true, floatPrecision: 3 });
  const boxes = new Map<number, Box>();
  for (let o = 1; o <= 8; o++) {
    const box = uprightBox(o, 40 + ((o - 1) % 4) * 135, o <= 4 ? 60 : 200);
    boxes.set(o, box);
    const image = prepareImage(photoWithOrientation(o));
    drawOriented(doc, image.orientation, box.x, box.y, box.w, box.h, (x, y, w, h) => {
      doc.addImage(image.data, 'JPEG', x, y, w, h, image.key);
    });
  }
  // Something drawn after the images is not affected by their transformation.
  doc.setFillColor(255, 0, 255);
  doc.rect(40, 400, 50, 20, 'F');
  const bytes = new Uint8Array(doc.output('arraybuffer'));
  const r = raster(bytes, 1, DPI);
  for (const [o, box] of boxes) assertUpright(r, box, o);
  assert.ok(mostly(r, { x: 42, y: 402, w: 46, h: 16 }, [255, 0, 255]), 'later drawing in place');
});

test('renderModel draws JPEGs with each EXIF orientation upright at the size the binder gives', async () => {
  for (let o = 1; o <= 8; o++) {
    const box = uprightBox(o, 72, 72);
    const run: ImageRun = { type: 'image', src: photoWithOrientation(o), width: box.w, height: box.h };
    const r = raster(await render(model([para([run])])), 1, DPI);
    assertUpright(r, box, o);
  }
});
