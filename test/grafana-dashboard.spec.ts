import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MetricsService } from '../src/http/metrics/metrics.service';

/**
 * docs/grafana-dashboard.json against what the service exports: every series it charts exists
 * (a renamed metric would leave a panel empty without a word), every panel follows the `instance`
 * variable, the panels do not overlap, and an operator's first questions have a panel:
 * webhook failures and cluster worker restarts.
 */

const ROOT = join(__dirname, '..');

interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { h: number; w: number; x: number; y: number };
  targets?: Array<{ expr: string }>;
}

const dashboard = JSON.parse(readFileSync(join(ROOT, 'docs/grafana-dashboard.json'), 'utf8')) as { panels: Panel[] };
const panels = dashboard.panels;
const exprs = panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ panel, expr: target.expr })));

/** The metric names a PromQL expression selects (every selector here carries a label matcher). */
const selected = (expr: string) => [...expr.matchAll(/([a-zA-Z_:][\w:]*)\{/g)].map(([, name]) => name);

/** Every metric name the service exports: MetricsService's registry (prom-client's defaults included), the backend gauges and the cluster primary's own series. */
async function exportedNames(): Promise<Set<string>> {
  const service = new MetricsService();
  const metrics = await service.registry.getMetricsAsJSON();
  service.onModuleDestroy();
  const names = new Set<string>();
  for (const metric of metrics) {
    names.add(metric.name);
    if (String(metric.type) === 'histogram') for (const suffix of ['_bucket', '_count', '_sum']) names.add(metric.name + suffix);
  }
  for (const file of ['backend-gauges.ts', 'cluster-metrics.ts']) {
    const text = readFileSync(join(ROOT, 'src/http/metrics', file), 'utf8');
    for (const [, name] of text.matchAll(/(?:this\.gauge\(\s*|name: )'([a-z_]+)'/g)) names.add(name);
  }
  return names;
}

describe('docs/grafana-dashboard.json', () => {
  it('charts only series the service exports', async () => {
    const exported = await exportedNames();
    expect(exported).toContain('cluster_worker_restarts_total');
    expect(exported).toContain('active_sessions');
    const charted = [...new Set(exprs.flatMap(({ expr }) => selected(expr)))];
    expect(charted.length).toBeGreaterThan(10);
    expect(charted.filter((name) => !exported.has(name))).toEqual([]);
  });

  it('follows the instance variable in every query', () => {
    for (const { panel, expr } of exprs) {
      for (const name of selected(expr)) {
        expect([panel.title, name, expr.includes(`${name}{instance=~"$instance"`)]).toEqual([panel.title, name, true]);
      }
    }
  });

  it('gives each panel its own id and its own place on the grid', () => {
    expect(new Set(panels.map((panel) => panel.id)).size).toBe(panels.length);
    const overlapping: string[] = [];
    panels.forEach((a, i) =>
      panels.slice(i + 1).forEach((b) => {
        const apart =
          a.gridPos.x + a.gridPos.w <= b.gridPos.x ||
          b.gridPos.x + b.gridPos.w <= a.gridPos.x ||
          a.gridPos.y + a.gridPos.h <= b.gridPos.y ||
          b.gridPos.y + b.gridPos.h <= a.gridPos.y;
        if (!apart) overlapping.push(`${a.title} / ${b.title}`);
      }),
    );
    expect(overlapping).toEqual([]);
    for (const panel of panels) expect(panel.gridPos.x + panel.gridPos.w).toBeLessThanOrEqual(24);
  });

  it('shows webhook failures and cluster worker restarts', () => {
    const charting = (pattern: RegExp) => exprs.filter(({ expr }) => pattern.test(expr)).map(({ panel }) => panel.title);
    expect(charting(/webhook_attempts_total\{[^}]*outcome=~"retry\|failed"/)).toEqual(['Webhook failures (range)']);
    expect(charting(/webhook_attempts_total\{[^}]*outcome="failed"/)).toEqual(['Webhook deliveries given up (range)']);
    expect(charting(/sum by \(outcome\) \(rate\(webhook_attempts_total/)).toEqual(['Webhook attempts/s by outcome']);
    expect(charting(/webhook_endpoints_disabled_total/)).toEqual(['Webhook endpoints switched off (range)']);
    expect(charting(/cluster_worker_restarts_total\{[^}]*reason="crash"/)).toEqual(['Worker crashes (range)']);
    expect(charting(/cluster_worker_restarts_total\{instance=~"\$instance"\}/)).toEqual(['Cluster workers and restarts']);
    expect(charting(/cluster_workers\{/)).toEqual(['Cluster workers and restarts']);
  });
});
