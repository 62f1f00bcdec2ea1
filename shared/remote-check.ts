/**
 * What "Test connection" found at a remote server's `/v1/models`, in the user's words: the renderer
 * shows `message` as it is and offers `models` for the model field.
 */

export const REMOTE_CHECK_KINDS = ['reachable', 'bad-address', 'refused', 'not-found', 'timeout', 'needs-key', 'wrong-key', 'not-openai', 'unreachable'] as const;
export type RemoteCheckKind = (typeof REMOTE_CHECK_KINDS)[number];

export interface RemoteServerCheck {
  kind: RemoteCheckKind;
  /** The address as tested (`http://` added to a bare host), without any user:password. */
  server: string;
  message: string;
  /** The model names the server listed; empty unless `reachable`. */
  models: string[];
}
