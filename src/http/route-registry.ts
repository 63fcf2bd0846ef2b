import { Injectable, OnApplicationBootstrap, RequestMethod } from '@nestjs/common';
import { PATH_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { ENVELOPE_FAMILY } from './envelope/envelope.decorator';
import { Family } from './envelope/family';
import { AUTH_SCHEME, AuthScheme } from './auth-scheme';

export interface RouteInfo {
  method: string;
  path: string;
  family: Family | undefined;
  auth: AuthScheme | undefined;
  controller: string;
}

/**
 * Every route the app serves, read from controller metadata at boot. It answers "which methods
 * does this path accept" for JSON 405s, and lists routes with their family and auth scheme. It
 * refuses to start when a controller's envelope declaration and its interceptor disagree.
 */
@Injectable()
export class RouteRegistry implements OnApplicationBootstrap {
  private entries: Array<RouteInfo & { pattern: RegExp }> = [];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onApplicationBootstrap(): void {
    const entries: Array<RouteInfo & { pattern: RegExp }> = [];
    for (const wrapper of this.discovery.getControllers()) {
      const { instance, metatype } = wrapper;
      if (!instance || !metatype) continue;
      const prefix = normalizePaths(Reflect.getMetadata(PATH_METADATA, metatype));
      const proto = Object.getPrototypeOf(instance);
      for (const name of this.scanner.getAllMethodNames(proto)) {
        const handler = proto[name];
        const requestMethod: RequestMethod | undefined = Reflect.getMetadata(METHOD_METADATA, handler);
        if (requestMethod === undefined) continue;
        for (const base of prefix) {
          for (const sub of normalizePaths(Reflect.getMetadata(PATH_METADATA, handler))) {
            const path = joinPath(base, sub);
            entries.push({
              method: RequestMethod[requestMethod],
              path,
              family: this.reflector.getAllAndOverride(ENVELOPE_FAMILY, [handler, metatype]),
              auth: this.reflector.getAllAndOverride(AUTH_SCHEME, [handler, metatype]),
              controller: metatype.name,
              pattern: toPattern(path),
            });
          }
        }
      }
    }
    this.entries = entries;
  }

  list(): RouteInfo[] {
    return this.entries
      .map(({ pattern: _pattern, ...info }) => info)
      .sort((a, b) => (a.path + a.method).localeCompare(b.path + b.method));
  }

  allowedMethods(path: string): string[] {
    const methods = new Set<string>();
    for (const e of this.entries) if (e.pattern.test(path)) methods.add(e.method);
    if (methods.has('ALL')) return [];
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  }
}

function normalizePaths(value: string | string[] | undefined): string[] {
  if (value === undefined) return ['/'];
  return Array.isArray(value) ? value : [value];
}

function joinPath(a: string, b: string): string {
  const joined = `/${a}/${b}`.replace(/\/+/g, '/');
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
}

function toPattern(path: string): RegExp {
  const body = path
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${body}/?$`);
}
