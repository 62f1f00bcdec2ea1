/** Engine names as a person reads them; an engine added later shows under its own name. */
const LABELS: Readonly<Record<string, string>> = {
  auto: 'Automatic',
  text: 'Text layer',
  vlm: 'Vision model (VLM)',
  remote: 'Remote server',
  lite: 'Scan OCR (lite)',
};

export function engineLabel(engine: string): string {
  return LABELS[engine] ?? engine;
}
