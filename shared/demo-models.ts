/**
 * Models that ship with Folio to show the pipeline working, not to convert real documents: each is
 * selected by name (`folio convert --model nano-demo`, the settings dialog) and always shown with
 * its label, so nobody mistakes its output on a real page for what Folio can do.
 */

export interface DemoModel {
  /** What `--model` takes and the app asks for. */
  name: string;
  /** How a person calls it, e.g. on the settings dialog's "Use the nano demo model". */
  title: string;
  /** Its package folder: `models/<folder>` in the app's resources, `tools/model/fixtures/<folder>` in the repository. */
  folder: string;
  /** Shown wherever the model in use is named. */
  label: string;
}

export const DEMO_MODELS: readonly DemoModel[] = [
  {
    name: 'nano-demo',
    title: 'nano demo',
    folder: 'nano',
    label: 'nano demo, trained on synthetic pages only: it will not read real documents well',
  },
];

export function findDemoModel(name: string): DemoModel | undefined {
  return DEMO_MODELS.find((model) => model.name === name);
}

export const DEMO_MODEL_NAMES: readonly string[] = DEMO_MODELS.map((model) => model.name);
