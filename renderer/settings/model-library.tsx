import { useEffect, useId, useState } from 'react';
import type { ModelDownloadState, ModelLibraryState } from '../../shared/app-api.js';
import {
  DEFAULT_MODEL_PRECISION,
  formatBytes,
  licenceTerms,
  MODEL_PRECISIONS,
  OFFERED_MODELS,
  PRECISION_USES,
  transferText,
  type InstalledModel,
  type ModelPrecision,
  type ModelSourceInfo,
  type UnfinishedDownload,
} from '../../shared/model-library.js';
import { useApi } from '../state/store-context.js';

interface ModelLibraryProps {
  /** The model package folder the dialog holds; "Use" puts an installed package's folder there. */
  modelDir: string;
  onUse(folder: string): void;
}

/** While a download runs, its progress is asked for this often. */
const POLL_MS = 500;

/**
 * Models from Hugging Face: the packages installed (repo and revision, precision, size, devices,
 * licence) to use or remove, "Get a model…" with its licence shown and accepted before anything
 * large is fetched, the download's progress with cancel, and downloads that stopped (cancelled,
 * failed, the app closed) to resume. The downloads run in main; this asks how they are.
 */
export function ModelLibrary({ modelDir, onUse }: ModelLibraryProps) {
  const api = useApi();
  const [library, setLibrary] = useState<ModelLibraryState>();
  const [problem, setProblem] = useState<string>();
  const [getting, setGetting] = useState(false);
  const [refreshes, setRefreshes] = useState(0);
  const refresh = () => setRefreshes((count) => count + 1);
  const running = library?.download?.state === 'running';

  useEffect(() => {
    let current = true;
    api.modelLibrary().then(
      (state) => current && setLibrary(state),
      (error: unknown) => current && setProblem((error as Error).message),
    );
    return () => {
      current = false;
    };
  }, [api, refreshes]);
  useEffect(() => {
    if (!running) return;
    const timer = setTimeout(refresh, POLL_MS);
    return () => clearTimeout(timer);
  }, [running, library]);

  const act = (action: () => Promise<unknown>) => {
    setProblem(undefined);
    action().then(refresh, (error: unknown) => {
      setProblem((error as Error).message);
      refresh();
    });
  };

  return (
    <fieldset className="field model-library">
      <legend>Models from Hugging Face</legend>
      {library && library.installed.length === 0 && <p className="field-note">None installed yet. Models are installed in {library.modelsDir}.</p>}
      {library && library.installed.length > 0 && (
        <ul className="model-list" aria-label="Installed models">
          {library.installed.map((model) => (
            <InstalledRow
              key={model.folder}
              model={model}
              inUse={model.folder === modelDir.trim()}
              onUse={() => onUse(model.folder)}
              onRemove={() => act(() => api.removeModel(model.id, model.precision))}
            />
          ))}
        </ul>
      )}
      {library?.download && <DownloadStatus download={library.download} onCancel={() => act(() => api.cancelModelDownload())} onUse={onUse} />}
      {library && library.unfinished.length > 0 && (
        <ul className="model-list" aria-label="Unfinished downloads">
          {library.unfinished.map((download) => (
            <UnfinishedRow
              key={`${download.id}:${download.precision}`}
              download={download}
              busy={running}
              onResume={() => act(() => api.getModel({ source: download.source, precision: download.precision, acceptedLicense: download.license ?? '' }))}
              onDiscard={() => act(() => api.discardModelDownload(download.id, download.precision))}
            />
          ))}
        </ul>
      )}
      {getting ? (
        <GetModelForm
          busy={running}
          onStart={(request) =>
            act(async () => {
              await api.getModel(request);
              setGetting(false);
            })
          }
          onClose={() => setGetting(false)}
        />
      ) : (
        <div className="folder-row">
          <button type="button" onClick={() => setGetting(true)}>
            Get a model…
          </button>
        </div>
      )}
      {problem && (
        <span className="field-error" role="alert">
          {problem}
        </span>
      )}
    </fieldset>
  );
}

