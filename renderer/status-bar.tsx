import { useState } from 'react';
import { findPage } from './state/folio-store.js';
import { saveState, saveStatusText } from './state/save-state.js';
import { useFolio } from './state/store-context.js';
import { useModelName } from './settings/use-model-name.js';
import { pageReadBy, settingsInUse, type StatusFacts } from './status-facts.js';

/**
 * Two things, never mixed: what the settings will use for the next conversion (engine, model,
 * device), and what read the page in view (its engine, model, device, time). Long words (why a
 * device, a server's address) are short here, in full on hover or a click.
 */
export function StatusBar() {
  const appInfo = useFolio((state) => state.appInfo);
  const settings = useFolio((state) => state.settings);
  const unsaved = useFolio((state) => state.unsavedEdits);
  const focus = useFolio((state) => state.focus.page);
  const saveFailures = useFolio((state) => state.saveFailures);
  const saving = saveState(unsaved, saveFailures);
  const stats = useFolio((state) => (state.selectedDocId ? findPage(state.workspace, state.selectedDocId, state.focus.page)?.result?.stats : undefined));
  const modelName = useModelName(settings.modelDir);
  const next = settingsInUse(settings, modelName, appInfo);

  return (
    <footer className="status-bar" role="status" aria-label="Status">
      <span className="status-group status-settings" aria-label="Settings in use" title="What the next conversion uses, as chosen in Settings">
        <span className="status-heading">Settings:</span>
        <Facts facts={next} />
      </span>
      {stats && (
        <span className="status-group status-page" aria-label={`Page ${focus} was read by`} title={`What read page ${focus}, when it was converted`}>
          <span className="status-heading">Page {focus}:</span>
          <Facts facts={pageReadBy(stats)} />
        </span>
      )}
      <span className="spacer" />
      <span className={`save-state ${saving.kind}`}>{saveStatusText(saving)}</span>
      {appInfo && <span className="version">Folio {appInfo.version}</span>}
    </footer>
  );
}

function Facts({ facts }: { facts: StatusFacts }) {
  return (
    <>
      {facts.map((fact) => (
        <span key={fact.name} className="status-fact">
          {fact.name}: {fact.detail ? <Clipped text={fact.value} detail={fact.detail} /> : <strong>{fact.value}</strong>}
        </span>
      ))}
    </>
  );
}

/** A value with a longer explanation: the value in the bar, the explanation on hover, or opened by a click. */
function Clipped({ text, detail }: { text: string; detail: string }) {
  const [open, setOpen] = useState(false);
  return (
    <span className="status-clipped">
      <button type="button" className="status-more" title={detail} aria-expanded={open} onClick={() => setOpen(!open)} onBlur={() => setOpen(false)}>
        <strong>{text}</strong>
        <span aria-hidden="true"> ⓘ</span>
      </button>
      {open && (
        <span className="status-popover" role="tooltip">
          {detail}
        </span>
      )}
    </span>
  );
}
