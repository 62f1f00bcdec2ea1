import { defaultKeymap, history, historyKeymap, redo, undo } from '@codemirror/commands';
import { markdown } from '@codemirror/lang-markdown';
import { defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { Annotation, Compartment, EditorState } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';

/** What the page does to the editor's text from outside the keyboard: the table editor's Apply. */
export interface SourceEditorHandle {
  /**
   * Replaces `from`..`to` as one step of the editor's undo, reported through `onChange` like typing;
   * false, changing nothing, when the text there is no longer `expected`.
   */
  replace(from: number, to: number, expected: string, insert: string): boolean;
  focus(): void;
}

interface SourceEditorProps {
  value: string;
  onChange(value: string): void;
  /** Leaving the editor: the moment to save what was typed without waiting for a pause. */
  onBlur?(): void;
  label: string;
  autoFocus?: boolean;
  /** Shown, selectable and copyable, but keystrokes change nothing: the text is edited only after Edit. */
  readOnly?: boolean;
  handle?: Ref<SourceEditorHandle>;
  /** Ctrl+Alt+T: the table at the cursor (an offset into the text) is to be edited; false when there is none there. */
  onTableCommand?(offset: number): boolean;
}

/** Opens the table editor on the table at the cursor. */
const TABLE_KEY = 'Mod-Alt-t';

/** Marks a change made from outside (revert, undo), which must not be reported back as typing. */
const outsideChange = Annotation.define<boolean>();

/** The editor that has focus, for the menu's undo and redo. */
let focusedEditor: EditorView | null = null;

/** Undo in the focused editor; false when no editor has focus (the app's own history applies). */
export function undoInFocusedEditor(): boolean {
  return focusedEditor !== null && focusedEditor.hasFocus && undo(focusedEditor);
}

export function redoInFocusedEditor(): boolean {
  return focusedEditor !== null && focusedEditor.hasFocus && redo(focusedEditor);
}

/** A page's Markdown in CodeMirror 6; outside changes (a revert, an undo) replace its text. */
export function SourceEditor({ value, onChange, onBlur, label, autoFocus = false, readOnly = false, handle, onTableCommand }: SourceEditorProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | null>(null);
  const readOnlyRef = useRef(new Compartment());
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const onBlurRef = useRef(onBlur);
  onBlurRef.current = onBlur;
  const onTableCommandRef = useRef(onTableCommand);
  onTableCommandRef.current = onTableCommand;

  useImperativeHandle(
    handle,
    () => ({
      replace(from, to, expected, insert) {
        const view = viewRef.current;
        if (!view || to > view.state.doc.length || view.state.sliceDoc(from, to) !== expected) return false;
        view.dispatch({ changes: { from, to, insert }, selection: { anchor: from }, userEvent: 'input.table', scrollIntoView: true });
        return true;
      },
      focus: () => viewRef.current?.focus(),
    }),
    [],
  );

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const view = new EditorView({
      parent: host,
      state: EditorState.create({
        doc: value,
        extensions: [
          history(),
          readOnlyRef.current.of(EditorState.readOnly.of(readOnly)),
          keymap.of([
            { key: TABLE_KEY, run: (view) => onTableCommandRef.current?.(view.state.selection.main.head) ?? false },
            ...defaultKeymap,
            ...historyKeymap,
          ]),
          markdown(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          EditorView.lineWrapping,
          // the page's sticky header covers the top of the scrolled pane: scrolling a line into view clears it
          EditorView.scrollMargins.of((view) => {
            const header = view.dom.closest('.page-section')?.querySelector('.page-header');
            return header ? { top: header.getBoundingClientRect().height } : null;
          }),
          EditorView.contentAttributes.of({ 'aria-label': label }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged && !update.transactions.some((transaction) => transaction.annotation(outsideChange))) {
              onChangeRef.current(update.state.doc.toString());
            }
            if (update.focusChanged && update.view.hasFocus) focusedEditor = update.view;
            if (update.focusChanged && !update.view.hasFocus) onBlurRef.current?.();
          }),
        ],
      }),
    });
    viewRef.current = view;
    if (autoFocus) view.focus();
    return () => {
      if (focusedEditor === view) focusedEditor = null;
      view.destroy();
      viewRef.current = null;
    };
    // made once per page: later `value` changes arrive through the effect below
  }, [label]);

  useEffect(() => {
    viewRef.current?.dispatch({ effects: readOnlyRef.current.reconfigure(EditorState.readOnly.of(readOnly)) });
  }, [readOnly]);

  useEffect(() => {
    const view = viewRef.current;
    if (!view || view.state.doc.toString() === value) return;
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: value }, annotations: outsideChange.of(true) });
  }, [value]);

  return <div ref={hostRef} className="source-editor" />;
}
