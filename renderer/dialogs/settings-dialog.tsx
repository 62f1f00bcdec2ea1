import { useState } from 'react';
import { MAX_NEW_TOKENS_LIMIT, MAX_PAGES_IN_FLIGHT, MAX_SPEC_K } from '../../shared/conversion-defaults.js';
import { ENGINE_CHOICES, type EngineChoice } from '../../shared/engine-name.js';
import { OCR_LANGUAGE_INFO, OCR_LANGUAGES, type OcrLanguage } from '../../shared/ocr-languages.js';
import type { Settings } from '../../shared/settings.js';
import { engineLabel } from '../settings/engine-label.js';
import { engineHint, engineOptions, hasAdvanced } from '../settings/engine-options.js';
import { ModelFolderField } from '../settings/model-folder-field.js';
import { ModelLibrary } from '../settings/model-library.js';
import { remoteDraft, remotePatch } from '../settings/remote-draft.js';
import { RemoteRequestFields, RemoteServerFields } from '../settings/remote-server-fields.js';
import { useActions, useFolio } from '../state/store-context.js';
import { Modal } from './modal.js';

/**
 * Settings apply as they are changed; main validates and saves them. Only the chosen engine's
 * options are shown, its internals under "Advanced"; what the other engines use is kept as it was.
 */
export function SettingsDialog() {
  const settings = useFolio((state) => state.settings);
  const { updateSettings, openDialog } = useActions();
  const [modelDir, setModelDir] = useState(settings.modelDir ?? '');
  const [mode, setMode] = useState(settings.mode ?? '');
  const [maxTokens, setMaxTokens] = useState(String(settings.maxNewTokens));
  const [remote, setRemote] = useState(() => remoteDraft(settings));
  const change = (patch: Partial<Settings>) => void updateSettings(patch);
  const close = () => {
    // text fields apply when the dialog closes, so a half-typed path is never tried
    change({ modelDir: modelDir.trim() || null, mode: mode.trim() || null, ...tokenLimit(maxTokens, settings.maxNewTokens), ...remotePatch(remote, settings) });
    openDialog(null);
  };
  const shown = engineOptions(settings.engine, modelDir.trim() !== '');

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
        <span className="field-note">{engineHint(settings.engine)}</span>
      </label>
      {shown.modelPackage && (
        <>
          <ModelFolderField
            value={modelDir}
            onChange={setModelDir}
            // automatic falls back to the text layer; the vision model engine has nothing to read with
            emptyMeaning={settings.engine === 'auto' ? 'none: the text layer is read' : 'none yet: choose a package or use the demo model'}
          />
          <ModelLibrary modelDir={modelDir} onUse={setModelDir} />
        </>
      )}
      {shown.remoteServer && <RemoteServerFields draft={remote} onDraft={setRemote} />}
      {shown.ocrLanguage && (
        <label className="field">
          Scan OCR language
          <select value={settings.ocrLang} onChange={(event) => change({ ocrLang: event.target.value as OcrLanguage })}>
            {OCR_LANGUAGES.map((lang) => (
              <option key={lang} value={lang}>
                {OCR_LANGUAGE_INFO[lang].label}
              </option>
            ))}
          </select>
        </label>
      )}
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
      {hasAdvanced(shown) && (
        <details className="advanced">
          <summary>Advanced</summary>
          <div className="advanced-fields">
            {shown.modelInternals && (
              <>
                <label className="field">
                  Resolution mode
                  <input type="text" value={mode} spellCheck={false} placeholder="the package's first" onChange={(event) => setMode(event.target.value)} />
                </label>
                <label className="field">
                  Speculation (draft tokens per step)
                  <select value={String(settings.specK)} onChange={(event) => change({ specK: event.target.value === 'auto' ? 'auto' : Number(event.target.value) })}>
                    <option value="auto">Automatic (measured on this device)</option>
                    {Array.from({ length: MAX_SPEC_K + 1 }, (_, k) => (
                      <option key={k} value={k}>
                        {k === 0 ? '0 (plain greedy)' : k}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="field">
                  Pages decoding together (CPU)
                  <select value={String(settings.pagesInFlight)} onChange={(event) => change({ pagesInFlight: event.target.value === 'auto' ? 'auto' : Number(event.target.value) })}>
                    <option value="auto">Automatic (measured on this device)</option>
                    {[...new Set([1, 2, 4, 8, MAX_PAGES_IN_FLIGHT, ...(settings.pagesInFlight === 'auto' ? [] : [settings.pagesInFlight])])].sort((a, b) => a - b).map((pages) => (
                      <option key={pages} value={pages}>
                        {pages === 1 ? '1 (one page at a time)' : pages}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="field">
                  Device
                  <select value={settings.device} onChange={(event) => change({ device: event.target.value })}>
                    <option value="auto">Automatic (the device with the quickest page here, measured once per model)</option>
                    <option value="cpu">CPU</option>
                    <option value="webgpu">GPU through WebGPU (Vulkan, Metal, Direct3D 12)</option>
                    <option value="cuda">NVIDIA GPU through CUDA</option>
                    {settings.device.startsWith('cuda:') && <option value={settings.device}>{settings.device}</option>}
                  </select>
                </label>
              </>
            )}
            {shown.tokenLimit && (
              <label className="field">
                Token limit per page
                <input type="number" min={1} max={MAX_NEW_TOKENS_LIMIT} value={maxTokens} onChange={(event) => setMaxTokens(event.target.value)} />
              </label>
            )}
            {shown.remoteServer && <RemoteRequestFields draft={remote} onDraft={setRemote} imageFormat={settings.remoteImageFormat} onChange={change} />}
          </div>
        </details>
      )}
    </Modal>
  );
}

function tokenLimit(text: string, current: number): Partial<Settings> {
  const value = Number(text);
  return Number.isInteger(value) && value >= 1 && value <= MAX_NEW_TOKENS_LIMIT && value !== current ? { maxNewTokens: value } : {};
}
