import { describe, expect, it } from 'vitest';
import { failureSentence, needsPassword } from './failure.js';

describe('failureSentence', () => {
  it('drops the file the message leads with and starts the rest as a sentence', () => {
    expect(failureSentence('/docs/a: b.pdf: damaged PDF that cannot be repaired (Invalid PDF structure.).', '/docs/a: b.pdf')).toBe(
      'Damaged PDF that cannot be repaired (Invalid PDF structure.).',
    );
    expect(failureSentence('the engine crashed while reading it (exit code 70).')).toBe('The engine crashed while reading it (exit code 70).');
  });

  it('keeps a message that does not lead with the file as it is, but for its first letter', () => {
    expect(failureSentence('/other.pdf: no such file.', '/docs/b.pdf')).toBe('/other.pdf: no such file.');
    expect(failureSentence('', '/docs/b.pdf')).toBe('');
  });
});

describe('needsPassword', () => {
  it('is true only for a document a password would open', () => {
    expect(needsPassword({ code: 'encrypted', message: '' })).toBe(true);
    expect(needsPassword({ code: 'wrong-password', message: '' })).toBe(true);
    expect(needsPassword({ code: 'damaged', message: '' })).toBe(false);
    expect(needsPassword(undefined)).toBe(false);
  });
});
