import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { TEMPLATE_ENV } from './global-setup';

export default function globalTeardown(): void {
  const template = process.env[TEMPLATE_ENV];
  if (template) rmSync(dirname(template), { recursive: true, force: true });
}
