/** The body of one streaming `/v1/chat/completions` request for one page image, sent as a data URL. */

import type { RemoteImageFormat, RemoteOptions } from '../../../shared/protocol.js';
import { modelPreset } from './model-presets.js';

export function chatRequestBody(options: RemoteOptions, imageUrl: string): Record<string, unknown> {
  const preset = modelPreset(options.model);
  return {
    model: options.model,
    messages: [
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: imageUrl } },
          { type: 'text', text: options.prompt ?? preset.prompt },
        ],
      },
    ],
    stream: true,
    // the last chunk then carries the token count for the page's stats
    stream_options: { include_usage: true },
    max_tokens: options.maxTokens,
    temperature: 0,
    ...(options.extraBody ?? preset.extraBody),
  };
}

/** The page image inline in the request, as servers that cannot fetch a URL expect. */
export function imageDataUrl(bytes: Uint8Array, format: RemoteImageFormat): string {
  return `data:image/${format};base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}`;
}
