import { useEffect, useState } from 'react';
import type { FolioApi } from '../../shared/app-api.js';
import { openDocumentSource, type DocumentSource } from './document-source.js';

export type SourceState = { status: 'loading' } | { status: 'ready'; source: DocumentSource } | { status: 'failed'; message: string };

/** The selected document's pages for the page pane; the previous document's are released. */
export function useDocumentSource(api: FolioApi, docId: string | null, openable: boolean): SourceState {
  const [state, setState] = useState<SourceState>({ status: 'loading' });
  useEffect(() => {
    if (!docId || !openable) return;
    let live = true;
    let opened: DocumentSource | undefined;
    setState({ status: 'loading' });
    api
      .readDocument(docId)
      .then(openDocumentSource)
      .then((source) => {
        opened = source;
        if (live) setState({ status: 'ready', source });
        else source.close();
      })
      .catch((error: unknown) => {
        if (live) setState({ status: 'failed', message: `The page preview could not be drawn: ${error instanceof Error ? error.message : String(error)}` });
      });
    return () => {
      live = false;
      opened?.close();
    };
  }, [api, docId, openable]);
  return state;
}
