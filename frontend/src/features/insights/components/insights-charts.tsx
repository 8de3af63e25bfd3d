import { formatDate, formatDollars } from '@crm/projections/contract';
import type { Insights } from '@crm/projections/insights';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/**
 * The insights charts (recharts). Only the insights screen imports this module, and the
 * screen is a lazy route, so the charting library loads with it in a chunk of its own.
 * Colours are the theme's variables: the charts follow light and dark.
 */

// No grow-in animation: figures read at once (and people who prefer less motion get none).
const AXIS = { fill: 'var(--muted-foreground)', fontSize: 12 };
const TOOLTIP = {
  contentStyle: { background: 'var(--card)', border: '1px solid var(--border)', borderRadius: 8, color: 'var(--card-foreground)' },
  labelStyle: { color: 'var(--card-foreground)', fontWeight: 600 },
  cursor: { fill: 'var(--muted)', opacity: 0.6 },
};

/**
 * The 90th percentile's paler grey as one colour, not a fill-opacity on the bar: the legend
 * draws its square from the colour alone, and with an opacity it came out darker than the bars.
 */
const LIGHTER_MUTED = 'color-mix(in oklch, var(--muted-foreground) 55%, transparent)';

/** Hours as a person reads them: "0.4 min", "45 min", "5.5 h", "3.2 d". */
export function formatHours(value: number): string {
  // Under 10 minutes, tenths of a minute: an axis spanning a minute or two would otherwise
  // label its ticks "0 min, 0 min, 1 min, 1 min".
  if (value < 1 / 6) return `${Math.round(value * 600) / 10} min`;
  if (value < 1) return `${Math.round(value * 60)} min`;
  if (value < 48) return `${Math.round(value * 10) / 10} h`;
  return `${Math.round((value / 24) * 10) / 10} d`;
}

/** Whole dollars on the axis; the tooltip's amount to the cent. */
const money = (value: number) => `$${Math.round(value).toLocaleString('en-US')}`;
/** 'Nov 9' under a week's bar, for a week starting on '2026-11-09'. */
const weekLabel = (weekStart: string) => formatDate(weekStart, { form: 'short' });

/** 'Week of Nov 9, 2026' for a week starting on '2026-11-09'. */
export const weekOf = (weekStart: string) => `Week of ${formatDate(weekStart)}`;

export function StageTimesChart({ stageTimes }: { stageTimes: Insights['stageTimes'] }) {
  const height = Math.max(160, stageTimes.length * 44 + 60);
  return (
    <ResponsiveContainer width="100%" height={height}>
      <BarChart data={stageTimes} layout="vertical" margin={{ left: 8, right: 16, top: 8, bottom: 8 }}>
        <CartesianGrid horizontal={false} stroke="var(--border)" />
        <XAxis type="number" tick={AXIS} tickFormatter={formatHours} stroke="var(--border)" />
        <YAxis type="category" dataKey="stage" tick={AXIS} width={96} stroke="var(--border)" />
        <Tooltip {...TOOLTIP} formatter={(value) => formatHours(Number(value))} />
        <Legend wrapperStyle={{ fontSize: 12, color: 'var(--muted-foreground)' }} />
        <Bar isAnimationActive={false} dataKey="medianHours" name="Median" fill="var(--primary)" radius={[0, 4, 4, 0]} />
        <Bar isAnimationActive={false} dataKey="p90Hours" name="90th percentile" fill={LIGHTER_MUTED} radius={[0, 4, 4, 0]} />
      </BarChart>
    </ResponsiveContainer>
  );
}

export function WeeklyChart({ weeks, metric }: { weeks: Insights['weeks']; metric: 'completed' | 'revenue' }) {
  return (
    <ResponsiveContainer width="100%" height={220}>
      <BarChart data={weeks} margin={{ left: 0, right: 8, top: 8, bottom: 8 }}>
        <CartesianGrid vertical={false} stroke="var(--border)" />
        <XAxis dataKey="weekStart" tick={AXIS} tickFormatter={weekLabel} stroke="var(--border)" minTickGap={8} />
        <YAxis
          tick={AXIS}
          allowDecimals={metric === 'revenue'}
          tickFormatter={metric === 'revenue' ? money : undefined}
          width={metric === 'revenue' ? 64 : 32}
          stroke="var(--border)"
        />
        <Tooltip
          {...TOOLTIP}
          labelFormatter={(label) => weekOf(String(label))}
          formatter={(value) => (metric === 'revenue' ? formatDollars(Number(value)) : String(value))}
        />
        <Bar
          isAnimationActive={false}
          dataKey={metric}
          name={metric === 'revenue' ? 'Invoiced' : 'Jobs completed'}
          fill={metric === 'revenue' ? 'var(--success)' : 'var(--primary)'}
          radius={[4, 4, 0, 0]}
        />
        {metric === 'revenue' ? (
          <Bar isAnimationActive={false} dataKey="collected" name="Collected" fill="var(--primary)" radius={[4, 4, 0, 0]} />
        ) : null}
        {metric === 'revenue' ? <Legend wrapperStyle={{ fontSize: 12, color: 'var(--muted-foreground)' }} /> : null}
      </BarChart>
    </ResponsiveContainer>
  );
}

export function TechniciansChart({ technicians }: { technicians: Insights['technicians'] }) {
  const shown = technicians.slice(0, 10);
  return (
    <ResponsiveContainer width="100%" height={Math.max(140, shown.length * 40 + 40)}>
      <BarChart data={shown} layout="vertical" margin={{ left: 8, right: 16, top: 8, bottom: 8 }}>
        <CartesianGrid horizontal={false} stroke="var(--border)" />
        <XAxis type="number" tick={AXIS} allowDecimals={false} stroke="var(--border)" />
        <YAxis type="category" dataKey="tech" tick={AXIS} width={96} stroke="var(--border)" />
        <Tooltip {...TOOLTIP} />
        <Bar isAnimationActive={false} dataKey="completed" name="Jobs completed" fill="var(--primary)" radius={[0, 4, 4, 0]} />
      </BarChart>
    </ResponsiveContainer>
  );
}
