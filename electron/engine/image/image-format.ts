/** Which page-image format a file holds, told from its first bytes (names lie; magic numbers rarely do). */

export type ImageFormat = 'png' | 'jpeg' | 'tiff' | 'webp' | 'gif' | 'bmp';

const SIGNATURES: readonly (readonly [ImageFormat, readonly (number | null)[]])[] = [
  ['png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['jpeg', [0xff, 0xd8, 0xff]],
  ['tiff', [0x49, 0x49, 0x2a, 0x00]],
  ['tiff', [0x4d, 0x4d, 0x00, 0x2a]],
  // RIFF....WEBP
  ['webp', [0x52, 0x49, 0x46, 0x46, null, null, null, null, 0x57, 0x45, 0x42, 0x50]],
  ['gif', [0x47, 0x49, 0x46, 0x38]],
  ['bmp', [0x42, 0x4d]],
];

export function imageFormatOf(bytes: Uint8Array): ImageFormat | null {
  for (const [format, signature] of SIGNATURES) {
    if (signature.every((byte, i) => byte === null || bytes[i] === byte)) return format;
  }
  return null;
}
