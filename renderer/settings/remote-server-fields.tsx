import { useId } from 'react';
import { REMOTE_BOUNDS } from '../../shared/conversion-defaults.js';
import { REMOTE_IMAGE_FORMATS, type RemoteImageFormat } from '../../shared/protocol.js';
import type { Settings } from '../../shared/settings.js';
import { ApiKeyField } from './api-key-field.js';
import { serverProblem, type RemoteDraft } from './remote-draft.js';

interface RemoteServerFieldsProps {
  draft: RemoteDraft;
  onDraft(draft: RemoteDraft): void;
  imageFormat: RemoteImageFormat;
  /** Settings that apply at once (a select cannot be half-typed). */
  onChange(patch: Partial<Settings>): void;
}

/** The `remote` engine's vLLM (OpenAI-compatible) server: pages go there only when that engine is chosen. */
export function RemoteServerFields({ draft, onDraft, imageFormat, onChange }: RemoteServerFieldsProps) {
  const problemId = useId();
  const problem = serverProblem(draft.server);
  const field = (key: keyof RemoteDraft) => (event: { target: { value: string } }) => onDraft({ ...draft, [key]: event.target.value });
  return (
    <fieldset className="field">
      <legend>Remote server (used only by the Remote server engine)</legend>
      <label className="field nested">
        Server address
        <input
          // text, not url: the browser's own check would hold up the dialog's Done; ours says what is wrong
          type="text"
          inputMode="url"
          value={draft.server}
          spellCheck={false}
          placeholder="none: pages stay on this computer"
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
      <label className="field nested">
        Model name
        <input type="text" value={draft.model} spellCheck={false} placeholder="as the server lists it in /v1/models" onChange={field('model')} />
      </label>
      <ApiKeyField />
      <label className="field nested">
        Pages in flight
        <input type="number" min={REMOTE_BOUNDS.concurrency.min} max={REMOTE_BOUNDS.concurrency.max} value={draft.concurrency} onChange={field('concurrency')} />
      </label>
      <label className="field nested">
        Request time limit (seconds)
        <input type="number" min={REMOTE_BOUNDS.timeoutS.min} max={REMOTE_BOUNDS.timeoutS.max} value={draft.timeoutS} onChange={field('timeoutS')} />
      </label>
      <label className="field nested">
        Image size sent (longer side, pixels)
        <input type="number" min={REMOTE_BOUNDS.imageLongSide.min} max={REMOTE_BOUNDS.imageLongSide.max} value={draft.imageSide} onChange={field('imageSide')} />
      </label>
      <label className="field nested">
        Image format sent
        <select value={imageFormat} onChange={(event) => onChange({ remoteImageFormat: event.target.value as RemoteImageFormat })}>
          {REMOTE_IMAGE_FORMATS.map((format) => (
            <option key={format} value={format}>
              {format.toUpperCase()}
            </option>
          ))}
        </select>
      </label>
    </fieldset>
  );
}
