import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

/** The admin page's explanation of how customer data is protected. */
export function CustomerDataSecurity() {
  return (
    <Card>
      <CardHeader>
        <CardTitle id="security-heading">Customer Data Security</CardTitle>
        <CardDescription>How this CRM protects your customers' information.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-3 text-sm">
          <li className="grid gap-0.5">
            <span className="font-medium">Phone numbers are masked in lists</span>
            <span className="text-muted-foreground">
              Lists of jobs and customers show only the last 4 digits of a phone number (•••-•••-1234). Staff see the full number when they
              open a single job or customer.
            </span>
          </li>
          <li className="grid gap-0.5">
            <span className="font-medium">Every request is authenticated</span>
            <span className="text-muted-foreground">
              All customer data endpoints require a signed-in user of this CRM, and each user only ever sees this CRM's data.
            </span>
          </li>
          <li className="grid gap-0.5">
            <span className="font-medium">Sensitive data is never cached</span>
            <span className="text-muted-foreground">
              Responses tell browsers and proxies not to store them, so customer details do not linger on shared computers.
            </span>
          </li>
          <li className="grid gap-0.5">
            <span className="font-medium">Every change is recorded</span>
            <span className="text-muted-foreground">The audit log shows who changed what and when.</span>
          </li>
        </ul>
      </CardContent>
    </Card>
  );
}
