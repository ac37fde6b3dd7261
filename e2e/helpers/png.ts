/** A small solid-colour PNG built in memory (for the image field), so the tests need no picture files. */
export { solidPng } from '../../scripts/lib/png.js';
