import { BarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

// Only the parts this chart uses: the page's chunk stays small, and nothing needs eval (CSP).
echarts.use([BarChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export interface ChartSeries {
  name: string;
  color?: string;
  values: number[];
}

/** Stacked bars of logins per day; `label` describes it for screen readers (a table gives the figures). */
export function LoginsChart({ days, series, label }: { days: string[]; series: ChartSeries[]; label: string }) {
  const element = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const node = element.current;
    if (!node) return undefined;
    const chart = echarts.init(node);
    chart.setOption({
      animation: false,
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 40, right: 16, top: 40, bottom: 24 },
      xAxis: { type: 'category', data: days.map((day) => day.slice(5)) },
      yAxis: { type: 'value', minInterval: 1 },
      series: series.map((item) => ({
        type: 'bar',
        stack: 'logins',
        name: item.name,
        data: item.values,
        itemStyle: item.color ? { color: item.color } : undefined,
      })),
    });
    const resize = new ResizeObserver(() => chart.resize());
    resize.observe(node);
    return () => {
      resize.disconnect();
      chart.dispose();
    };
  }, [days, series]);

  // The figures the bars stand for, on the element too: what a test (and a scraper) reads off the canvas.
  const totals = days.map((_, index) => series.reduce((sum, item) => sum + (item.values[index] ?? 0), 0));
  return (
    <div
      ref={element}
      role="img"
      aria-label={label}
      data-testid="logins-chart"
      data-days={days.join(',')}
      data-totals={totals.join(',')}
      style={{ width: '100%', height: 280 }}
    />
  );
}
