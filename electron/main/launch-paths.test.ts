import { describe, expect, it } from 'vitest';
import { documentPathsFromArgv } from './launch-paths.js';

const files = new Set(['/home/ana/report.pdf', '/home/ana/scans/page.png', '/tmp/x.pdf']);
const isFile = (file: string) => files.has(file);

describe('documentPathsFromArgv', () => {
  it('takes the files a packaged app is launched with, resolved against the launching folder', () => {
    expect(documentPathsFromArgv(['/opt/Folio/folio-app', 'report.pdf', 'scans/page.png'], '/home/ana', isFile)).toEqual([
      '/home/ana/report.pdf',
      '/home/ana/scans/page.png',
    ]);
  });

  it('skips Electron switches, the app folder of `electron .`, and paths that are not files', () => {
    expect(documentPathsFromArgv(['/usr/bin/electron', '--inspect=9229', '.', 'missing.pdf', '/tmp/x.pdf'], '/home/ana', isFile)).toEqual(['/tmp/x.pdf']);
  });
});
