import { INSIGHT_JOBS_MAX, type InsightJob, type Insights } from '@crm/projections/insights';
import { addDays, dayInZone, isCalendarDay } from '@crm/projections/shared';
import { type ReactNode, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { formatDate, formatDollars } from '@crm/projections/contract';
import { jobPath } from '@/config/paths';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-client';
import { errorMessage } from '@/lib/api-error';
import { type InsightsPeriod, useInsights } from '../api/get-insights';
import { formatHours, StageTimesChart, TechniciansChart, WeeklyChart, weekOf } from './insights-charts';

const DEFAULT_STALE_DAYS = 14;
const PRESETS = [
  { weeks: 4, label: '4 weeks' },
  { weeks: 12, label: '12 weeks' },
  { weeks: 26, label: '26 weeks' },
] as const;

/** The period in the address (?from&to&stale), so a link or reload shows the same figures; twelve weeks by default. */
function periodFromParams(params: URLSearchParams, timeZone: string): InsightsPeriod {
  const to = isCalendarDay(params.get('to') ?? '') ? params.get('to')! : dayInZone(new Date(), timeZone);
  const from = isCalendarDay(params.get('from') ?? '') ? params.get('from')! : addDays(to, -83);
  const stale = Number(params.get('stale'));
  return { from, to, staleDays: Number.isInteger(stale) && stale >= 1 && stale <= 365 ? stale : DEFAULT_STALE_DAYS };
}

function loadErrorText(error: unknown): string {
  if (error instanceof ApiError && error.status === 403) return 'Only admins and managers can see insights.';
  return errorMessage(error, 'Failed to load the insights');
}

/** '269' when the figure's count is known; 'first 200 listed' when the list may have been cut at the server's limit and the count of jobs is not known. */
function countWords(listed: number, total: number | undefined): string {
  if (total !== undefined) return String(Math.max(total, listed));
  return listed >= INSIGHT_JOBS_MAX ? `first ${listed} listed` : String(listed);
}

/**
 * The jobs behind a figure, as links that open each job. The server lists the first
 * INSIGHT_JOBS_MAX of them: past that, the list says how many more there are, so its count
 * never contradicts the figure's ('Quoted jobs (200)' beside '269 quoted jobs').
 */
export function JobsBehind({
  jobs,
  total,
  pipelinePath,
  label,
  labelCounts = false,
}: {
  jobs: InsightJob[];
  /** How many jobs the figure counts (more than are listed when the list was cut). */
  total?: number;
  pipelinePath: string;
  label: string;
  /** The label already says how many jobs these are ('Sam: 19 completed'): no count after it to repeat it. */
  labelCounts?: boolean;
}) {
  if (jobs.length === 0) return null;
  const more = total === undefined ? 0 : total - jobs.length;
  return (
    <details className="group text-sm" data-testid="jobs-behind">
      <summary className="cursor-pointer select-none text-primary hover:underline">
        {labelCounts ? label : `${label} (${countWords(jobs.length, total)})`}
      </summary>
      <ul className="mt-2 flex flex-wrap gap-1.5">
        {jobs.map((job) => (
          <li key={job.id}>
            <Link
              to={jobPath(pipelinePath, job.id)}
              className="inline-flex items-center rounded-md border bg-background px-2 py-0.5 text-xs hover:bg-accent"
            >
              #{job.jobNumber}
              {job.name ? ` · ${job.name}` : ''}
            </Link>
          </li>
        ))}
        {more > 0 ? (
          <li className="self-center text-xs text-muted-foreground" data-testid="jobs-behind-more">
            and {more} more (the first {jobs.length} are listed; a shorter period lists them all)
          </li>
        ) : null}
      </ul>
    </details>
  );
}

function Figure({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">{children}</CardContent>
    </Card>
  );
}

const Empty = ({ children }: { children: ReactNode }) => <p className="py-6 text-center text-sm text-muted-foreground">{children}</p>;

function Figures({ data, pipelinePath }: { data: Insights; pipelinePath: string }) {
  const { conversion, weeks } = data;
  const completed = weeks.reduce((sum, week) => sum + week.completed, 0);
  const revenue = weeks.reduce((sum, week) => sum + week.revenue, 0);
  const collected = weeks.reduce((sum, week) => sum + week.collected, 0);
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Figure title="Quote → paid" description="Jobs quoted in the period, and how many of them have been paid.">
        <p className="text-4xl font-semibold tracking-tight" data-testid="conversion-rate">
          {conversion.rate === null ? '—' : `${Math.round(conversion.rate * 1000) / 10}%`}
        </p>
        <p className="text-sm text-muted-foreground">
          {conversion.paid} of {conversion.quoted} quoted job{conversion.quoted === 1 ? '' : 's'} paid
        </p>
        <JobsBehind jobs={conversion.quotedJobs} total={conversion.quoted} pipelinePath={pipelinePath} label="Quoted jobs" />
        <JobsBehind jobs={conversion.paidJobs} total={conversion.paid} pipelinePath={pipelinePath} label="Paid jobs" />
      </Figure>

      <Figure title={`Open quotes older than ${data.staleQuotes.days} days`} description="Jobs still in Quote, oldest first: worth a call.">
        {data.staleQuotes.jobs.length === 0 ? (
          <Empty>No open quotes that old</Empty>
        ) : (
          <ul className="grid gap-1.5 text-sm" aria-label="Old open quotes">
            {data.staleQuotes.jobs.map((job) => (
              <li key={job.id} className="flex flex-wrap items-baseline justify-between gap-2 border-b pb-1.5 last:border-0">
                <Link to={jobPath(pipelinePath, job.id)} className="font-medium text-primary hover:underline">
                  #{job.jobNumber}
                  {job.name ? ` · ${job.name}` : ''}
                </Link>
                <span className="text-xs text-muted-foreground">
                  {job.ageDays} days · since {formatDate(job.since)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Figure>

      <Figure title="Time in each stage" description="How long jobs stayed in a stage, for stays that ended in the period.">
        {data.stageTimes.length === 0 ? (
          <Empty>No job left a stage in this period</Empty>
        ) : (
          <>
            <div
              role="img"
              aria-label={data.stageTimes
                .map((s) => `${s.stage}: median ${formatHours(s.medianHours)}, 90th percentile ${formatHours(s.p90Hours)}`)
                .join('; ')}
            >
              <StageTimesChart stageTimes={data.stageTimes} />
            </div>
            {data.stageTimes.map((stage) => (
              <JobsBehind
                key={stage.stage}
                jobs={stage.jobs}
                pipelinePath={pipelinePath}
                label={`${stage.stage}: median ${formatHours(stage.medianHours)}, p90 ${formatHours(stage.p90Hours)}, ${stage.count} stay${stage.count === 1 ? '' : 's'}`}
              />
            ))}
          </>
        )}
      </Figure>

      <Figure title="Busiest technicians" description="Jobs each technician completed in the period.">
        {data.technicians.length === 0 ? (
          <Empty>No jobs completed in this period</Empty>
        ) : (
          <>
            <div role="img" aria-label={data.technicians.map((t) => `${t.tech}: ${t.completed}`).join('; ')}>
              <TechniciansChart technicians={data.technicians} />
            </div>
            {data.technicians.map((tech) => (
              <JobsBehind
                key={tech.tech}
                jobs={tech.jobs}
                total={tech.completed}
                pipelinePath={pipelinePath}
                label={`${tech.tech}: ${tech.completed} completed`}
                labelCounts
              />
            ))}
          </>
        )}
      </Figure>

      <Figure
        title="Jobs completed per week"
        description={`${completed} job${completed === 1 ? '' : 's'} moved to Completed in the period.`}
      >
        <div role="img" aria-label={weeks.map((w) => `${weekOf(w.weekStart)}: ${w.completed} completed`).join('; ')}>
          <WeeklyChart weeks={weeks} metric="completed" />
        </div>
        {weeks
          .filter((week) => week.completed > 0)
          .map((week) => (
            <JobsBehind
              key={week.weekStart}
              jobs={week.completedJobs}
              total={week.completed}
              pipelinePath={pipelinePath}
              label={`${weekOf(week.weekStart)}: ${week.completed} completed`}
              labelCounts
            />
          ))}
      </Figure>

      <Figure
        title="Revenue per week: invoiced and collected"
        description={`${formatDollars(revenue)} invoiced in the period (invoices issued; a job without lines counts its quote when moved to Invoiced). ${formatDollars(collected)} collected (payments less refunds).`}
      >
        <div
          role="img"
          aria-label={weeks
            .map((w) => `${weekOf(w.weekStart)}: ${formatDollars(w.revenue)} invoiced, ${formatDollars(w.collected)} collected`)
            .join('; ')}
        >
          <WeeklyChart weeks={weeks} metric="revenue" />
        </div>
        {weeks
          .filter((week) => week.invoicedJobs.length > 0)
          .map((week) => (
            <JobsBehind
              key={week.weekStart}
              jobs={week.invoicedJobs}
              pipelinePath={pipelinePath}
              label={`${weekOf(week.weekStart)}: ${formatDollars(week.revenue)} invoiced, ${formatDollars(week.collected)} collected`}
            />
          ))}
      </Figure>
    </div>
  );
}

/**
 * Insights for admins and managers: figures from the event history for a period of the
 * shop's calendar, each with the jobs behind it (they open the pipeline searched for them).
 */
export function InsightsScreen({ instance, timeZone, pipelinePath }: { instance: string; timeZone: string; pipelinePath: string }) {
  const [params, setParams] = useSearchParams();
  const period = periodFromParams(params, timeZone);
  const [draft, setDraft] = useState(period);
  const insights = useInsights(instance, period);

  const apply = (next: InsightsPeriod) => {
    setDraft(next);
    setParams({ from: next.from, to: next.to, stale: String(next.staleDays) });
  };
  const backwards = draft.from > draft.to;

  return (
    <div className="grid gap-6">
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Insights</h1>
        <p className="text-muted-foreground">
          From the shop&apos;s history, {formatDate(period.from)} – {formatDate(period.to)} ({timeZone}).
        </p>
      </div>

      <form
        className="flex flex-wrap items-end gap-3"
        aria-label="Period"
        onSubmit={(event) => {
          event.preventDefault();
          if (!backwards) apply(draft);
        }}
      >
        <div role="group" aria-label="Quick periods" className="flex flex-wrap gap-2">
          {PRESETS.map((preset) => (
            <Button
              key={preset.weeks}
              type="button"
              size="sm"
              variant="outline"
              onClick={() => {
                const to = dayInZone(new Date(), timeZone);
                apply({ ...draft, from: addDays(to, -(preset.weeks * 7 - 1)), to });
              }}
            >
              {preset.label}
            </Button>
          ))}
        </div>
        <div className="grid gap-1">
          <Label htmlFor="insights-from">From</Label>
          <Input
            id="insights-from"
            type="date"
            value={draft.from}
            onChange={(e) => setDraft({ ...draft, from: e.target.value })}
            className="w-40"
          />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="insights-to">To</Label>
          <Input
            id="insights-to"
            type="date"
            value={draft.to}
            onChange={(e) => setDraft({ ...draft, to: e.target.value })}
            className="w-40"
          />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="insights-stale">Quotes older than (days)</Label>
          <Input
            id="insights-stale"
            type="number"
            min={1}
            max={365}
            value={draft.staleDays}
            onChange={(e) => setDraft({ ...draft, staleDays: Number(e.target.value) || DEFAULT_STALE_DAYS })}
            className="w-28"
          />
        </div>
        <Button type="submit" size="md" disabled={backwards}>
          Show
        </Button>
        {backwards ? <p className="basis-full text-sm text-destructive">&quot;From&quot; must be on or before &quot;To&quot;</p> : null}
      </form>

      {insights.isPending ? (
        <Spinner label="Loading insights..." className="py-10" />
      ) : insights.isError ? (
        <Alert>{loadErrorText(insights.error)}</Alert>
      ) : (
        <Figures data={insights.data} pipelinePath={pipelinePath} />
      )}
    </div>
  );
}
