import { DynamicModule, ForwardReference, RequestMethod, Type } from '@nestjs/common';
import { GUARDS_METADATA, METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { MetadataScanner } from '@nestjs/core';
import { AppModule } from '../../src/app.module';
import { AppConfig, loadConfig } from '../../src/config/app-config';
import { ENVELOPE_FAMILY } from '../../src/http/envelope/envelope.decorator';
import { Family } from '../../src/http/envelope/family';
import { AUTH_SCHEME, AuthScheme } from '../../src/http/auth-scheme';
import { JsonLogger } from '../../src/core/logging/json-logger';

export interface DeclaredRoute {
  method: string;
  path: string;
  family: Family | undefined;
  auth: AuthScheme | undefined;
  controller: string;
  /** The guards of the route, by class name: the controller's, then the handler's. */
  guards: string[];
  /** The handler function, whose metadata (status, OpenAPI decorators) a test may read. */
  handler: (...args: unknown[]) => unknown;
}

type Import = Type | DynamicModule | ForwardReference | Promise<DynamicModule> | undefined;

/**
 * Every route the application declares, read from its module and controller metadata (PATH,
 * METHOD, the envelope family, the auth scheme, the guards) the way src/http/route-registry.ts
 * reads it at boot, without booting anything: the module tree of AppModule.forRoot(config) is
 * walked, so configuration-dependent controllers count as they would in that configuration.
 */
export function declaredRoutes(config: AppConfig = loadConfig({})): DeclaredRoute[] {
  const routes: DeclaredRoute[] = [];
  const scanner = new MetadataScanner();
  for (const controller of controllersOf(AppModule.forRoot(config, new JsonLogger('error', () => undefined)))) {
    const prefixes = paths(Reflect.getMetadata(PATH_METADATA, controller));
    const proto = controller.prototype as Record<string, (...args: unknown[]) => unknown>;
    for (const name of scanner.getAllMethodNames(proto)) {
      const handler = proto[name];
      const requestMethod: RequestMethod | undefined = Reflect.getMetadata(METHOD_METADATA, handler);
      if (requestMethod === undefined) continue;
      for (const base of prefixes) {
        for (const sub of paths(Reflect.getMetadata(PATH_METADATA, handler))) {
          routes.push({
            method: RequestMethod[requestMethod],
            path: joinPath(base, sub),
            family: Reflect.getMetadata(ENVELOPE_FAMILY, handler) ?? Reflect.getMetadata(ENVELOPE_FAMILY, controller),
            auth: Reflect.getMetadata(AUTH_SCHEME, handler) ?? Reflect.getMetadata(AUTH_SCHEME, controller),
            controller: controller.name,
            guards: [...guardsOf(controller), ...guardsOf(handler)],
            handler,
          });
        }
      }
    }
  }
  return routes.sort((a, b) => (a.path + a.method).localeCompare(b.path + b.method));
}

/** The controllers of a module and of everything it imports, each once. */
function controllersOf(root: Import): Type[] {
  const seen = new Set<unknown>();
  const controllers = new Set<Type>();
  const visit = (entry: Import) => {
    if (!entry || entry instanceof Promise) return; // no module of this app is imported asynchronously
    if ('forwardRef' in entry) return visit(entry.forwardRef());
    const dynamic = 'module' in entry ? entry : undefined;
    const moduleClass = dynamic ? dynamic.module : (entry as Type);
    if (seen.has(entry)) return;
    seen.add(entry);
    const fromClass = (key: string) => (Reflect.getMetadata(key, moduleClass) ?? []) as unknown[];
    for (const c of [...fromClass(MODULE_METADATA.CONTROLLERS), ...(dynamic?.controllers ?? [])]) controllers.add(c as Type);
    for (const i of [...fromClass(MODULE_METADATA.IMPORTS), ...(dynamic?.imports ?? [])]) visit(i as Import);
  };
  visit(root);
  return [...controllers];
}

function guardsOf(target: object): string[] {
  return ((Reflect.getMetadata(GUARDS_METADATA, target) ?? []) as Array<Type | object>).map((g) =>
    typeof g === 'function' ? g.name : g.constructor.name,
  );
}

function paths(value: string | string[] | undefined): string[] {
  if (value === undefined) return ['/'];
  return Array.isArray(value) ? value : [value];
}

function joinPath(a: string, b: string): string {
  const joined = `/${a}/${b}`.replace(/\/+/g, '/');
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
}
