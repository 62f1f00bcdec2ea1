import { findPage } from './state/folio-store.js';
import { saveState, saveStatusText } from './state/save-state.js';
import { useFolio } from './state/store-context.js';
import { engineLabel } from './settings/engine-label.js';
import { useModelName } from './settings/use-model-name.js';

/** What is converting and where: engine, device and why, model, tokens/s and tokens per step. */
export function StatusBar() {
  const appInfo = useFolio((state) => state.appInfo);
  const settings = useFolio((state) => state.settings);
  const unsaved = useFolio((state) => state.unsavedEdits);
  const saveFailures = useFolio((state) => state.saveFailures);
  const saving = saveState(unsaved, saveFailures);
  const stats = useFolio((state) => (state.selectedDocId ? findPage(state.workspace, state.selectedDocId, state.focus.page)?.result?.stats : undefined));
  const device = stats?.device ?? appInfo?.device;
  const reason = stats?.reason ?? appInfo?.deviceReason;
  const model = useModelName(settings.modelDir);
  const tokensPerSecond = stats?.tokens && stats.timeMs > 0 ? stats.tokens / (stats.timeMs / 1000) : undefined;

  return (
    <footer className="status-bar" role="status" aria-label="Status">
      <span title="The engine that converted the page in view, or the one chosen in settings">
        Engine: <strong>{stats ? engineLabel(stats.engine) : engineLabel(settings.engine)}</strong>
      </span>
      <span className="status" title={reason}>
        Device: <strong>{device ?? 'starting…'}</strong>
        {reason ? ` (${reason})` : ''}
      </span>
      <span className="model" title={model}>
        Model: <strong>{model}</strong>
      </span>
      {tokensPerSecond !== undefined && <span>{tokensPerSecond.toFixed(1)} tokens/s</span>}
      {stats?.tokensPerStep !== undefined && <span>{stats.tokensPerStep.toFixed(2)} tokens/step</span>}
      <span className="spacer" />
      <span className={`save-state ${saving.kind}`}>{saveStatusText(saving)}</span>
      {appInfo && <span className="version">Folio {appInfo.version}</span>}
    </footer>
  );
}
