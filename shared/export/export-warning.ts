/** Something one page held that an export could not carry over as it was; the rest of the document still exports. */
export interface ExportWarning {
  page: number;
  message: string;
}

export function warningLine(warning: ExportWarning): string {
  return `page ${warning.page}: ${warning.message}`;
}