function InstalledRow({ model, inUse, onUse, onRemove }: { model: InstalledModel; inUse: boolean; onUse(): void; onRemove(): void }) {
  const [confirming, setConfirming] = useState(false);
  const terms = licenceTerms(model.license);
  const source = model.source.kind === 'hub' ? `${model.source.revision} (${model.source.commit.slice(0, 10)})` : model.source.path;
  return (
    <li className="model-row" aria-label={`${model.id} ${model.precision}`}>
      <div className="model-name">
        <strong>{model.id}</strong> {model.precision}
        {inUse && <span className="model-badge">in use</span>}
      </div>
      <div className="field-note">
        {source} · {formatBytes(model.sizeBytes)} · for {model.devices.map(deviceName).join(', ')} · licence {terms.name}: {terms.summary}
      </div>
      <div className="folder-row">
        <button type="button" disabled={inUse} onClick={onUse}>
          Use
        </button>
        {confirming ? (
          <>
            <button type="button" onClick={onRemove}>
              Remove {formatBytes(model.sizeBytes)}
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </>
        ) : (
          <button type="button" onClick={() => setConfirming(true)}>
            Remove…
          </button>
        )}
      </div>
    </li>
  );
}

function UnfinishedRow({ download, busy, onResume, onDiscard }: { download: UnfinishedDownload; busy: boolean; onResume(): void; onDiscard(): void }) {
  return (
    <li className="model-row" aria-label={`${download.id} ${download.precision}, unfinished`}>
      <div className="model-name">
        <strong>{download.id}</strong> {download.precision} <span className="model-badge">unfinished</span>
      </div>
      {download.message && <div className="field-note">Stopped: {download.message}</div>}
      <div className="folder-row">
        <button type="button" disabled={busy} onClick={onResume}>
          Resume
        </button>
        <button type="button" onClick={onDiscard}>
          Discard
        </button>
      </div>
    </li>
  );
}

function DownloadStatus({ download, onCancel, onUse }: { download: ModelDownloadState; onCancel(): void; onUse(folder: string): void }) {
  const { progress } = download;
  const fraction = progress?.phase === 'downloading' && progress.totalBytes > 0
    ? progress.doneBytes / progress.totalBytes
    : progress?.phase === 'converting' && progress.step && progress.step.total > 0 ? progress.step.done / progress.step.total : undefined;
  return (
    <div className="model-download" role="status" aria-label={`Download of ${download.id}`}>
      {download.state === 'running' && (
        <>
          <div>
            <strong>{download.id}</strong> {download.precision}: {phaseText(download)}
          </div>
          <div className="folder-row">
            <progress max={1} value={fraction} aria-label="Download progress" />
            <button type="button" onClick={onCancel}>
              Cancel
            </button>
          </div>
        </>
      )}
      {download.state === 'installed' && download.folder && (
        <div className="folder-row">
          <span>
            Installed <strong>{download.id}</strong> ({download.precision}).
          </span>
          <button type="button" onClick={() => onUse(download.folder!)}>
            Use it
          </button>
        </div>
      )}
      {download.state === 'cancelled' && <div>Cancelled {download.id}: what arrived is kept, and Resume goes on from there.</div>}
      {download.state === 'failed' && (
        <span className="field-error" role="alert">
          {download.id} was not installed: {download.message}
        </span>
      )}
      {download.notes.map((note) => (
        <div key={note} className="field-note">
          {note}
        </div>
      ))}
    </div>
  );
}

function phaseText(download: ModelDownloadState): string {
  const progress = download.progress;
  if (!progress || progress.phase === 'listing') return 'looking at the repo…';
  if (progress.phase === 'downloading') return `downloading ${transferText(progress)}`;
  if (progress.phase === 'converting') return progress.step ? `converting: ${progress.step.name} ${progress.step.done}/${progress.step.total}` : 'converting…';
  return 'installing…';
}

