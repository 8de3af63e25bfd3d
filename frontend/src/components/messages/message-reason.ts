/**
 * Why a message was not sent or failed, as the shop's staff read it in the outbox. Messages
 * recorded before the server wrote these reasons in staff words carry the operator's wording,
 * with the names of server settings (SMTP_URL, TWILIO_…) that staff can do nothing with: those
 * are shown as what happened and what to do. Any other reason is shown as recorded.
 */
const OPERATOR_WORDING: ReadonlyArray<readonly [RegExp, string]> = [
  [/^Not sent: no SMTP server is configured\b/, 'E-mail is not set up for this shop — ask your administrator'],
  [/^Not sent: no text-message provider is configured\b/, 'Text messages are not set up for this shop — ask your administrator'],
];

export function reasonForStaff(reason: string): string {
  for (const [operatorWording, staffWording] of OPERATOR_WORDING) {
    if (operatorWording.test(reason)) return staffWording;
  }
  return reason;
}
