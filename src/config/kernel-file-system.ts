// Directories the service must not be pointed at: a kernel's virtual file system keeps no files.
import { realpathSync, statfsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Linux's magic numbers (statfs f_type) of the virtual file systems that hold no files. */
const KERNEL_TYPES = new Map<number, string>([
  [0x9fa0, 'proc'],
  [0x62656572, 'sysfs'],
  [0x27e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
  [0x64626720, 'debugfs'],
  [0x74726163, 'tracefs'],
  [0x73636673, 'securityfs'],
]);

/** Where those are mounted, named even where statfs cannot tell (another OS, a path not reachable). */
const KERNEL_ROOTS = ['/proc', '/sys'];

const under = (path: string, root: string) => path === root || path.startsWith(`${root}/`);

/**
 * The kernel file system `path` lies on (`/proc`, `/sys`, or `proc`, `sysfs`, … found through a
 * symlink or another mount point), or null for an ordinary one. Under /proc, Node's recursive mkdir
 * never settles (mkdir answers ENOENT for the child and EEXIST for its parent, and it retries for
 * ever at full CPU): the doctor hung on `DATA_DIR=/proc/…`, and a start would too. The
 * path need not exist: its nearest existing ancestor decides.
 */
export function kernelFileSystem(path: string): string | null {
  const absolute = resolve(path);
  const root = KERNEL_ROOTS.find((candidate) => under(absolute, candidate));
  if (root) return root;
  let existing = absolute;
  for (;;) {
    try {
      existing = realpathSync(existing);
      break;
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return null;
      existing = parent;
    }
  }
  const real = KERNEL_ROOTS.find((candidate) => under(existing, candidate));
  if (real) return real;
  try {
    return KERNEL_TYPES.get(Number(statfsSync(existing).type)) ?? null;
  } catch {
    return null;
  }
}
