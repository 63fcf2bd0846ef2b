/**
 * `attachment; filename="<name>"`. A header value must be ASCII without control characters, so
 * other characters become `_` in `filename` and the exact name travels in RFC 5987 `filename*`.
 */
export function attachmentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const plain = `attachment; filename="${fallback}"`;
  if (fallback === name) return plain;
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${plain}; filename*=UTF-8''${encoded}`;
}

/**
 * The name kept for an uploaded file: the last path segment of what the client sent, without
 * control characters, at most 255 characters; `file` when nothing is left.
 */
export function storedFileName(sent: string | undefined): string {
  const base = (sent ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  const chars = Array.from(clean === '.' || clean === '..' ? '' : clean);
  return chars.length ? chars.slice(0, 255).join('') : 'file';
}
