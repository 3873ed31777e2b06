import { CONTACT_MAX_LENGTH } from '@homereport/contracts';
import type { FormEvent } from 'react';
import { api } from '../../api/client';
import type { ContactMessage, MessageResponse } from '../../api/types';
import { EmailField } from '../../components/EmailField';
import { TextAreaField, TextField } from '../../components/Field';
import { PendingButton, ProblemAlert, useFormFields } from '../../components/Form';
import { Icon } from '../../components/Icon';
import { useFormSend } from '../../hooks/useFormSend';
import { problemFrom } from '../../session/formProblem';

const PROBLEM_ID = 'contact-problem';

const emptyForm: ContactMessage = { name: '', email: '', subject: '', message: '' };

/** The message form; `onSent` runs once the message is accepted. */
export function ContactForm({ onSent }: { onSent: () => void }) {
  const { problem, setProblem, submitting, submit } = useFormSend();
  const { values, setValues, field } = useFormFields(emptyForm, {
    idPrefix: 'contact',
    problem,
    problemId: PROBLEM_ID,
    maxLength: CONTACT_MAX_LENGTH,
  });

  const handleSubmit = (event: FormEvent<HTMLFormElement>) =>
    submit(event, {
      check: () => null,
      send: () =>
        api.post<MessageResponse>('/api/contact', values, {
          fallbackError: 'Failed to send message. Please try again.',
        }),
      settle: (result) => {
        if (result.ok) {
          setValues(emptyForm);
          onSent();
        } else {
          setProblem(problemFrom(result));
        }
      },
    });

  return (
    <div className="card form-card">
      <h2>Send Us a Message</h2>
      <p className="muted">Fill in the form and we will get back to you within 24 hours on business days.</p>
      <ProblemAlert problem={problem} id={PROBLEM_ID} testId="contact-error" />
      <form className="form" onSubmit={(event) => void handleSubmit(event)} data-testid="contact-form">
        <div className="form-grid">
          <TextField {...field('name')} label="Full Name" autoComplete="name" required placeholder="Jane Doe" />
          <EmailField {...field('email')} />
        </div>
        <TextField {...field('subject')} label="Subject" required placeholder="How can we help?" />
        <TextAreaField
          {...field('message')}
          label="Message"
          rows={6}
          required
          placeholder="Tell us a little about your question or the property you have in mind."
        />
        <PendingButton pending={submitting} pendingLabel="Sending Message..." testId="contact-submit">
          <Icon name="send" size={18} /> Send Message
        </PendingButton>
      </form>
    </div>
  );
}
