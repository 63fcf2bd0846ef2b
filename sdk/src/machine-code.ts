import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * The machine code of a device for one program (docs/protocol.md, "The machine code"): what to
 * send as `machine_id` / `imei`. The same in all five official clients, checked against
 * sdk/vectors/signing-vectors.json (`machine_code`):
 *
 *   the raw id trimmed (spaces, tabs, CR, LF) and ASCII-lowercased, then the first 32 characters of
 *   the lowercase hex SHA-256 of UTF-8 `programId + ":" + rawId`.
 *
 * Pure: no file, registry or process is read.
 */
export function machineCodeFrom(programId: string, rawId: string): string {
  if (typeof programId !== 'string' || programId === '') throw new TypeError('programId is required');
  if (typeof rawId !== 'string') throw new TypeError('rawId must be a string');
  const id = normalizeRawId(rawId);
  if (id === '') throw new TypeError('rawId is empty');
  return createHash('sha256').update(`${programId}:${id}`, 'utf8').digest('hex').slice(0, 32);
}

/**
 * This device's machine code for `programId`: stable across reboots (it only reads ids the system
 * keeps), different for every program, no network and no administrator rights. Sources: Windows
 * `HKLM\SOFTWARE\Microsoft\Cryptography\MachineGuid` (then the SMBIOS UUID), Linux
 * `/etc/machine-id` (then `/var/lib/dbus/machine-id`), macOS `IOPlatformUUID`. Throws when the
 * device has none of them (a container without /etc/machine-id, for instance).
 */
export function machineCode(programId: string): string {
  if (typeof programId !== 'string' || programId === '') throw new TypeError('programId is required');
  return machineCodeFrom(programId, rawMachineId());
}

/** The raw id machineCode hashes, as the system keeps it (trimmed). Throws when there is none. */
export function rawMachineId(platform: NodeJS.Platform = process.platform): string {
  const sources = platform === 'win32' ? WINDOWS : platform === 'darwin' ? MACOS : UNIX;
  for (const source of sources) {
    let id = '';
    try {
      id = normalizeRawId(source.read());
    } catch {
      id = '';
    }
    if (id !== '' && !PLACEHOLDER.test(id)) return id;
  }
  throw new Error(`machineCode: no stable machine id on this device (tried ${sources.map((s) => s.name).join(', ')})`);
}

function normalizeRawId(rawId: string): string {
  return rawId.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '').replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** Firmware that fills the SMBIOS UUID with zeros or FFs gives every device the same id. */
const PLACEHOLDER = /^[0-]+$|^[f-]+$/;

interface Source {
  name: string;
  read(): string;
}

const run = (file: string, args: string[]): string =>
  execFileSync(file, args, { encoding: 'utf8', timeout: 10_000, windowsHide: true, stdio: ['ignore', 'pipe', 'ignore'] });

const file = (path: string): Source => ({ name: path, read: () => readFileSync(path, 'utf8') });

const WINDOWS: Source[] = [
  {
    name: 'HKLM\\SOFTWARE\\Microsoft\\Cryptography\\MachineGuid',
    // /reg:64: a 32-bit process would otherwise read WOW6432Node, which has no MachineGuid.
    read: () => {
      const out = run('reg', ['query', 'HKLM\\SOFTWARE\\Microsoft\\Cryptography', '/v', 'MachineGuid', '/reg:64']);
      return /MachineGuid\s+REG_SZ\s+(\S+)/i.exec(out)?.[1] ?? '';
    },
  },
  {
    name: 'SMBIOS UUID',
    read: () =>
      run('powershell.exe', [
        '-NoProfile',
        '-NonInteractive',
        '-Command',
        '(Get-CimInstance -ClassName Win32_ComputerSystemProduct).UUID',
      ]),
  },
];

const MACOS: Source[] = [
  {
    name: 'IOPlatformUUID',
    read: () =>
      /"IOPlatformUUID"\s*=\s*"([^"]+)"/.exec(run('/usr/sbin/ioreg', ['-rd1', '-c', 'IOPlatformExpertDevice']))?.[1] ?? '',
  },
];

// Linux, and other systems with systemd's or D-Bus's id.
const UNIX: Source[] = [file('/etc/machine-id'), file('/var/lib/dbus/machine-id')];
