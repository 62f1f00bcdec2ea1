import type { FolioApi } from '../shared/app-api.js';

declare global {
  interface Window {
    folio: FolioApi;
  }
}
