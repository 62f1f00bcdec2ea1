import { useState } from 'react';
import { ENGINE_CHOICES, type EngineChoice } from '../../shared/engine-name.js';
import type { Settings } from '../../shared/settings.js';
import { engineLabel } from '../settings/engine-label.js';
import { useActions, useFolio } from '../state/store-context.js';
import { Modal } from './modal.js';

/** Settings apply as they are changed; main validates and saves them. */
export function SettingsDialog() {
  const settings = useFolio((state) => state.settings);
  const { updateSettings, openDialog } = useActions();
  const [modelDir, setModelDir] = useState(settings.modelDir ?? '');
  const [mode, setMode] = useState(settings.mode ?? '');
  const [maxTokens, setMaxTokens] = useState(String(settings.maxNewTokens));
  const change = (patch: Partial<Settings>) => void updateSettings(patch);
  const close = () => {
    // text fields apply when the dialog closes, so a half-typed path is never tried
    change({ modelDir: modelDir.trim() || null, mode: mode.trim() || null, ...tokenLimit(maxTokens, settings.maxNewTokens) });
    openDialog(null);
  };

  return (
    <Modal
      title="Settings"
      onClose={close}
      actions={
        <button type="submit" className="primary" onClick={close}>
          Done
        </button>
      }
    >
      <label className="field">
        Engine
        <select value={settings.engine} onChange={(event) => change({ engine: event.target.value as EngineChoice })}>
          {ENGINE_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {engineLabel(choice)}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        Model package folder
        <input type="text" value={modelDir} spellCheck={false} placeholder="none: the text layer is read" onChange={(event) => setModelDir(event.target.value)} />
      </label>
      <label className="field">
        Resolution mode
        <input type="text" value={mode} spellCheck={false} placeholder="the package's first" onChange={(event) => setMode(event.target.value)} />
      </label>
      <label className="field">
        Speculation (draft tokens per step)
        <select value={String(settings.specK)} onChange={(event) => change({ specK: event.target.value === 'auto' ? 'auto' : Number(event.target.value) })}>
          <option value="auto">Automatic (measured on this device)</option>
          {[0, 1, 2, 3, 4].map((k) => (
            <option key={k} value={k}>
              {k === 0 ? '0 (plain greedy)' : k}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        Token limit per page
        <input type="number" min={1} max={32768} value={maxTokens} onChange={(event) => setMaxTokens(event.target.value)} />
      </label>
      <label className="check">
        <input type="checkbox" checked={settings.keepHeaders} onChange={(event) => change({ keepHeaders: event.target.checked })} />
        Keep running headers, footers and page numbers
      </label>
      <label className="field">
        Theme
        <select value={settings.theme} onChange={(event) => change({ theme: event.target.value as Settings['theme'] })}>
          <option value="system">Follow the system</option>
          <option value="light">Light</option>
          <option value="dark">Dark</option>
        </select>
      </label>
    </Modal>
  );
}

function tokenLimit(text: string, current: number): Partial<Settings> {
  const value = Number(text);
  return Number.isInteger(value) && value >= 1 && value <= 32768 && value !== current ? { maxNewTokens: value } : {};
}
