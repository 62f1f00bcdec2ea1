import { defaultKeymap, history, historyKeymap, redo, undo } from '@codemirror/commands';
import { markdown } from '@codemirror/lang-markdown';
import { defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { Annotation, Compartment, EditorState } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { useEffect, useRef } from 'react';

interface SourceEditorProps {
  value: string;
  onChange(value: string): void;
  /** Leaving the editor: the moment to save what was typed without waiting for a pause. */
  onBlur?(): void;
  label: string;
  autoFocus?: boolean;
  /** Shown, selectable and copyable, but keystrokes change nothing: the text is edited only after Edit. */
  readOnly?: boolean;
}

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
export function SourceEditor({ value, onChange, onBlur, label, autoFocus = false, readOnly = false }: SourceEditorProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | null>(null);
  const readOnlyRef = useRef(new Compartment());
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const onBlurRef = useRef(onBlur);
  onBlurRef.current = onBlur;

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
          keymap.of([...defaultKeymap, ...historyKeymap]),
          markdown(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          EditorView.lineWrapping,
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
