import type { Email } from '../mail/service.ts';

/** `ABCDEFGH` is shown as `ABCD-EFGH`, easier to read out and to type; the dash is optional when typed. */
const grouped = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

export function verificationEmail(to: string, publicUrl: string, token: string, shortCode: string): Email {
  return {
    to,
    subject: 'Verify your Polyflow account',
    text: [
      'Welcome to Polyflow!',
      '',
      'Open this link to verify your email address:',
      `${publicUrl}/verify?token=${token}`,
      '',
      'Or type this code on the verification screen, with your email address:',
      grouped(shortCode),
      '',
      'The link and code expire in 24 hours. If you did not sign up, ignore this email.',
    ].join('\n'),
  };
}

/** Sent instead of a second account, so registering never reveals who already has one. */
export function alreadyRegisteredEmail(to: string, publicUrl: string): Email {
  return {
    to,
    subject: 'Your Polyflow account',
    text: [
      'Someone (probably you) tried to sign up for Polyflow with this email address,',
      'but it already has an account.',
      '',
      `Log in at ${publicUrl}/`,
      `Forgot your password? Reset it at ${publicUrl}/forgot-password`,
      '',
      'If this was not you, you can ignore this email.',
    ].join('\n'),
  };
}

export function passwordResetEmail(to: string, publicUrl: string, code: string): Email {
  return {
    to,
    subject: 'Reset your Polyflow password',
    text: [
      'Open this link to choose a new password:',
      `${publicUrl}/forgot-password?token=${code}`,
      '',
      'Or paste this code on the password reset screen:',
      code,
      '',
      'The link and code expire in 1 hour. If you did not ask for a reset, ignore this email;',
      'your password stays the same.',
    ].join('\n'),
  };
}
