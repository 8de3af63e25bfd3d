import { describe, expect, test } from 'vitest';
import { notSetUpNotice, reasonForStaff } from '../../src/messages/message-reasons.ts';
import { classifySmtpError } from '../../src/messages/transports.ts';

describe("a failed or unsent message's reason, as staff read it", () => {
  test('the kind of failure and whether it is tried again decide the words; no provider answer or server setting in them', () => {
    const to = 'sam@example.test';
    expect(reasonForStaff({ channel: 'email', cause: 'not-configured', to, retrying: false })).toBe(
      'E-mail is not set up for this shop — ask your administrator',
    );
    expect(reasonForStaff({ channel: 'sms', cause: 'not-configured', to, retrying: false })).toBe(
      'Text messages are not set up for this shop — ask your administrator',
    );
    expect(reasonForStaff({ channel: 'email', cause: 'unreachable', to, retrying: true })).toBe(
      'Could not reach the e-mail provider — it will be tried again on its own',
    );
    expect(reasonForStaff({ channel: 'email', cause: 'unreachable', to, retrying: false })).toBe(
      'Could not reach the e-mail provider after repeated tries — retry later, or ask your administrator',
    );
    expect(reasonForStaff({ channel: 'sms', cause: 'address-rejected', to: '+15550001111', retrying: false })).toContain(
      'refused the phone number +15550001111',
    );
  });

  test("the SMTP server's refusal of the recipient is an address refused; other refusals are not", () => {
    const rcpt = classifySmtpError({ code: 'EENVELOPE', command: 'RCPT TO', responseCode: 550, response: '550 No such mailbox here' });
    expect(rcpt).toMatchObject({ failureCause: 'address-rejected', retryable: false, message: 'SMTP 550: 550 No such mailbox here' });
    expect(classifySmtpError({ command: 'DATA', responseCode: 554, response: '554 spam' }).failureCause).toBe('refused');
    expect(classifySmtpError({ command: 'RCPT TO', responseCode: 451, response: '451 later' }).failureCause).toBe('deferred');
    expect(classifySmtpError({ code: 'ECONNECTION', message: 'connect ECONNREFUSED' }).failureCause).toBe('unreachable');
  });

  test("the messages screen's notice names the channels that cannot send", () => {
    expect(notSetUpNotice({ email: true, sms: true })).toBeNull();
    expect(notSetUpNotice({ email: false, sms: true })).toMatch(/^E-mail is not set up for this shop — ask your administrator\./);
    expect(notSetUpNotice({ email: false, sms: false })).toMatch(/^E-mail and text messages are not set up for this shop/);
  });
});
