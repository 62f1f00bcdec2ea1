/**
 * The application menu's shortcuts, one table for Electron's menu (as accelerators) and for the
 * browser mode (matched against key presses), so both react to the same keys.
 */

import type { MenuCommand } from './app-api.js';

export interface MenuItemSpec {
  label: string;
  /** Electron accelerator syntax; `CmdOrCtrl` is Cmd on macOS, Ctrl elsewhere. */
  accelerator: string;
}

export const MENU_ITEMS: Readonly<Record<MenuCommand, MenuItemSpec>> = {
  open: { label: 'Open…', accelerator: 'CmdOrCtrl+O' },
  export: { label: 'Export…', accelerator: 'CmdOrCtrl+E' },
  'next-page': { label: 'Next Page', accelerator: 'CmdOrCtrl+]' },
  'previous-page': { label: 'Previous Page', accelerator: 'CmdOrCtrl+[' },
  // F8 steps through a document's problems in IDEs and editors (VS Code, Visual Studio)
  'next-to-review': { label: 'Next Page to Review', accelerator: 'F8' },
  'previous-to-review': { label: 'Previous Page to Review', accelerator: 'Shift+F8' },
  'toggle-source': { label: 'Toggle Source / Preview', accelerator: 'CmdOrCtrl+/' },
  undo: { label: 'Undo', accelerator: 'CmdOrCtrl+Z' },
  redo: { label: 'Redo', accelerator: 'CmdOrCtrl+Shift+Z' },
  settings: { label: 'Settings…', accelerator: 'CmdOrCtrl+,' },
};

/** The parts of a DOM `KeyboardEvent` a shortcut depends on. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** An accelerator taken apart, for matching key presses (the browser mode's client gets these). */
export interface ShortcutKeys {
  command: MenuCommand;
  /** As `KeyboardEvent.key` reports it, lower case. */
  key: string;
  commandOrControl: boolean;
  shift: boolean;
  alt: boolean;
}

export function shortcutKeys(): ShortcutKeys[] {
  return (Object.entries(MENU_ITEMS) as [MenuCommand, MenuItemSpec][]).map(([command, item]) => {
    const parts = item.accelerator.split('+');
    const key = (parts.pop() ?? '').toLowerCase();
    return { command, key, commandOrControl: parts.includes('CmdOrCtrl'), shift: parts.includes('Shift'), alt: parts.includes('Alt') };
  });
}

/** The command a key press triggers, if any; `mac` decides whether CmdOrCtrl means the Meta key. */
export function commandForKey(press: KeyPress, shortcuts: readonly ShortcutKeys[], mac: boolean): MenuCommand | undefined {
  return shortcuts.find(
    (shortcut) =>
      press.key.toLowerCase() === shortcut.key &&
      press.metaKey === (shortcut.commandOrControl && mac) &&
      press.ctrlKey === (shortcut.commandOrControl && !mac) &&
      press.shiftKey === shortcut.shift &&
      press.altKey === shortcut.alt,
  )?.command;
}
