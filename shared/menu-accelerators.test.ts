import { describe, expect, it } from 'vitest';
import { MENU_COMMANDS } from './app-api.js';
import { MENU_ITEMS, commandForKey, shortcutKeys } from './menu-accelerators.js';

const press = (key: string, modifiers: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey', boolean>> = {}) => ({
  key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...modifiers,
});

describe('menu shortcuts', () => {
  it('give every menu command an accelerator, each a different one', () => {
    expect(Object.keys(MENU_ITEMS).sort()).toEqual([...MENU_COMMANDS].sort());
    const accelerators = Object.values(MENU_ITEMS).map((item) => item.accelerator);
    expect(new Set(accelerators).size).toBe(accelerators.length);
  });

  it('match Ctrl elsewhere and Cmd on macOS, with Shift telling redo from undo', () => {
    const keys = shortcutKeys();
    expect(commandForKey(press('o', { ctrlKey: true }), keys, false)).toBe('open');
    expect(commandForKey(press('o', { metaKey: true }), keys, true)).toBe('open');
    expect(commandForKey(press('o', { metaKey: true }), keys, false)).toBeUndefined();
    expect(commandForKey(press('z', { ctrlKey: true }), keys, false)).toBe('undo');
    expect(commandForKey(press('Z', { ctrlKey: true, shiftKey: true }), keys, false)).toBe('redo');
    expect(commandForKey(press(']', { ctrlKey: true }), keys, false)).toBe('next-page');
    expect(commandForKey(press('o'), keys, false)).toBeUndefined();
    expect(commandForKey(press('F8'), keys, false)).toBe('next-to-review');
    expect(commandForKey(press('F8', { shiftKey: true }), keys, true)).toBe('previous-to-review');
  });
});
