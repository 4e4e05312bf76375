import { describe, expect, it } from 'vitest';
import { firstContactProblem } from '../../src/client/features/contact/contact-checks';
import { messages } from '../../src/shared/messages';

const valid = { name: 'Vera', email: 'vera@example.com', subject: 'billing', message: 'Hello' };

describe("the contact form's browser check", () => {
  it('passes a complete message', () => {
    expect(firstContactProblem(valid)).toBeNull();
  });

  it('asks for every field first, marking the empty ones', () => {
    expect(firstContactProblem({ ...valid, name: ' ', message: '' })).toEqual({
      message: messages.fillAllFields,
      fields: ['name', 'message'],
    });
  });

  it.each([
    ['no subject', { subject: '' }, 'Please choose a subject', 'subject'],
    ['a malformed email', { email: 'vera@' }, messages.invalidEmail, 'email'],
    ['a name over 80 characters', { name: 'x'.repeat(81) }, 'Name must be at most 80 characters', 'name'],
    [
      'a message over 5,000 characters',
      { message: 'x'.repeat(5001) },
      'Message must be at most 5000 characters',
      'message',
    ],
  ])('refuses %s with the words the server would use', (_label, change, message, field) => {
    expect(firstContactProblem({ ...valid, ...change })).toEqual({ message, fields: [field] });
  });
});
