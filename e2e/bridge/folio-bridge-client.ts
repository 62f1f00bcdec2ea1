/**
 * Installed into the page before the renderer loads (as the preload would be): `window.folio`
 * forwards each call to the bridge server. Kept self-contained: Playwright serialises it.
 */
export function installFolioBridge(): void {
  const call = async (method: string) => {
    const response = await fetch(`/bridge/${method}`, { method: 'POST' });
    if (!response.ok) throw new Error(`bridge ${method}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  Object.defineProperty(globalThis, 'folio', { value: Object.freeze({ appInfo: () => call('appInfo') }) });
}
