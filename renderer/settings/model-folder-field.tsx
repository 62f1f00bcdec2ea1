import { useEffect, useId, useState } from 'react';
import { useApi } from '../state/store-context.js';

interface ModelFolderFieldProps {
  /** The folder as typed; it applies when the dialog closes. */
  value: string;
  onChange(folder: string): void;
}

/** The model package folder, typed or chosen, with what the package loader finds wrong with it. */
export function ModelFolderField({ value, onChange }: ModelFolderFieldProps) {
  const api = useApi();
  const problemId = useId();
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const check = async (folder: string) => {
    if (folder.trim() === '') return setProblem(undefined);
    const result = await api.checkModelFolder(folder.trim()).catch((error: unknown) => ({ problem: (error as Error).message }));
    setProblem(result.problem ?? undefined);
  };
  // once, for the folder the dialog opened with: it may have moved or been replaced since it was saved
  useEffect(() => {
    void check(value);
  }, []);

  const choose = async () => {
    const chosen = await api.chooseModelFolder().catch((error: unknown) => ({ folder: null, problem: (error as Error).message }));
    if (chosen === null) return;
    // a folder that is not a package is not taken: the message names it and says what is wrong
    if (chosen.problem === null && chosen.folder !== null) onChange(chosen.folder);
    setProblem(chosen.problem ?? undefined);
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
          placeholder="none: the text layer is read"
          aria-invalid={problem !== undefined}
          aria-describedby={problem ? problemId : undefined}
          onChange={(event) => onChange(event.target.value)}
          onBlur={() => void check(value)}
        />
        <button type="button" onClick={() => void choose()}>
          Choose…
        </button>
      </div>
      {problem && (
        <span id={problemId} className="field-error" role="alert">
          {problem}
        </span>
      )}
    </div>
  );
}
