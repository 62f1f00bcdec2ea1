import { useState } from 'react';
import type { TrainingPairsOutcome } from '../../shared/app-api.js';
import { DEFAULT_VALIDATION_SHARE, PAIR_FORMATS, vouchedPages, type PairFormat } from '../../shared/export/training-pairs.js';
import { useActions, useApi, useFolio } from '../state/store-context.js';
import { FolderField } from './export-folder.js';
import { UnwrittenResult, WarningList } from './export-result.js';
import { Modal } from './modal.js';

const FORMAT_LABELS: Readonly<Record<PairFormat, string>> = {
  'deepseek-ocr': 'DeepSeek-OCR (its <|User|>/<|Assistant|> conversation)',
  'jina-ocr-v1': 'jina-ocr-v1 (chat-template messages)',
};

/**
 * Fine-tuning pairs of the whole workspace: every page edited or ticked "Reviewed", as
 * train.jsonl / validation.jsonl with page images and a manifest. Format and image size follow the
 * model in use unless chosen here.
 */
export function PairsDialog() {
  const api = useApi();
  const { openDialog, flushEdits } = useActions();
  const documents = useFolio((state) => state.workspace.documents);
  const modelDir = useFolio((state) => state.settings.modelDir);
  const [format, setFormat] = useState<PairFormat | 'model'>('model');
  const [sizeText, setSizeText] = useState('');
  const [splitText, setSplitText] = useState(String(DEFAULT_VALIDATION_SHARE));
  const [folder, setFolder] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<TrainingPairsOutcome | null>(null);
  const close = () => openDialog(null);

  const pageCount = documents.reduce((count, document) => count + vouchedPages(document).length, 0);
  const size = sizeText.trim() === '' ? undefined : Number(sizeText);
  const sizeError = size !== undefined && (!Number.isInteger(size) || size < 64 || size > 4096) ? 'A whole number of pixels from 64 to 4096.' : null;
  const share = Number(splitText);
  const splitError = splitText.trim() === '' || !Number.isFinite(share) || share < 0 || share > 1 ? 'A share from 0 to 1, e.g. 0.1.' : null;
  const ready = folder !== null && pageCount > 0 && sizeError === null && splitError === null && !busy;

  const run = async (overwrite: boolean) => {
    if (!folder) return;
    setBusy(true);
    setOutcome(null);
    // an edit still being typed counts as the page's final text
    await flushEdits();
    try {
      setOutcome(
        await api.exportTrainingPairs({
          folder,
          validationShare: share,
          overwrite,
          ...(format !== 'model' && { format }),
          ...(size !== undefined && { imageSize: size }),
        }),
      );
    } catch (error) {
      setOutcome({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      title="Export training pairs"
      onClose={close}
      actions={
        <>
          <button type="button" onClick={close}>
            {outcome?.kind === 'written' ? 'Close' : 'Cancel'}
          </button>
          {outcome?.kind === 'would-overwrite' ? (
            <button type="submit" className="danger" disabled={busy} onClick={() => void run(true)}>
              Replace files
            </button>
          ) : (
            <button type="submit" className="primary" disabled={!ready} onClick={() => void run(false)}>
              {busy ? 'Exporting…' : 'Export'}
            </button>
          )}
        </>
      }
    >
      <p>
        {pageCount === 0
          ? 'No page is edited or marked reviewed yet. Correct pages, or tick “Reviewed” on those that are right, then export them as training pairs.'
          : `${pageCount} ${pageCount === 1 ? 'page' : 'pages'} edited or marked reviewed, from all documents; pages never looked at are left out.`}
      </p>
      <fieldset className="field">
        <legend>Chat format</legend>
        <label className="check">
          <input type="radio" name="pairs-format" checked={format === 'model'} onChange={() => setFormat('model')} />
          {modelDir ? 'As the model package in use asks' : 'DeepSeek-OCR (no model package chosen)'}
        </label>
        {PAIR_FORMATS.map((choice) => (
          <label className="check" key={choice}>
            <input type="radio" name="pairs-format" checked={format === choice} onChange={() => setFormat(choice)} />
            {FORMAT_LABELS[choice]}
          </label>
        ))}
      </fieldset>
      <label className="field">
        Image size (longer side, pixels)
        <input type="text" inputMode="numeric" value={sizeText} placeholder={modelDir ? "the model's base view" : '1024'} onChange={(event) => setSizeText(event.target.value)} aria-invalid={sizeError !== null} />
        {sizeError && <span className="field-error">{sizeError}</span>}
      </label>
      <label className="field">
        Validation share (whole documents)
        <input type="text" inputMode="decimal" value={splitText} onChange={(event) => setSplitText(event.target.value)} aria-invalid={splitError !== null} />
        {splitError && <span className="field-error">{splitError}</span>}
      </label>
      <FolderField
        folder={folder}
        onChosen={(chosen) => {
          setFolder(chosen);
          setOutcome(null);
        }}
      />
      {outcome && <PairsResult outcome={outcome} />}
    </Modal>
  );
}

function PairsResult({ outcome }: { outcome: TrainingPairsOutcome }) {
  if (outcome.kind !== 'written') return <UnwrittenResult outcome={outcome} />;
  return (
    <div className="export-result written" role="status">
      <p>
        Wrote {outcome.counts.train} training and {outcome.counts.validation} validation pairs to <code>{outcome.folder}</code>.
      </p>
      {outcome.warnings && outcome.warnings.length > 0 && <WarningList warnings={outcome.warnings} />}
    </div>
  );
}
