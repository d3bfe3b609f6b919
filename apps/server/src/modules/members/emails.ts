import { INVITATION_TTL_DAYS } from '@polyflow/contracts/members';
import type { Email } from '../mail/service.ts';

/** The invitation: a link to the console's /invite screen, which signs up, logs in or accepts. */
export function invitationEmail(input: {
  to: string;
  publicUrl: string;
  token: string;
  projectName: string;
  invitedBy: string;
  role: string;
}): Email {
  const { to, publicUrl, token, projectName, invitedBy, role } = input;
  return {
    to,
    subject: `You are invited to ${projectName} on Polyflow`,
    text: [
      `${invitedBy} invited you to the Polyflow project "${projectName}" as ${role === 'admin' ? 'an admin' : 'a viewer'}.`,
      '',
      'Open this link to join:',
      `${publicUrl}/invite?token=${token}`,
      '',
      `No Polyflow account yet? The link lets you sign up with this address (${to}); you join the project`,
      'once the address is verified.',
      '',
      `The link works once and expires in ${INVITATION_TTL_DAYS} days. If you did not expect it, ignore this email.`,
    ].join('\n'),
  };
}
