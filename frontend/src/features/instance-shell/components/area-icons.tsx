import type { SVGProps } from 'react';

type IconProps = SVGProps<SVGSVGElement>;

/** Outline icons for the dashboard's areas, drawn like the shared ones in components/ui/icons. */
function AreaIcon({ children, ...props }: IconProps) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 24 24"
      width="1em"
      height="1em"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}

export const PipelineAreaIcon = (props: IconProps) => (
  <AreaIcon {...props}>
    <rect width="18" height="18" x="3" y="3" rx="2" />
    <path d="M8 7v7M12 7v4M16 7v9" />
  </AreaIcon>
);

export const CustomersAreaIcon = (props: IconProps) => (
  <AreaIcon {...props}>
    <path d="M16 21v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2" />
    <circle cx="9" cy="7" r="4" />
    <path d="M22 21v-2a4 4 0 0 0-3-3.87M16 3.13a4 4 0 0 1 0 7.75" />
  </AreaIcon>
);

export const CalendarAreaIcon = (props: IconProps) => (
  <AreaIcon {...props}>
    <rect width="18" height="18" x="3" y="4" rx="2" />
    <path d="M16 2v4M8 2v4M3 10h18M8 14h.01M12 14h.01M16 14h.01M8 18h.01M12 18h.01" />
  </AreaIcon>
);

export const AdminAreaIcon = (props: IconProps) => (
  <AreaIcon {...props}>
    <path d="M20 13c0 5-3.5 7.5-7.66 8.95a1 1 0 0 1-.67-.01C7.5 20.5 4 18 4 13V6a1 1 0 0 1 1-1c2 0 4.5-1.2 6.24-2.72a1.17 1.17 0 0 1 1.52 0C14.51 3.81 17 5 19 5a1 1 0 0 1 1 1z" />
    <path d="m9 12 2 2 4-4" />
  </AreaIcon>
);
