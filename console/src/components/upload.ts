import { ApiError, toApiError } from '../api/errors';
import { readSession } from '../api/session';

/**
 * A multipart upload to the admin API with progress (fetch reports none): XMLHttpRequest with the
 * session's Bearer token; a refusal becomes the same ApiError as every other call.
 */
export function uploadWithProgress<T>(path: string, file: File, onProgress: (percent: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', path);
    const session = readSession();
    if (session) request.setRequestHeader('Authorization', `Bearer ${session.token}`);
    request.upload.onprogress = (event) => event.lengthComputable && onProgress(Math.round((event.loaded / event.total) * 100));
    request.onerror = () => reject(new ApiError(0, undefined, 'The service cannot be reached', undefined));
    request.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = undefined;
      }
      if (request.status >= 200 && request.status < 300) return resolve(body as T);
      const requestId = request.getResponseHeader('x-request-id');
      const headers = new Headers(requestId ? { 'x-request-id': requestId } : {});
      reject(toApiError(body, new Response(null, { status: request.status, statusText: request.statusText, headers })));
    };
    const form = new FormData();
    form.append('file', file);
    request.send(form);
  });
}
