import { describe, expect, test } from 'vitest';
import { ApiError, apiErrorFromResponse, errorMessage } from '../src/lib/api-error.ts';

describe('apiErrorFromResponse', () => {
  test("uses the problem's message and keeps the status", () => {
    const body = JSON.stringify({ type: 'about:blank', title: 'Conflict', status: 409, detail: 'x', message: 'Subdomain is taken' });
    const error = apiErrorFromResponse(409, 'Conflict', body);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(409);
    expect(error.message).toBe('Subdomain is taken');
    expect(error.problem?.title).toBe('Conflict');
  });

  test('falls back to "{status}: {text}" for a body without a message', () => {
    expect(apiErrorFromResponse(500, 'Internal Server Error', 'boom').message).toBe('500: boom');
    expect(apiErrorFromResponse(400, 'Bad Request', '{"title":"x"}').message).toBe('400: {"title":"x"}');
  });

  test('uses the status text when the body is empty', () => {
    expect(apiErrorFromResponse(502, 'Bad Gateway', '').message).toBe('502: Bad Gateway');
    expect(apiErrorFromResponse(503, 'Service Unavailable', '  \n').message).toBe('503: Service Unavailable');
  });
});

describe('errorMessage', () => {
  test("shows the server's message", () => {
    expect(errorMessage(new ApiError(409, 'Subdomain is taken', { message: 'Subdomain is taken' }), 'Failed')).toBe('Subdomain is taken');
  });

  test('falls back for network errors and answers without a message', () => {
    expect(errorMessage(new TypeError('Failed to fetch'), 'Failed to create CRM')).toBe('Failed to create CRM');
    expect(errorMessage(apiErrorFromResponse(502, 'Bad Gateway', ''), 'Failed to create CRM')).toBe('Failed to create CRM');
  });
});
