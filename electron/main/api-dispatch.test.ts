import { describe, expect, it } from 'vitest';
import type { ConvertRequest } from '../../shared/app-api.js';
import { DEFAULT_SETTINGS } from '../../shared/settings.js';
import { EMPTY_WORKSPACE } from '../../shared/workspace.js';
import { apiHandlers, dispatch } from './api-dispatch.js';
import type { AppServiceApi } from './app-service.js';

function recordingService(calls: unknown[][]): AppServiceApi {
  const record = (name: string) => async (...args: unknown[]) => {
    calls.push([name, ...args]);
    return undefined;
  };
  return {
    appInfo: async () => ({ version: '1', device: 'cpu', deviceReason: 'test' }),
    getWorkspace: async () => EMPTY_WORKSPACE,
    openDocuments: async (paths) => paths.map((_, index) => `id-${index}`),
    removeDocument: record('removeDocument'),
    restoreDocument: record('restoreDocument'),
    unlockDocument: async (...args) => {
      calls.push(['unlockDocument', ...args]);
      return true;
    },
    readDocument: async () => ({ mime: 'application/pdf', data: new Uint8Array() }),
    convert: record('convert'),
    cancel: record('cancel'),
    setEdit: record('setEdit'),
    setReviewed: record('setReviewed'),
    keepVersion: record('keepVersion'),
    getSettings: async () => DEFAULT_SETTINGS,
    setSettings: async () => DEFAULT_SETTINGS,
    exportDocument: async () => ({ kind: 'written', files: [] }),
    exportDocuments: async () => ({ kind: 'written', files: ['/exports/a.md'] }),
    exportedThisSession: (file) => file === '/exports/a.md',
    exportTrainingPairs: async (request) => {
      calls.push(['exportTrainingPairs', request]);
      return { kind: 'failed', message: 'not used' };
    },
    hasApiKey: async () => false,
    setApiKey: record('setApiKey'),
    testRemoteServer: async (server) => ({ kind: 'refused', server, message: 'refused', models: [] }),
    checkModelFolder: async (folder) => ({ folder, problem: null }),
    useModelFolder: async (folder) => {
      calls.push(['useModelFolder', folder]);
      return { folder, problem: null };
    },
    useDemoModel: async (name) => {
      calls.push(['useDemoModel', name]);
      return { folder: '/resources/models/nano', problem: null, demoLabel: 'nano demo' };
    },
    modelLibrary: async () => ({ installed: [], unfinished: [], download: null, modelsDir: '/data/models', hubCache: '/cache' }),
    inspectModel: async (source) => ({ id: source, source, kind: 'checkpoint', license: 'mit', gated: false, downloadBytes: 0, packageBytes: 0 }),
    getModel: record('getModel'),
    cancelModelDownload: record('cancelModelDownload'),
    removeModel: record('removeModel'),
    discardModelDownload: record('discardModelDownload'),
    onWorkspaceEvent: () => () => undefined,
  };
}

