import { type Brand, type EmailContent, PRODUCT_NAME, type RenderedEmail, oneLine, renderEmail } from './layout.js';

/** The spec's promises (section 9), written once so every email says the same thing. */
const CONTACT_REPLY_PROMISE = 'We reply within 24 hours on business days.';
const SUPPORT_HOURS = 'Mon-Fri 9:00 AM-6:00 PM EST, Sat 10:00 AM-4:00 PM EST, Sun closed';

export function verificationEmail(input: { verifyUrl: string }, brand: Brand): RenderedEmail {
  const content: EmailContent = {
    subject: `Verify your email for ${PRODUCT_NAME}`,
    preheader: `Confirm your email address to finish setting up your ${PRODUCT_NAME} account.`,
    heading: 'Confirm your email address',
    blocks: [
      {
        kind: 'paragraph',
        text: `Welcome to ${PRODUCT_NAME}! Please confirm that this is your email address, so you can sign in, view property reports and follow your requests.`,
      },
      { kind: 'button', label: 'Verify my email', url: input.verifyUrl },
      { kind: 'paragraph', text: 'This link expires in 24 hours.' },
      { kind: 'note', text: `If you did not create a ${PRODUCT_NAME} account, you can ignore this email.` },
    ],
  };
  return renderEmail(content, brand);
}

export function passwordResetEmail(input: { resetUrl: string }, brand: Brand): RenderedEmail {
  const content: EmailContent = {
    subject: `Reset your ${PRODUCT_NAME} password`,
    preheader: 'Choose a new password. The link expires in 1 hour.',
    heading: 'Reset your password',
    blocks: [
      { kind: 'paragraph', text: `We received a request to reset the password of your ${PRODUCT_NAME} account.` },
      { kind: 'button', label: 'Choose a new password', url: input.resetUrl },
      { kind: 'paragraph', text: 'This link expires in 1 hour.' },
      {
        kind: 'note',
        text: 'If you did not ask to reset your password, ignore this email: your password stays as it is.',
      },
    ],
  };
  return renderEmail(content, brand);
}

export interface ContactMessage {
  messageId: string;
  name: string;
  email: string;
  subject: string;
  message: string;
}

/** The staff's copy. Every field came from an anonymous form, so all of it is escaped by the layout. */
export function contactStaffEmail(input: ContactMessage, brand: Brand): RenderedEmail {
  const content: EmailContent = {
    subject: `Contact form: ${oneLine(input.subject)}`,
    preheader: `${oneLine(input.name, 60)} wrote through the contact form.`,
    heading: 'New message from the contact form',
    blocks: [
      {
        kind: 'fields',
        rows: [
          ['Name', input.name],
          ['Email', input.email],
          ['Subject', input.subject],
        ],
      },
      { kind: 'quote', text: input.message },
      {
        kind: 'paragraph',
        text: `Reply to this email to answer ${input.name} directly. They were promised a reply within 24 hours on business days.`,
      },
      { kind: 'note', text: `Reference: ${input.messageId}` },
    ],
  };
  return renderEmail(content, brand);
}

/**
 * Sent to whatever address the form was given, which nobody verified: so it holds nothing the
 * sender wrote (no name, subject or message), only our own words. Otherwise the form would mail
 * anyone any text under our name.
 */
export function contactAcknowledgementEmail(brand: Brand): RenderedEmail {
  const content: EmailContent = {
    subject: `We received your message to ${PRODUCT_NAME}`,
    preheader: `Thanks for contacting ${PRODUCT_NAME}. ${CONTACT_REPLY_PROMISE}`,
    heading: 'Thanks for reaching out',
    blocks: [
      {
        kind: 'paragraph',
        text: `We received your message to the ${PRODUCT_NAME} team and will reply within 24 hours on business days.`,
      },
      { kind: 'paragraph', text: 'If you want to add something, just reply to this email.' },
      { kind: 'note', text: `Our hours: ${SUPPORT_HOURS}.` },
      { kind: 'note', text: 'If you did not write to us, you can ignore this email.' },
    ],
  };
  return renderEmail(content, brand);
}
