/**
 * Compressing jsPDF's page streams in linear time. jsPDF's FlateEncode filter (used for every page's content
 * stream when `compress: true`) turns the deflated bytes back into its binary string with
 * `bytes.reduce((s, b) => s + String.fromCharCode(b), '')`: one string concatenation per byte, so every page
 * leaves tens of thousands of short-lived strings for the collector. On a 76-page agreement that was a quarter of
 * the render's time in garbage collection. jsPDF looks the filter chain up on its plugin API
 * (`jsPDF.API.processDataByFilters`) for every stream, so this replaces it, once per process, with the same chain
 * where FlateEncode converts in one step; every other filter goes to jsPDF's own code unchanged.
 */
import { jsPDF } from 'jspdf';
import { zlibDeflate } from '../flate.js';

interface FilterResult {
  data: string;
  reverseChain: string;
}
type ProcessDataByFilters = (data: string, filters: string | string[]) => FilterResult;

const api = jsPDF.API as unknown as { processDataByFilters: ProcessDataByFilters; docloomFlate?: true };

/**
 * jsPDF's level. Measured on corpus files' page streams: level 3 takes half of level 6's time, but a 313-page
 * document's streams grow by a fifth; the deflate is a tenth of the render either way, so size wins.
 */
const LEVEL = 6;

function flate(binary: string): string {
  // 'latin1' maps each char code 0–255 to one byte and back: a jsPDF binary string is exactly that.
  return zlibDeflate(Buffer.from(binary, 'latin1'), LEVEL).toString('latin1');
}

if (!api.docloomFlate) {
  const original = api.processDataByFilters;
  // eslint-disable-next-line no-restricted-syntax -- installed once per process: a long-lived method belongs in old space.
  api.processDataByFilters = function processDataByFilters(data: string, filters: string | string[]): FilterResult {
    const chain = typeof filters === 'string' ? [filters] : filters ?? [];
    if (!chain.every((f) => f === 'FlateEncode' || f === '/FlateEncode')) return original.call(this, data, filters);
    let out = data ?? '';
    for (let i = 0; i < chain.length; i++) out = flate(out);
    return { data: out, reverseChain: chain.map(() => '/FlateDecode').join(' ') };
  };
  api.docloomFlate = true;
}