describe('dispatch', () => {
  const calls: unknown[][] = [];
  const opened: (readonly string[])[] = [];
  let pickedModelFolder: string | null = '/models/nano';
  const handlers = apiHandlers(recordingService(calls), {
    chooseExportFolder: async () => '/exports',
    defaultExportFolder: async (docId) => `/beside/${docId}`,
    pickModelFolder: async () => pickedModelFolder,
    documentsOpened: (paths) => opened.push(paths),
    showInFolder: async (file) => {
      calls.push(['showInFolder', file]);
      return true;
    },
  });

  it('shows only files this session exported in the file manager', async () => {
    expect(await dispatch(handlers, 'showInFolder', ['/etc/passwd'])).toBe(false);
    expect(await dispatch(handlers, 'showInFolder', ['/exports/a.md'])).toBe(true);
    expect(calls).toContainEqual(['showInFolder', '/exports/a.md']);
    expect(calls).not.toContainEqual(['showInFolder', '/etc/passwd']);
    calls.length = 0;
  });

  it('forwards a well-formed call with its arguments', async () => {
    const request: ConvertRequest = { docId: 'doc', pages: [1, 2], engine: 'text' };
    await dispatch(handlers, 'convert', [request]);
    await dispatch(handlers, 'setEdit', ['doc', 2, null]);
    expect(calls).toEqual([
      ['convert', request],
      ['setEdit', 'doc', 2, null],
    ]);
    expect(await dispatch(handlers, 'chooseExportFolder', [])).toBe('/exports');
    expect(await dispatch(handlers, 'defaultExportFolder', ['doc'])).toBe('/beside/doc');
  });

  it('forwards the model manager’s calls, and refuses an unknown precision or an id that is a path', async () => {
    calls.length = 0;
    await dispatch(handlers, 'getModel', [{ source: 'jinaai/jina-ocr-v1', precision: 'int4', acceptedLicense: 'cc-by-nc-4.0' }]);
    await dispatch(handlers, 'removeModel', ['acme/ocr-test', 'fp16']);
    expect(calls).toEqual([
      ['getModel', { source: 'jinaai/jina-ocr-v1', precision: 'int4', acceptedLicense: 'cc-by-nc-4.0' }],
      ['removeModel', 'acme/ocr-test', 'fp16'],
    ]);
    await expect(dispatch(handlers, 'inspectModel', ['jinaai/jina-ocr-v1', 'int8'])).rejects.toThrow(/window\.folio\.inspectModel was called with arguments it does not take/);
    await expect(dispatch(handlers, 'removeModel', ['../../etc', 'int4'])).rejects.toThrow(/a model id, owner\/name/);
    expect(calls).toHaveLength(2);
    calls.length = 0;
  });

  it('tells the shell which documents the page opened', async () => {
    expect(await dispatch(handlers, 'openDocuments', [['/a.pdf', '/b.png']])).toEqual(['id-0', 'id-1']);
    expect(opened).toEqual([['/a.pdf', '/b.png']]);
  });

  it('refuses malformed arguments with a message naming the call, before the service sees them', async () => {
    calls.length = 0;
    await expect(dispatch(handlers, 'setEdit', ['doc', 0, 'text'])).rejects.toThrow(/window\.folio\.setEdit was called with arguments it does not take/);
    await expect(dispatch(handlers, 'convert', [{ docId: 'doc', engine: 'gpt' }])).rejects.toThrow(/window\.folio\.convert/);
    await expect(dispatch(handlers, 'exportDocument', [{ docId: 'doc', formats: ['pdf'], pageMarkers: false, assets: false, folder: '/x', overwrite: false }])).rejects.toThrow(/exportDocument/);
    await expect(dispatch(handlers, 'exportTrainingPairs', [{ folder: '/x', format: 'llava', validationShare: 0.1, overwrite: false }])).rejects.toThrow(/exportTrainingPairs/);
    await expect(dispatch(handlers, 'exportTrainingPairs', [{ folder: '/x', validationShare: 1.5, overwrite: false }])).rejects.toThrow(/exportTrainingPairs/);
    await expect(dispatch(handlers, 'cancel', 'doc')).rejects.toThrow(/window\.folio\.cancel/);
    expect(calls).toEqual([]);
  });

  it('checks and uses the model folder the shell picked, and does nothing when the user cancels', async () => {
    calls.length = 0;
    expect(await dispatch(handlers, 'chooseModelFolder', [])).toEqual({ folder: '/models/nano', problem: null });
    pickedModelFolder = null;
    expect(await dispatch(handlers, 'chooseModelFolder', [])).toBeNull();
    expect(calls).toEqual([['useModelFolder', '/models/nano']]);
  });

  it('takes a demo model by name only, so the page never hands main a path for it', async () => {
    calls.length = 0;
    expect(await dispatch(handlers, 'useDemoModel', ['nano-demo'])).toMatchObject({ problem: null, demoLabel: 'nano demo' });
    await expect(dispatch(handlers, 'useDemoModel', ['/home/user/models/nano'])).rejects.toThrow(/window\.folio\.useDemoModel .*a demo model name: nano-demo/s);
    await expect(dispatch(handlers, 'useDemoModel', ['nano'])).rejects.toThrow(/useDemoModel/);
    expect(calls).toEqual([['useDemoModel', 'nano-demo']]);
  });

  it('refuses an API key with spaces or control characters without echoing it', async () => {
    calls.length = 0;
    const refused = dispatch(handlers, 'setApiKey', ['sk-abc def\n']);
    await expect(refused).rejects.toThrow(/printable characters/);
    await expect(refused).rejects.not.toThrow(/sk-abc/);
    await dispatch(handlers, 'setApiKey', [null]);
    await dispatch(handlers, 'setApiKey', ['sk-abc']);
    expect(calls).toEqual([
      ['setApiKey', null],
      ['setApiKey', 'sk-abc'],
    ]);
  });

  it('forwards a document’s password, and refuses an empty or overlong one without echoing it', async () => {
    calls.length = 0;
    await dispatch(handlers, 'unlockDocument', ['doc', 's3cret pass']);
    const long = 'x'.repeat(2000);
    const refused = dispatch(handlers, 'unlockDocument', ['doc', long]);
    await expect(refused).rejects.toThrow(/window\.folio\.unlockDocument/);
    await expect(refused).rejects.not.toThrow(long);
    await expect(dispatch(handlers, 'unlockDocument', ['doc', ''])).rejects.toThrow(/window\.folio\.unlockDocument/);
    expect(calls).toEqual([['unlockDocument', 'doc', 's3cret pass']]);
  });

  it('refuses methods window.folio does not have, inherited ones included', async () => {
    await expect(dispatch(handlers, 'constructor', [])).rejects.toThrow('window.folio has no method constructor.');
    await expect(dispatch(handlers, 'onWorkspaceEvent', [])).rejects.toThrow(/no method onWorkspaceEvent/);
  });
});
