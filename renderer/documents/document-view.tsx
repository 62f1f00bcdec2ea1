import { useLayoutEffect, useRef, useState } from 'react';
import { failureSentence, failureText, needsPassword } from '../../shared/failure.js';
import { APP_REMEDY_WORDS } from '../remedy-words.js';
import type { WorkspaceDocument } from '../../shared/workspace.js';
import { SplitPanes } from '../layout/split-panes.js';
import { MarkdownPane } from '../markdown/markdown-pane.js';
import { PagePane } from '../pages/page-pane.js';
import { PageToolbar } from '../pages/page-toolbar.js';
import { ThumbnailStrip } from '../pages/thumbnail-strip.js';
import { useDocumentSource } from '../pdf/use-document-source.js';
import { useActions, useApi, useFolio } from '../state/store-context.js';
import { ConversionBar } from './conversion-bar.js';
import { PasswordForm } from './password-form.js';

/** The selected document: its progress, its pages, and beside them their Markdown. */
export function DocumentView({ document }: { document: WorkspaceDocument }) {
  const api = useApi();
  const { askToRemove } = useActions();
  const showThumbnails = useFolio((state) => state.showThumbnails);
  const password = useFolio((state) => state.passwords[document.id]);
  const source = useDocumentSource(api, document.id, document.info !== undefined, password);
  const [pagesWidth, setPagesWidth] = useState(0);
  const pagesRef = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const element = pagesRef.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setPagesWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, [document.info]);

  if (document.failure) {
    const locked = needsPassword(document.failure);
    return (
      <section className="document-failed" aria-labelledby="failed-title">
        <h2 id="failed-title">{locked ? `${document.name} needs its password` : `${document.name} could not be opened`}</h2>
        {locked ? (
          <PasswordForm docId={document.id} name={document.name} wrong={document.failure.code === 'wrong-password'} />
        ) : (
          <p role="alert">{failureSentence(failureText(document.failure, APP_REMEDY_WORDS), document.path)}</p>
        )}
        <button type="button" onClick={() => void askToRemove(document.id)}>
          Remove from the list
        </button>
      </section>
    );
  }
  if (!document.info) {
    return (
      <section className="document-opening" aria-busy="true">
        <p>Opening {document.name}…</p>
      </section>
    );
  }

  const fitScale = source.status === 'ready' && source.source.kind !== 'none' ? Math.max(0.1, (pagesWidth - 48) / source.source.firstPage.width) : 1;
  return (
    <section className="document-view" aria-label={document.name}>
      <div className="document-head">
        {/* the file name, as in the list: a PDF's metadata title is often a tool's leftover ("example", "Untitled") */}
        <h2 className="document-title" title={document.info.title ? `Title in the PDF: ${document.info.title}` : undefined}>
          {document.name}
        </h2>
        <ConversionBar document={document} />
      </div>
      <PageToolbar pageCount={document.pages.length} fitScale={fitScale} />
      <SplitPanes
        thumbnails={showThumbnails && source.status === 'ready' ? <ThumbnailStrip document={document} source={source.source} /> : null}
        pages={
          <div className="pages-column" ref={pagesRef}>
            {source.status === 'ready' ? (
              <PagePane document={document} source={source.source} />
            ) : source.status === 'locked' ? (
              <div className="pane-message">
                <PasswordForm docId={document.id} name={document.name} wrong={password !== undefined} />
              </div>
            ) : (
              <p className={source.status === 'failed' ? 'pane-message failed' : 'pane-message'}>{source.status === 'failed' ? source.message : 'Loading pages…'}</p>
            )}
          </div>
        }
        markdown={<MarkdownPane docId={document.id} pageCount={document.pages.length} />}
      />
    </section>
  );
}
