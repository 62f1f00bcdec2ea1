import { describe, expect, it } from 'vitest';
import { parseCommandLine } from './cli-args.js';

const convert = async (...flags: string[]) => {
  const command = await parseCommandLine(['convert', 'a.pdf', '-o', 'out', ...flags]);
  if (command.kind !== 'convert') throw new Error(`expected a convert command, got ${command.kind}`);
  return command.request;
};

describe('--pages-in-flight', () => {
  it('takes a number of pages from 1 to 16 or auto', async () => {
    expect((await convert('--model', 'm', '--pages-in-flight', '4')).vlm?.pagesInFlight).toBe(4);
    expect((await convert('--model', 'm', '--pages-in-flight', '16')).vlm?.pagesInFlight).toBe(16);
    expect((await convert('--model', 'm', '--pages-in-flight', 'auto')).vlm?.pagesInFlight).toBe('auto');
    expect((await convert('--model', 'm')).vlm?.pagesInFlight).toBeUndefined();
  });

  it('says what it takes when given anything else', async () => {
    for (const text of ['0', '17', '2.5', 'Auto', 'many']) {
      await expect(convert('--model', 'm', '--pages-in-flight', text)).rejects.toThrow(`--pages-in-flight "${text}" is not auto or a whole number from 1 to 16.`);
    }
  });

  it('is a vlm setting: without a model package, or with a remote server, it is refused', async () => {
    await expect(convert('--pages-in-flight', 'auto')).rejects.toThrow('--pages-in-flight sets up the vlm engine');
    await expect(convert('--server', 'http://gpu:8000', '--model', 'm', '--pages-in-flight', 'auto')).rejects.toThrow('--pages-in-flight is a vlm engine setting');
  });
});
