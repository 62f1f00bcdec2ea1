import { useEffect, useState } from 'react';
import { useApi } from '../state/store-context.js';

/**
 * How the app names the model in use: a demo model by its label (asked of main, which alone knows
 * where the demo packages are), an installed model by its repo id and precision, any other package
 * by its folder's name.
 */
export function useModelName(modelDir: string | null): string {
  const api = useApi();
  const [demo, setDemo] = useState<{ dir: string; label: string | undefined }>();
  useEffect(() => {
    if (!modelDir) return;
    let current = true;
    api.checkModelFolder(modelDir).then(
      (check) => current && setDemo({ dir: modelDir, label: check.demoLabel ?? check.installedAs }),
      // an unreadable folder is still named by its folder name; the settings dialog says what is wrong
      () => current && setDemo({ dir: modelDir, label: undefined }),
    );
    return () => {
      current = false;
    };
  }, [api, modelDir]);
  if (!modelDir) return 'none';
  if (demo?.dir === modelDir && demo.label) return demo.label;
  return modelDir.split(/[\\/]/).filter(Boolean).pop() ?? modelDir;
}