function GetModelForm({ busy, onStart, onClose }: { busy: boolean; onStart(request: { source: string; precision: ModelPrecision; acceptedLicense: string }): void; onClose(): void }) {
  const api = useApi();
  const id = useId();
  const [source, setSource] = useState('');
  const [precision, setPrecision] = useState<ModelPrecision>(DEFAULT_MODEL_PRECISION);
  const [info, setInfo] = useState<ModelSourceInfo>();
  const [looking, setLooking] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [accepted, setAccepted] = useState(false);
  const choose = (next: string, nextPrecision = precision) => {
    setSource(next);
    setPrecision(nextPrecision);
    setInfo(undefined);
    setAccepted(false);
    setProblem(undefined);
  };
  const lookUp = async (what = source, how = precision) => {
    if (what.trim() === '') return;
    setLooking(true);
    setProblem(undefined);
    try {
      setInfo(await api.inspectModel(what.trim(), how));
    } catch (error) {
      setProblem((error as Error).message);
    } finally {
      setLooking(false);
    }
  };
  const terms = info && licenceTerms(info.license);
  return (
    <div className="model-get" role="group" aria-label="Get a model">
      <div className="folder-row">
        {OFFERED_MODELS.map((model) => (
          <button
            key={model.repo}
            type="button"
            title={model.description}
            onClick={() => {
              choose(model.repo);
              void lookUp(model.repo);
            }}
          >
            {model.title}
          </button>
        ))}
      </div>
      <label className="field nested" htmlFor={`${id}-source`}>
        Hugging Face repo or checkpoint folder
      </label>
      <div className="folder-row">
        <input
          id={`${id}-source`}
          className="folder-input"
          type="text"
          value={source}
          spellCheck={false}
          placeholder="owner/name, owner/name@revision, or a folder"
          onChange={(event) => choose(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              void lookUp();
            }
          }}
        />
        <select
          aria-label="Precision"
          value={precision}
          onChange={(event) => {
            const next = event.target.value as ModelPrecision;
            choose(source, next);
            if (info) void lookUp(source, next);
          }}
        >
          {MODEL_PRECISIONS.map((choice) => (
            <option key={choice} value={choice}>
              {choice}: {PRECISION_USES[choice]}
            </option>
          ))}
        </select>
        <button type="button" disabled={looking || source.trim() === ''} onClick={() => void lookUp()}>
          {looking ? 'Looking…' : 'Look up'}
        </button>
      </div>
      {problem && (
        <span className="field-error" role="alert">
          {problem}
        </span>
      )}
      {info && terms && (
        <div className="model-offer">
          <div>
            <strong>{info.id}</strong>
            {info.commit ? ` at ${info.revision} (${info.commit.slice(0, 10)})` : ''}:{' '}
            {info.kind === 'package' ? 'a Folio model package, installed as it is' : `a checkpoint, converted here to an ${precision} package`}.
          </div>
          <div className="field-note">
            {info.downloadBytes > 0 ? `Download ${formatBytes(info.downloadBytes)}` : 'Nothing to download'}; the package takes about {formatBytes(info.packageBytes)}.
          </div>
          <div className="model-licence">
            Licence of the weights: <strong>{terms.name}</strong>, {terms.summary}.{terms.url ? ` ${terms.url}` : ''}
          </div>
          <label className="check">
            <input type="checkbox" checked={accepted} onChange={(event) => setAccepted(event.target.checked)} />I accept the {terms.name} licence ({terms.summary})
          </label>
        </div>
      )}
      <div className="folder-row">
        <button type="button" className="primary" disabled={!info || !accepted || busy} onClick={() => info && onStart({ source: source.trim(), precision, acceptedLicense: info.license ?? '' })}>
          Download and install
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}

function deviceName(device: string): string {
  return device === 'cpu' ? 'CPU' : device === 'webgpu' ? 'WebGPU' : device === 'cuda' ? 'CUDA' : device;
}
