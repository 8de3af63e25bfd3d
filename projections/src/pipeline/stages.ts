/**
 * The pipeline's vocabulary: its stages and job types, what they may be
 * typed as, and their order on the board. Browser-safe.
 */

/** Canonical stages in board order; Canceled is terminal and hidden by default. */
export const STAGES = [
  'Quote',
  'Parts Ordered',
  'Parts In',
  'Scheduled',
  'In Progress',
  'Completed',
  'Invoiced',
  'Paid',
  'Canceled',
] as const;
export type Stage = (typeof STAGES)[number];

export const CANCELED_STAGE = 'Canceled' satisfies Stage;
export const INITIAL_STAGE = 'Quote' satisfies Stage;
/** Stages that say the work is done: a job there no longer waits for its appointment. */
export const WORK_DONE_STAGES: ReadonlySet<string> = new Set<Stage>(['Completed', 'Invoiced', 'Paid']);
/** The dialog's stage bar and the board columns: every stage but Canceled. */
export const BOARD_STAGES = STAGES.filter((stage) => stage !== CANCELED_STAGE) as Exclude<Stage, 'Canceled'>[];

/** Older vocabularies (the inline dropdown's and the Maven variant's), normalised on input. */
const STAGE_ALIASES: Record<string, Stage> = {
  quoted: 'Quote',
  complete: 'Completed',
  cancelled: 'Canceled',
  approved: 'Parts Ordered',
  delivered: 'Completed',
};

export const INVALID_STAGE_MESSAGE = `Stage must be one of: ${STAGES.join(', ')}`;

/** Case, spaces, dashes and underscores do not matter: 'parts-ordered' is 'Parts Ordered'. */
const vocabularyKey = (value: string) => value.toLowerCase().replace(/[^a-z0-9]/g, '');

const STAGE_BY_KEY = new Map<string, Stage>([
  ...STAGES.map((stage) => [vocabularyKey(stage), stage] as const),
  ...Object.entries(STAGE_ALIASES).map(([alias, stage]) => [vocabularyKey(alias), stage] as const),
]);

/** The canonical stage for a typed one (aliases included), or null when it is none. */
export function normalizeStage(value: string): Stage | null {
  return STAGE_BY_KEY.get(vocabularyKey(value)) ?? null;
}

/** Position on the board: sorting by stage sorts by this. */
export function stageOrder(stage: Stage): number {
  return STAGES.indexOf(stage);
}

// ---- job types ------------------------------------------------------------------------

/**
 * One vocabulary for the pipeline's and the calendar's job types: the pipeline's four
 * plus the calendar's Pickup and Delivery. The calendar's 'in-shop' / 'mobile' / 'pickup'
 * / 'delivery' are accepted on input and normalised (case and separators do not matter).
 */
export const JOB_TYPES = ['In Shop', 'Floating Shop', 'Mobile', 'Floating Mobile', 'Pickup', 'Delivery'] as const;
export type JobType = (typeof JOB_TYPES)[number];

export const INVALID_JOB_TYPE_MESSAGE = `Job type must be one of: ${JOB_TYPES.join(', ')}`;

const JOB_TYPE_BY_KEY = new Map<string, JobType>(JOB_TYPES.map((type) => [vocabularyKey(type), type]));

export function normalizeJobType(value: string): JobType | null {
  return JOB_TYPE_BY_KEY.get(vocabularyKey(value)) ?? null;
}

/** Calendar-created appointments without a type are in-shop. */
export const DEFAULT_CALENDAR_JOB_TYPE: JobType = 'In Shop';
/** An appointment without a duration lasts this long on the calendar. */
export const DEFAULT_DURATION_MINUTES = 60;
export const DURATION_CHOICES = [30, 60, 90, 120, 180, 240, 480] as const;
