import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatTwd } from '@shop/shared/money';
import { formatTaipeiMonthDay, TAIPEI_TIME_ZONE } from '@shop/shared/taipei-time';

const TEA = '#3f6b4f';
const TEA_SOFT = 'rgba(63, 107, 79, 0.22)';
const INK_MUTED = '#5b665f';
const LINE = '#e3dcd0';

/** Daily sales of the last 30 days as bars (uPlot); a table with the same figures sits beside it for screen readers. */
export function SalesChart({
  days,
}: {
  days: ReadonlyArray<{ date: string; sales: number; orders: number }>;
}) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const xs = days.map((d) => Date.parse(`${d.date}T12:00:00+08:00`) / 1000);
    const sales = days.map((d) => d.sales);
    const axis = {
      stroke: INK_MUTED,
      grid: { stroke: LINE, width: 1 },
      ticks: { stroke: LINE, width: 1 },
      font: '12px "Noto Sans TC", system-ui, sans-serif',
    };
    const opts: uPlot.Options = {
      width: el.clientWidth,
      height: 260,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), TAIPEI_TIME_ZONE),
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      scales: {
        x: { time: true },
        y: { range: (_u, _min, max) => [0, Math.max(1000, Math.ceil((max * 1.15) / 1000) * 1000)] },
      },
      axes: [
        { ...axis, values: (_u, ticks) => ticks.map((t) => formatTaipeiMonthDay(t * 1000)) },
        {
          ...axis,
          size: 64,
          values: (_u, ticks) =>
            ticks.map((t) =>
              t >= 10_000 ? `${(t / 10_000).toLocaleString('zh-TW')} 萬` : t.toLocaleString('zh-TW'),
            ),
        },
      ],
      series: [
        {},
        {
          label: '營業額',
          stroke: TEA,
          fill: TEA_SOFT,
          width: 1,
          paths: uPlot.paths.bars!({ size: [0.7, 28], radius: 0.15 }),
          points: { show: false },
          value: (_u, v) => (v === null ? '—' : formatTwd(v)),
        },
      ],
    };
    const chart = new uPlot(opts, [xs, sales], el);
    const resize = new ResizeObserver(() => chart.setSize({ width: el.clientWidth, height: 260 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [days]);

  return (
    <figure className="flex flex-col gap-2">
      <div ref={box} aria-hidden="true" className="w-full" />
      <figcaption className="sr-only">最近 30 天每日營業額</figcaption>
      <table className="sr-only">
        <caption>最近 30 天每日營業額與訂單數</caption>
        <thead>
          <tr>
            <th scope="col">日期</th>
            <th scope="col">營業額</th>
            <th scope="col">訂單數</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.date}>
              <th scope="row">{d.date}</th>
              <td>{formatTwd(d.sales)}</td>
              <td>{d.orders}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
