import { useEffect, useId, useRef, useState } from 'react';
import type { ModelFolderCheck } from '../../shared/app-api.js';
import { DEMO_MODELS } from '../../shared/demo-models.js';
import { useApi } from '../state/store-context.js';

interface ModelFolderFieldProps {
  /** The folder as typed; it applies when the dialog closes. */
  value: string;
  onChange(folder: string): void;
  /** What an empty field means for the engine chosen. */
  emptyMeaning: string;
}

type CheckShown = Pick<ModelFolderCheck, 'problem' | 'demoLabel'>;

/**
 * The model package folder, typed, chosen or one of the demo models, with what the package loader
 * finds wrong with it, and a demo model's label whenever the folder is one.
 */
export function ModelFolderField({ value, onChange, emptyMeaning }: ModelFolderFieldProps) {
  const api = useApi();
  const problemId = useId();
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [demoLabel, setDemoLabel] = useState<string | undefined>(undefined);
  const show = (check: CheckShown) => {
    setProblem(check.problem ?? undefined);
    setDemoLabel(check.problem === null ? check.demoLabel : undefined);
  };
  const failed = (error: unknown): CheckShown => ({ problem: (error as Error).message });
  // checks answer in any order (a slow check of a typed folder may end after a folder is chosen): only the latest is shown
  const latestCheck = useRef(0);
  const check = async (folder: string) => {
    const asked = ++latestCheck.current;
    if (folder.trim() === '') return show({ problem: null });
    const found = await api.checkModelFolder(folder.trim()).catch(failed);
    if (asked === latestCheck.current) show(found);
  };
  // once, for the folder the dialog opened with: it may have moved or been replaced since it was saved
  useEffect(() => {
    void check(value);
  }, []);

  // a folder that is not a package is not taken: the message names it and says what is wrong
  const take = (chosen: ModelFolderCheck) => {
    if (chosen.problem === null) onChange(chosen.folder);
    show(chosen);
  };
  const choose = async () => {
    latestCheck.current++;
    const chosen = await api.chooseModelFolder().catch(failed);
    if (chosen === null) return;
    if ('folder' in chosen) take(chosen);
    else show(chosen);
  };
  // main finds and checks the demo package: the page sends a name, never a path
  const chooseDemo = async (name: string) => {
    latestCheck.current++;
    const chosen = await api.useDemoModel(name).catch(failed);
    if ('folder' in chosen) take(chosen);
    else show(chosen);
  };

  return (
    <div className="field">
      <label htmlFor={`${problemId}-input`}>Model package folder</label>
      <div className="folder-row">
        <input
          id={`${problemId}-input`}
          className="folder-input"
          type="text"
          value={value}
          spellCheck={false}
          placeholder={emptyMeaning}
          aria-invalid={problem !== undefined}
          aria-describedby={problem ? problemId : demoLabel ? `${problemId}-demo` : undefined}
          onChange={(event) => {
            onChange(event.target.value);
            setDemoLabel(undefined);
          }}
          // the field's own value: a blur that follows a keystroke at once may come before the re-render that passes it down
          onBlur={(event) => void check(event.currentTarget.value)}
        />
        <button type="button" onClick={() => void choose()}>
          Choose…
        </button>
        {DEMO_MODELS.map((model) => (
          <button key={model.name} type="button" onClick={() => void chooseDemo(model.name)}>
            Use the {model.title} model
          </button>
        ))}
      </div>
      {problem && (
        <span id={problemId} className="field-error" role="alert">
          {problem}
        </span>
      )}
      {demoLabel && (
        <span id={`${problemId}-demo`} className="field-note">
          {demoLabel}
        </span>
      )}
    </div>
  );
}
