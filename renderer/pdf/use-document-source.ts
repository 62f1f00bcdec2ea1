import { useEffect, useState } from 'react';
import type { FolioApi } from '../../shared/app-api.js';
import { isPasswordError } from '../../shared/pdf-password.js';
import { openDocumentSource, type DocumentSource } from './document-source.js';

/** `locked`: an encrypted PDF whose password this window has not been given, or not the right one. */
export type SourceState = { status: 'loading' } | { status: 'ready'; source: DocumentSource } | { status: 'locked' } | { status: 'failed'; message: string };

/** The selected document's pages for the page pane; the previous document's are released. */
export function useDocumentSource(api: FolioApi, docId: string | null, openable: boolean, password?: string): SourceState {
  const [state, setState] = useState<SourceState>({ status: 'loading' });
  useEffect(() => {
    if (!docId || !openable) return;
    let live = true;
    let opened: DocumentSource | undefined;
    setState({ status: 'loading' });
    api
      .readDocument(docId)
      .then((bytes) => openDocumentSource(bytes, password))
      .then((source) => {
        opened = source;
        if (live) setState({ status: 'ready', source });
        else source.close();
      })
      .catch((error: unknown) => {
        if (!live) return;
        // a document opened in an earlier session has its pages, but this window no longer has its password
        if (isPasswordError(error)) setState({ status: 'locked' });
        else setState({ status: 'failed', message: `The page preview could not be drawn: ${error instanceof Error ? error.message : String(error)}` });
      });
    return () => {
      live = false;
      opened?.close();
    };
  }, [api, docId, openable, password]);
  return state;
}
