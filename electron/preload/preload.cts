// Sandboxed preloads load as CommonJS, hence `.cts`. The renderer sees only `window.folio`.
import electron = require('electron');
import type { AppInfo, FolioApi } from '../../shared/app-api.js';

// Sandboxed preloads cannot require project files, so the channel name is repeated here; the
// `satisfies` below keeps it in step with shared/app-api.ts.
const api = {
  appInfo: () => electron.ipcRenderer.invoke('folio:app-info') as Promise<AppInfo>,
} satisfies Pick<FolioApi, 'appInfo'>;

electron.contextBridge.exposeInMainWorld('folio', api);
