/** Engines that convert a page. `auto` lets the router choose per page. */
export const ENGINE_NAMES = ['text', 'vlm', 'remote', 'lite'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];
export type EngineChoice = EngineName | 'auto';
export const ENGINE_CHOICES: readonly EngineChoice[] = ['auto', ...ENGINE_NAMES];
