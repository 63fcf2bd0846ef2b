import { TestApp, ADMIN_PASSWORD, unique } from './test-app';

/** Admin API helpers for tests: log in, create authors and projects. */
export class AdminClient {
  constructor(
    private readonly t: TestApp,
    readonly token: string,
  ) {}

  static async asPlatformAdmin(t: TestApp, username = 'admin'): Promise<AdminClient> {
    return new AdminClient(t, await login(t, username, ADMIN_PASSWORD));
  }

  auth(): { Authorization: string } {
    return { Authorization: `Bearer ${this.token}` };
  }

  get(path: string) {
    return this.t.http().get(path).set(this.auth());
  }
  post(path: string, body?: object) {
    return this.t
      .http()
      .post(path)
      .set(this.auth())
      .send(body ?? {});
  }
  put(path: string, body: object) {
    return this.t.http().put(path).set(this.auth()).send(body);
  }
  patch(path: string, body: object) {
    return this.t.http().patch(path).set(this.auth()).send(body);
  }
  delete(path: string) {
    return this.t.http().delete(path).set(this.auth());
  }

  /** Creates an author and returns a client logged in as that author. */
  async createAuthor(
    fields: { username?: string; password?: string; [field: string]: unknown } = {},
  ): Promise<{ client: AdminClient; id: string; username: string; password: string }> {
    const { username = unique('author'), password = 'author-password-1' } = fields;
    const res = await this.post('/admin/v1/authors', { ...fields, username, password }).expect(201);
    return { client: new AdminClient(this.t, await login(this.t, username, password)), id: res.body.id, username, password };
  }

  async createProject(fields: object = {}) {
    const res = await this.post('/admin/v1/projects', { name: unique('Program '), ...fields }).expect(201);
    return res.body as Record<string, unknown> & {
      id: string;
      program_id: string;
      api_secret: string;
      legacy_secret: string;
      transport_key: string;
    };
  }
}

export async function login(t: TestApp, username: string, password: string): Promise<string> {
  const res = await t.http().post('/admin/v1/auth/login').send({ username, password }).expect(200);
  return res.body.token;
}
