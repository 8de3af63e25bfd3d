import { describe, expect, test } from 'vitest';
import { reasonForStaff } from '../src/components/messages/message-reason';

describe("an unsent message's reason, as staff read it", () => {
  test("a message recorded with the operator's wording names no server setting", () => {
    expect(reasonForStaff('Not sent: no SMTP server is configured (SMTP_URL)')).toBe(
      'E-mail is not set up for this shop — ask your administrator',
    );
    expect(
      reasonForStaff('Not sent: no text-message provider is configured (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM_NUMBER)'),
    ).toBe('Text messages are not set up for this shop — ask your administrator');
  });

  test('a reason already in staff words, or any other, is shown as recorded', () => {
    expect(reasonForStaff('E-mail is not set up for this shop — ask your administrator')).toBe(
      'E-mail is not set up for this shop — ask your administrator',
    );
    expect(reasonForStaff('Not sent: the customer withdrew consent for this channel')).toBe(
      'Not sent: the customer withdrew consent for this channel',
    );
  });
});
