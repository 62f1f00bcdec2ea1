/**
 * Committed token ids to text deltas. Byte-level BPE tokens are turned back into bytes and decoded
 * with a streaming UTF-8 decoder, so a character split across tokens is emitted whole once its last
 * byte arrives. Added tokens (`<td>`, `<|ref|>`) are emitted whole; BOS, EOS and padding not at all.
 */

import type { Tokenizer } from '@huggingface/tokenizers';

/** GPT-2's printable stand-ins for bytes, inverted: stand-in character -> byte. */
function byteDecoder(): Map<string, number> {
  const printable: number[] = [];
  for (let b = 33; b <= 126; b++) printable.push(b);
  for (let b = 161; b <= 172; b++) printable.push(b);
  for (let b = 174; b <= 255; b++) printable.push(b);
  const map = new Map<string, number>();
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    const code = printable.includes(b) ? b : 256 + extra++;
    map.set(String.fromCodePoint(code), b);
  }
  return map;
}

const BYTES = byteDecoder();

export interface Detokeniser {
  /** Text completed by this token (possibly empty while a character is incomplete). */
  push(id: number): string;
  /** Whatever is left; an incomplete character at the end becomes U+FFFD. */
  flush(): string;
}

/**
 * `onUnknown` hears of an id the tokenizer has no piece for (an id the exporter should have listed
 * in `banned_ids`); it is skipped, so one bad id costs a warning, not the page.
 */
export function createDetokeniser(tokenizer: Tokenizer, silent: readonly number[], onUnknown: (id: number) => void = () => undefined): Detokeniser {
  const added = new Map<number, string>();
  for (const [id, token] of tokenizer.get_added_tokens_decoder()) added.set(id, token.content);
  const utf8 = new TextDecoder('utf-8');
  const skip = new Set(silent);
  return {
    push(id) {
      if (skip.has(id)) return '';
      const special = added.get(id);
      if (special !== undefined) return utf8.decode() + special;
      const piece = tokenizer.id_to_token(id);
      if (piece === undefined || piece === null) {
        onUnknown(id);
        return '';
      }
      const bytes = Uint8Array.from([...piece], (char) => BYTES.get(char) ?? 0x3f);
      return utf8.decode(bytes, { stream: true });
    },
    flush() {
      return utf8.decode();
    },
  };
}
