/**
 * What each model wants with its page image when served by vLLM: the instruction, and the sampling
 * extras its card documents. Picked by the served model's name; ConvertOptions can override both.
 */

export interface ModelPreset {
  family: 'deepseek-ocr' | 'jina-ocr';
  prompt: string;
  extraBody: Record<string, unknown>;
}

/** DeepSeek-OCR's document prompt; vLLM's chat template puts the `<image>` before it. */
const DEEPSEEK_PROMPT = '<|grounding|>Convert the document to markdown.';
/** jina-ocr-v1's instruction (shared/MODEL-NOTES.md); also the plain-Markdown fallback for other models. */
const JINA_PROMPT = 'Transcribe the provided document image into a clean Markdown format, preserving the natural reading order.';
/** `<td>` and `</td>`, which tables repeat legitimately. */
const TABLE_CELL_TOKENS = [128821, 128822];

export function modelPreset(model: string): ModelPreset {
  if (/deepseek[-_]?ocr/i.test(model)) {
    return {
      family: 'deepseek-ocr',
      prompt: DEEPSEEK_PROMPT,
      extraBody: {
        // grounding and table tags are special tokens; without this vLLM drops them from the text
        skip_special_tokens: false,
        // read by vLLM's NGramPerReqLogitsProcessor for DeepSeek-OCR (started with --logits_processors)
        vllm_xargs: { ngram_size: 30, window_size: 90, whitelist_token_ids: TABLE_CELL_TOKENS },
      },
    };
  }
  // jina-ocr-v1's speculative decoding is set on the server; vLLM refuses custom logits processors with it
  return { family: 'jina-ocr', prompt: JINA_PROMPT, extraBody: {} };
}
