import { useId, useState } from 'react';
import { REMOTE_BOUNDS } from '../../shared/conversion-defaults.js';
import { REMOTE_IMAGE_FORMATS, type RemoteImageFormat } from '../../shared/protocol.js';
import type { Settings } from '../../shared/settings.js';
import { ApiKeyField } from './api-key-field.js';
import { ConnectionTest } from './connection-test.js';
import { serverProblem, type RemoteDraft } from './remote-draft.js';

interface RemoteServerFieldsProps {
  draft: RemoteDraft;
  onDraft(draft: RemoteDraft): void;
}

/** The `remote` engine's vLLM (OpenAI-compatible) server: where it is, which model, its key, and a test. */
export function RemoteServerFields({ draft, onDraft }: RemoteServerFieldsProps) {
  const problemId = useId();
  const [models, setModels] = useState<string[]>([]);
  const problem = serverProblem(draft.server);
  const field = (key: keyof RemoteDraft) => (event: { target: { value: string } }) => onDraft({ ...draft, [key]: event.target.value });
  const unlisted = models.length > 0 && draft.model.trim() !== '' && !models.includes(draft.model.trim());
  return (
    <fieldset className="field">
      <legend>Remote server</legend>
      <label className="field nested">
        Server address
        <input
          // text, not url: the browser's own check would hold up the dialog's Done; ours says what is wrong
          type="text"
          inputMode="url"
          value={draft.server}
          spellCheck={false}
          placeholder="gpu-box:8000 (http:// is added)"
          aria-invalid={problem !== undefined}
          aria-describedby={problem ? problemId : undefined}
          onChange={field('server')}
        />
        {problem && (
          <span id={problemId} className="field-error">
            {problem}
          </span>
        )}
      </label>
      <ConnectionTest server={problem === undefined ? draft.server : ''} onModels={setModels} />
      <label className="field nested">
        Model name
        {/* a plain text field (a datalist would make it a combobox that hides typed names): the server's list is the select below */}
        <input type="text" value={draft.model} spellCheck={false} placeholder="as the server lists it; Test connection lists them" onChange={field('model')} />
        {unlisted && <span className="field-error">The server does not list “{draft.model.trim()}”; choose one of its models below.</span>}
      </label>
      {models.length > 0 && (
        <label className="field nested">
          Models the server lists
          <select value={models.includes(draft.model.trim()) ? draft.model.trim() : ''} onChange={(event) => onDraft({ ...draft, model: event.target.value })}>
            <option value="" disabled>
              Choose a model…
            </option>
            {models.map((model) => (
              <option key={model} value={model}>
                {model}
              </option>
            ))}
          </select>
        </label>
      )}
      <ApiKeyField />
    </fieldset>
  );
}

interface RemoteRequestFieldsProps {
  draft: RemoteDraft;
  onDraft(draft: RemoteDraft): void;
  imageFormat: RemoteImageFormat;
  /** Settings that apply at once (a select cannot be half-typed). */
  onChange(patch: Partial<Settings>): void;
}

/** How pages are sent to the server: internals, shown under Advanced. */
export function RemoteRequestFields({ draft, onDraft, imageFormat, onChange }: RemoteRequestFieldsProps) {
  const field = (key: keyof RemoteDraft) => (event: { target: { value: string } }) => onDraft({ ...draft, [key]: event.target.value });
  return (
    <>
      <label className="field">
        Pages in flight
        <input type="number" min={REMOTE_BOUNDS.concurrency.min} max={REMOTE_BOUNDS.concurrency.max} value={draft.concurrency} onChange={field('concurrency')} />
      </label>
      <label className="field">
        Request time limit (seconds)
        <input type="number" min={REMOTE_BOUNDS.timeoutS.min} max={REMOTE_BOUNDS.timeoutS.max} value={draft.timeoutS} onChange={field('timeoutS')} />
      </label>
      <label className="field">
        Image size sent (longer side, pixels)
        <input type="number" min={REMOTE_BOUNDS.imageLongSide.min} max={REMOTE_BOUNDS.imageLongSide.max} value={draft.imageSide} onChange={field('imageSide')} />
      </label>
      <label className="field">
        Image format sent
        <select value={imageFormat} onChange={(event) => onChange({ remoteImageFormat: event.target.value as RemoteImageFormat })}>
          {REMOTE_IMAGE_FORMATS.map((format) => (
            <option key={format} value={format}>
              {format.toUpperCase()}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}
