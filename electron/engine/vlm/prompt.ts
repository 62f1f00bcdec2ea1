/**
 * The prompt's token ids: the package's plain prompt (BOS prepended) or its chat template rendered
 * with @huggingface/jinja, tokenised with @huggingface/tokenizers, the single `<image>` expanded to
 * one id per visual token.
 */

import { Template } from '@huggingface/jinja';
import { Tokenizer } from '@huggingface/tokenizers';
import type { Manifest } from '../../core/model/manifest.js';

const IMAGE = '<image>';
/** jina-ocr-v1's instruction, used with a chat template (see shared/MODEL-NOTES.md). */
const CHAT_INSTRUCTION = 'Transcribe the provided document image into a clean Markdown format, preserving the natural reading order.';

export function loadTokenizer(tokenizerJson: string): Tokenizer {
  return new Tokenizer(JSON.parse(tokenizerJson) as object, {});
}

function promptText(manifest: Manifest): string {
  const prompt = manifest.prompt;
  if (prompt.kind === 'plain') return prompt.template;
  const special = (id: number): string => Object.entries(manifest.tokens.special).find(([, value]) => value === id)?.[0] ?? '';
  return new Template(prompt.template).render({
    messages: [{ role: 'user', content: `${IMAGE}\n${CHAT_INSTRUCTION}` }],
    add_generation_prompt: true,
    bos_token: special(manifest.tokens.bos),
    eos_token: special(manifest.tokens.eos),
  });
}

export function promptIds(manifest: Manifest, tokenizer: Tokenizer, visualTokens: number): number[] {
  const imageId = manifest.tokens.special[IMAGE];
  if (imageId === undefined) throw new Error('manifest.json names no <image> token');
  const parts = promptText(manifest).split(IMAGE);
  if (parts.length !== 2) throw new Error(`the package's prompt must hold exactly one ${IMAGE}, it holds ${parts.length - 1}`);
  const encode = (text: string): number[] => (text ? tokenizer.encode(text, { add_special_tokens: false }).ids : []);
  const bos = manifest.prompt.kind === 'plain' && manifest.prompt.bos === 'prepend' ? [manifest.tokens.bos] : [];
  return [...bos, ...encode(parts[0] ?? ''), ...Array<number>(visualTokens).fill(imageId), ...encode(parts[1] ?? '')];
}
