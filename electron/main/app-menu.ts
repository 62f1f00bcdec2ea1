/** The application menu: the shared command table as menu items with accelerators, plus Open Recent. */

import { Menu, type MenuItemConstructorOptions } from 'electron';
import path from 'node:path';
import type { MenuCommand } from '../../shared/app-api.js';
import { MENU_ITEMS } from '../../shared/menu-accelerators.js';

export interface MenuActions {
  command(command: MenuCommand): void;
  openRecent(file: string): void;
  clearRecent(): void;
}

export function buildAppMenu(recent: readonly string[], actions: MenuActions): Menu {
  const item = (command: MenuCommand): MenuItemConstructorOptions => ({
    label: MENU_ITEMS[command].label,
    accelerator: MENU_ITEMS[command].accelerator,
    click: () => actions.command(command),
  });
  const mac = process.platform === 'darwin';
  const openRecent: MenuItemConstructorOptions = {
    label: 'Open Recent',
    role: mac ? 'recentDocuments' : undefined,
    submenu: [
      ...recent.map((file) => ({ label: path.basename(file), toolTip: file, click: () => actions.openRecent(file) })),
      ...(recent.length > 0 ? [{ type: 'separator' as const }] : []),
      { label: 'Clear Menu', enabled: recent.length > 0, role: mac ? ('clearRecentDocuments' as const) : undefined, click: actions.clearRecent },
    ],
  };
  const template: MenuItemConstructorOptions[] = [
    ...(mac ? [{ role: 'appMenu' as const }] : []),
    { label: 'File', submenu: [item('open'), openRecent, item('export'), { type: 'separator' }, item('settings'), { type: 'separator' }, { role: mac ? 'close' : 'quit' }] },
    {
      label: 'Edit',
      // Undo/Redo go to the renderer, which routes them to the source editor or its own history
      submenu: [item('undo'), item('redo'), { type: 'separator' }, { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'selectAll' }],
    },
    {
      label: 'View',
      submenu: [item('toggle-source'), item('previous-page'), item('next-page'), item('previous-to-review'), item('next-to-review'), { type: 'separator' }, { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, { role: 'togglefullscreen' }],
    },
    { role: 'windowMenu' },
  ];
  return Menu.buildFromTemplate(template);
}
