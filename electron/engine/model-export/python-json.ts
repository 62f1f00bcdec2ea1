/**
 * JSON and value texts as Python writes them, so that a package's manifest and the exporter's
 * messages read as they did when tools/model's Python wrote them: `json.dumps(indent=2)` (floats as
 * Python's repr, `4.0` and `1e-06`; non-ASCII escaped) and `repr()` of config values
 * (`'sigmoid'`, `None`, `True`).
 */

/** A number Python holds as a float: written `4.0`, not `4`. */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** Python's float repr: the shortest digits that read back, scientific below 1e-4 and from 1e16. */
export function floatRepr(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const [mantissa, exponentText] = value.toExponential().split('e') as [string, string];
  const exponent = Number(exponentText);
  const sign = mantissa.startsWith('-') ? '-' : '';
  const digits = mantissa.replace('-', '').replace('.', '');
  if (exponent < -4 || exponent >= 16) {
    const body = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${body}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fraction = digits.slice(exponent + 1);
  return `${sign}${whole}.${fraction || '0'}`;
}

function quoteAscii(text: string): string {
  return JSON.stringify(text).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `json.dumps(value, indent=2)`. */
export function pythonJson(value: unknown, indent = 2, level = 0): string {
  if (value instanceof PyFloat) return floatRepr(value.value);
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : floatRepr(value);
  if (typeof value === 'string') return quoteAscii(value);
  const pad = ' '.repeat(indent * (level + 1));
  const end = ' '.repeat(indent * level);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => pad + pythonJson(item, indent, level + 1)).join(',\n')}\n${end}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([key, item]) => `${pad}${quoteAscii(key)}: ${pythonJson(item, indent, level + 1)}`).join(',\n')}\n${end}}`;
}

function stringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = '';
  for (const c of text) {
    if (c === '\\') out += '\\\\';
    else if (c === quote) out += `\\${quote}`;
    else if (c === '\n') out += '\\n';
    else if (c === '\r') out += '\\r';
    else if (c === '\t') out += '\\t';
    else if (c < ' ' || c === '\u007f') out += `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
    else out += c;
  }
  return quote + out + quote;
}

/** Python's `repr()` of a JSON value (numbers that are whole read as ints). */
export function pythonRepr(value: unknown): string {
  if (value instanceof PyFloat) return floatRepr(value.value);
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : floatRepr(value);
  if (typeof value === 'string') return stringRepr(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${stringRepr(k)}: ${pythonRepr(v)}`).join(', ')}}`;
}
