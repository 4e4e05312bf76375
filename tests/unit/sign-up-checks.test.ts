import { describe, expect, it } from 'vitest';
import * as messages from '../../src/shared/messages';
import { contactMessageSchema, emailSchema } from '../../src/shared/schemas';
import { firstSignUpProblem } from '../../src/shared/sign-up-checks';

const valid = {
  fullName: 'Ada',
  email: 'ada@example.com',
  password: 'secret-42',
  confirmPassword: 'secret-42',
  captchaDone: true,
};

describe('the sign-up checks', () => {
  it('pass a complete form', () => {
    expect(firstSignUpProblem(valid)).toBeNull();
  });

  it('report the first problem in the product order: captcha, match, length, fields', () => {
    const everythingWrong = {
      fullName: '',
      email: '',
      password: 'abc',
      confirmPassword: 'abd',
      captchaDone: false,
    };
    expect(firstSignUpProblem(everythingWrong)).toBe(messages.captchaRequired);
    expect(firstSignUpProblem({ ...everythingWrong, captchaDone: true })).toBe(messages.passwordsDoNotMatch);
    expect(firstSignUpProblem({ ...everythingWrong, captchaDone: true, confirmPassword: 'abc' })).toBe(
      messages.passwordTooShort,
    );
    expect(firstSignUpProblem({ ...valid, fullName: '  ' })).toBe(messages.fillAllFields);
    expect(firstSignUpProblem({ ...valid, email: '' })).toBe(messages.fillAllFields);
  });

  it('accept exactly 6 and 128 characters, refuse 5 and 129', () => {
    const withPassword = (password: string) => ({ ...valid, password, confirmPassword: password });
    expect(firstSignUpProblem(withPassword('123456'))).toBeNull();
    expect(firstSignUpProblem(withPassword('12345'))).toBe(messages.passwordTooShort);
    expect(firstSignUpProblem(withPassword('x'.repeat(128)))).toBeNull();
    expect(firstSignUpProblem(withPassword('x'.repeat(129)))).toBe(messages.passwordTooLong);
  });
});

describe('field schemas', () => {
  it('trim and lower-case an email', () => {
    expect(emailSchema.parse('  Ada@Example.COM ')).toBe('ada@example.com');
    expect(emailSchema.safeParse('no-at-sign').success).toBe(false);
  });

  it('refuse a contact name with a line break (mail header injection)', () => {
    const result = contactMessageSchema.safeParse({
      name: 'Eve\r\nBcc: victim@example.com',
      email: 'eve@example.com',
      subject: 'general',
      message: 'hi',
    });
    expect(result.success).toBe(false);
  });
});
