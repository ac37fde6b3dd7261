/**
 * Arabic shaping: each letter becomes its isolated / final / initial / medial presentation form (Unicode
 * Arabic Presentation Forms A and B) from its neighbours, and lam + alef become one ligature. The bundled Noto
 * Sans Arabic maps those code points, so shaped text draws without OpenType layout (which jsPDF lacks).
 * Input and output are in logical order; bidi reordering happens later, per line.
 */

/** [letter, first presentation form, number of forms]: 4 = dual-joining (isol, fina, init, medi), 2 = right-joining (isol, fina). */
const FORMS: Array<[number, number, 1 | 2 | 4]> = [
  [0x0621, 0xfe80, 1], [0x0622, 0xfe81, 2], [0x0623, 0xfe83, 2], [0x0624, 0xfe85, 2], [0x0625, 0xfe87, 2],
  [0x0626, 0xfe89, 4], [0x0627, 0xfe8d, 2], [0x0628, 0xfe8f, 4], [0x0629, 0xfe93, 2], [0x062a, 0xfe95, 4],
  [0x062b, 0xfe99, 4], [0x062c, 0xfe9d, 4], [0x062d, 0xfea1, 4], [0x062e, 0xfea5, 4], [0x062f, 0xfea9, 2],
  [0x0630, 0xfeab, 2], [0x0631, 0xfead, 2], [0x0632, 0xfeaf, 2], [0x0633, 0xfeb1, 4], [0x0634, 0xfeb5, 4],
  [0x0635, 0xfeb9, 4], [0x0636, 0xfebd, 4], [0x0637, 0xfec1, 4], [0x0638, 0xfec5, 4], [0x0639, 0xfec9, 4],
  [0x063a, 0xfecd, 4], [0x0641, 0xfed1, 4], [0x0642, 0xfed5, 4], [0x0643, 0xfed9, 4], [0x0644, 0xfedd, 4],
  [0x0645, 0xfee1, 4], [0x0646, 0xfee5, 4], [0x0647, 0xfee9, 4], [0x0648, 0xfeed, 2], [0x0649, 0xfeef, 2],
  [0x064a, 0xfef1, 4],
  // Persian and Urdu letters (Presentation Forms-A).
  [0x0671, 0xfb50, 2], [0x0679, 0xfb66, 4], [0x067e, 0xfb56, 4], [0x0686, 0xfb7a, 4], [0x0688, 0xfb88, 2],
  [0x0691, 0xfb8c, 2], [0x0698, 0xfb8a, 2], [0x06a4, 0xfb6a, 4], [0x06a9, 0xfb8e, 4], [0x06af, 0xfb92, 4],
  [0x06ba, 0xfb9e, 2], [0x06be, 0xfbaa, 4], [0x06c1, 0xfba6, 4], [0x06cc, 0xfbfc, 4], [0x06d2, 0xfbae, 2],
];

const formsOf = new Map<number, { first: number; count: 1 | 2 | 4 }>(FORMS.map(([c, first, count]) => [c, { first, count }]));

const TATWEEL = 0x0640;
const ZWJ = 0x200d;
const LAM = 0x0644;
/** Alef variants that form a ligature after lam → [isolated ligature]; the final form is the next code point. */
const LAM_ALEF: Record<number, number> = { 0x0622: 0xfef5, 0x0623: 0xfef7, 0x0625: 0xfef9, 0x0627: 0xfefb };

/** Marks that sit on a letter without breaking its joins (harakat, superscript alef, Quranic marks). */
function isTransparent(cp: number): boolean {
  return (
    (cp >= 0x0610 && cp <= 0x061a) ||
    (cp >= 0x064b && cp <= 0x065f) ||
    cp === 0x0670 ||
    (cp >= 0x06d6 && cp <= 0x06dc) ||
    (cp >= 0x06df && cp <= 0x06e4) ||
    cp === 0x06e7 ||
    cp === 0x06e8 ||
    (cp >= 0x06ea && cp <= 0x06ed)
  );
}

type Joining = 'D' | 'R' | 'C' | 'U';

function joiningOf(cp: number): Joining {
  if (cp === TATWEEL || cp === ZWJ) return 'C';
  const f = formsOf.get(cp);
  if (!f || f.count === 1) return 'U';
  return f.count === 4 ? 'D' : 'R';
}

export function hasArabic(text: string): boolean {
  return /[\u0600-\u06ff]/.test(text);
}

/** Shapes the Arabic letters of `text` (logical order in, logical order out; other characters untouched). */
export function shapeArabic(text: string): string {
  const cps = Array.from(text, (c) => c.codePointAt(0)!);
  const n = cps.length;
  const out: number[] = [];
  // Neighbour lookups skip transparent marks.
  const prevIndex = (i: number): number => {
    let j = i - 1;
    while (j >= 0 && isTransparent(cps[j])) j--;
    return j;
  };
  const nextIndex = (i: number): number => {
    let j = i + 1;
    while (j < n && isTransparent(cps[j])) j++;
    return j;
  };
  for (let i = 0; i < n; i++) {
    const cp = cps[i];
    const forms = formsOf.get(cp);
    if (!forms) {
      out.push(cp);
      continue;
    }
    const p = prevIndex(i);
    const joinsPrev = p >= 0 && (joiningOf(cps[p]) === 'D' || joiningOf(cps[p]) === 'C') && forms.count > 1;
    if (cp === LAM) {
      const nx = i + 1;
      const lig = nx < n ? LAM_ALEF[cps[nx]] : undefined;
      if (lig !== undefined) {
        out.push(joinsPrev ? lig + 1 : lig);
        i = nx;
        continue;
      }
    }
    const nIdx = nextIndex(i);
    const nextJ = nIdx < n ? joiningOf(cps[nIdx]) : 'U';
    const joinsNext = forms.count === 4 && (nextJ === 'D' || nextJ === 'R' || nextJ === 'C');
    let form: number;
    if (joinsPrev && joinsNext) form = 3;
    else if (joinsPrev) form = 1;
    else if (joinsNext) form = 2;
    else form = 0;
    out.push(forms.first + form);
  }
  let result = '';
  // fromCodePoint takes arguments: chunk so that very long runs stay within the engine's argument limit.
  for (let i = 0; i < out.length; i += 4096) result += String.fromCodePoint(...out.slice(i, i + 4096));
  return result;
}
