/**
 * Where JSON text first goes wrong, with a line and column a person can find. Browsers' JSON.parse messages
 * differ and often give no position, so this small scanner (the JSON grammar, nothing more) finds it.
 */

export interface JsonProblem {
  line: number;
  column: number;
  message: string;
}

class Stop extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

function describeChar(text: string, at: number): string {
  return at >= text.length ? 'the text ends' : `unexpected “${text[at]}”`;
}

/** Null when the text is valid JSON. */
export function findJsonProblem(text: string): JsonProblem | null {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const expect = (what: string): never => {
    throw new Stop(i, `${describeChar(text, i)}, expected ${what}`);
  };

  const string = (): void => {
    i++; // opening quote
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) expect('four hex digits after \\u');
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? '')) expect('an escape such as \\n or \\"');
      } else if (text.charCodeAt(i) < 0x20) {
        throw new Stop(i, 'a line break inside a text value (write \\n instead)');
      }
      i++;
    }
    if (i >= text.length) throw new Stop(i, 'a text value is never closed with "');
    i++;
  };

  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') expect('a property name in double quotes');
        string();
        ws();
        if (text[i] !== ':') expect('“:”');
        i++;
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        expect('“,” or “}”');
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        expect('“,” or “]”');
      }
    }
    if (c === '"') return string();
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (literal) {
      i += literal[0].length;
      return;
    }
    expect('a value (text in double quotes, a number, true, false, null, { or [)');
  };

  try {
    value();
    ws();
    if (i < text.length) expect('nothing more after the end');
    return null;
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
    const before = text.slice(0, err.offset);
    const line = before.split('\n').length;
    const column = err.offset - before.lastIndexOf('\n');
    return { line, column, message: err.message };
  }
}
