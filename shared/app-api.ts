/** What the preload exposes to the renderer as `window.folio`: one method per message. */

export interface AppInfo {
  version: string;
  /** Execution provider ONNX Runtime got, e.g. `cpu`, with the reason. */
  device: string;
  deviceReason: string;
}

export const IPC_CHANNELS = {
  appInfo: 'folio:app-info',
} as const;

export interface FolioApi {
  appInfo(): Promise<AppInfo>;
}
