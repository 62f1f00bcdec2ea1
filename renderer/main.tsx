import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'katex/dist/katex.min.css';
import { App } from './app.js';
import './app.css';
import { createFolioStore } from './state/folio-store.js';
import { FolioProvider } from './state/store-context.js';

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
const store = createFolioStore(window.folio);
createRoot(root).render(
  <StrictMode>
    <FolioProvider store={store} api={window.folio}>
      <App />
    </FolioProvider>
  </StrictMode>,
);
