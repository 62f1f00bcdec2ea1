/**
 * The answer to the host's `probe-device`: the devices ONNX Runtime answers on here, and what the
 * device setting does with them for the configured package: a named device is started (or why it
 * does not start); `auto` says what it chose when it measured the package, else what it will measure.
 */

import { parseDeviceRequest } from '../../../shared/device.js';
import type { DeviceProbeRequest, HostEvent } from '../../../shared/protocol.js';
import { toFailure } from '../../core/failure-error.js';
import { readCalibrations, type Calibration } from '../../core/model/device-calibrations.js';
import { readManifest } from '../../core/model/package-files.js';
import { availableDevices, runtimeVersion, startExecutionProvider } from '../onnx/execution-provider.js';
import { autoOutlook, calibrationKey } from './device-calibration.js';

export type DeviceProbe = Omit<Extract<HostEvent, { type: 'device' }>, 'type'>;

export async function probeDevices(request: DeviceProbeRequest): Promise<DeviceProbe> {
  const asked = parseDeviceRequest(request.device ?? 'auto') ?? { kind: 'auto' as const };
  const { devices, missing } = await availableDevices(asked.kind === 'cuda' || asked.kind === 'auto' ? (asked.deviceId ?? 0) : 0);
  const available = devices.map((device) => device.device);
  const answer = { runtimeVersion: runtimeVersion(), available, missing };
  if (asked.kind !== 'auto') {
    try {
      const { device, reason } = await startExecutionProvider(asked);
      return { ...answer, device, reason };
    } catch (error) {
      return { ...answer, device: 'unavailable', reason: toFailure(error).message };
    }
  }
  return { ...answer, ...autoOutlook(available, missing, await keptFor(request, available)) };
}

/** What `auto` kept of the configured package, by device; none when there is no package or it cannot be read. */
async function keptFor(request: DeviceProbeRequest, devices: readonly string[]): Promise<Map<string, Calibration>> {
  if (!request.modelDir || !request.calibrationDir) return new Map();
  const manifest = await readManifest(request.modelDir).catch(() => undefined);
  if (!manifest) return new Map();
  const kept = await readCalibrations(request.calibrationDir);
  return new Map(devices.flatMap((device) => {
    const calibration = kept.get(calibrationKey(manifest, device, runtimeVersion()));
    return calibration ? [[device, calibration] as const] : [];
  }));
}
