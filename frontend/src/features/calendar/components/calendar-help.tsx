import { Card } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import { JOB_TYPE_LEGEND } from '../utils/calendar-events';

/**
 * The Job Types legend and the How to Use and Mobile Tips panels; stacked on a phone. A reader
 * who may not change jobs is told only what they can do: open an appointment to see it.
 */
export function CalendarHelp({ phone, canWrite }: { phone: boolean; canWrite: boolean }) {
  return (
    <div className={cn('grid gap-4', phone ? 'grid-cols-1' : 'md:grid-cols-3')}>
      <Card className="p-4">
        <h2 className="mb-3 text-sm font-semibold">Job Types</h2>
        <ul className="grid grid-cols-2 gap-2 text-sm" aria-label="Job type colours">
          {JOB_TYPE_LEGEND.map((item) => (
            <li key={item.color} className="flex items-center gap-2">
              <span aria-hidden className={cn('crm-swatch size-3 rounded-sm', `crm-event--${item.color}`)} />
              {item.label}
            </li>
          ))}
        </ul>
      </Card>
      <Card className="p-4">
        <h2 className="mb-3 text-sm font-semibold">How to Use</h2>
        <ul className="grid list-disc gap-1 pl-5 text-sm text-muted-foreground" data-testid="calendar-how-to">
          {canWrite ? (
            <>
              <li>Drag appointments between dates to reschedule them.</li>
              <li>Drag the bottom edge in the week or day view to change the duration.</li>
              <li>Click an appointment to edit it.</li>
              <li>Click an empty date or time to create an appointment, or use New Appointment.</li>
              <li>With the keyboard: Tab to an appointment and press Enter to open it.</li>
              <li>In the day view, Technician lanes show each technician's day; drag between lanes to reassign.</li>
            </>
          ) : (
            <>
              <li>Click an appointment to see its job.</li>
              <li>With the keyboard: Tab to an appointment and press Enter to open it.</li>
              <li>In the day view, Technician lanes show each technician's day.</li>
              <li>Your account may look but not change jobs: ask an admin if you need to.</li>
            </>
          )}
        </ul>
      </Card>
      <Card className="p-4">
        <h2 className="mb-3 text-sm font-semibold">Mobile Tips</h2>
        <ul className="grid list-disc gap-1 pl-5 text-sm text-muted-foreground">
          <li>Swipe left or right to move to the next or previous day, week or month.</li>
          <li>Tap an appointment to {canWrite ? 'edit' : 'see'} it.</li>
          {canWrite ? <li>Press and hold an empty time to create an appointment there.</li> : null}
        </ul>
      </Card>
    </div>
  );
}
