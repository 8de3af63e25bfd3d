import { FEATURE_KEYS, FEATURE_LABELS, type Features } from '@crm/projections/platform';
import { Badge } from '@/components/ui/badge';

/** The enabled features of an instance, as badges. */
export function FeatureBadges({ features }: { features: Features }) {
  const enabled = FEATURE_KEYS.filter((key) => features[key]);
  if (enabled.length === 0) return <p className="text-xs text-muted-foreground">No features enabled</p>;
  return (
    <ul aria-label="Enabled features" className="flex flex-wrap gap-1.5">
      {enabled.map((key) => (
        <li key={key}>
          <Badge variant="secondary">{FEATURE_LABELS[key]}</Badge>
        </li>
      ))}
    </ul>
  );
}
