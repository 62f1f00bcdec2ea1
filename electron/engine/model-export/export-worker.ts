/**
 * The exporter's own process, forked by electron/core/model/package-export.ts with one request
 * (`PackageExportOptions`): it writes the package, tells its parent each file it is about to write
 * (so a cancelled export, which is killed, can be cleaned up), its progress and how it ended, then
 * exits. It dies with its parent, as the engine host does.
 */

import type { PackageExportMessage, PackageExportOptions } from '../../../shared/model-export.js';
import { dieWithParent } from '../parent-watchdog.js';
import { exportPackage } from './export-package.js';

function send(message: PackageExportMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send || !process.connected) resolve();
    else process.send(message, undefined, undefined, () => resolve());
  });
}

dieWithParent();
process.once('disconnect', () => process.exit(0));
process.once('message', (options: PackageExportOptions) => {
  void (async () => {
    try {
      const manifestPath = await exportPackage(options, {
        onProgress: (progress) => void send({ kind: 'progress', progress }),
        onWarning: (message) => void send({ kind: 'warning', message }),
        onFile: (file) => void send({ kind: 'file', file }),
      });
      await send({ kind: 'done', manifestPath });
    } catch (error) {
      await send({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
    process.disconnect();
  })();
});
