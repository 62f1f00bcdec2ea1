/** The device the `vlm` engine runs on, as the user asks for it: `auto`, `cpu`, `webgpu`, `cuda` or `cuda:N`. */

export type DeviceRequest = { kind: 'auto'; deviceId?: number } | { kind: 'cpu' } | { kind: 'webgpu' } | { kind: 'cuda'; deviceId: number };

/** A device named outright: what `auto` chooses among, and what a package is opened on. */
export type NamedDeviceRequest = Exclude<DeviceRequest, { kind: 'auto' }>;

export const DEVICE_CHOICES = ['auto', 'cpu', 'webgpu', 'cuda'] as const;

/** The request a `--device` value or setting names; null when it names none. */
export function parseDeviceRequest(text: string): DeviceRequest | null {
  const value = text.trim().toLowerCase();
  if (value === 'auto' || value === 'cpu' || value === 'webgpu') return { kind: value };
  const cuda = /^cuda(?::(\d{1,2}))?$/.exec(value);
  if (cuda) return { kind: 'cuda', deviceId: Number(cuda[1] ?? 0) };
  return null;
}

export function deviceRequestText(request: DeviceRequest): string {
  return request.kind === 'cuda' ? `cuda:${request.deviceId}` : request.kind;
}
