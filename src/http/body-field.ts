/** A plain string field of the request body (JSON or form), or undefined: what rate keys count by. */
export const fieldOf = (request: Record<PropertyKey, unknown>, name: string): string | undefined => {
  const body = request.body;
  const value = body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' && value !== '' ? value : undefined;
};
