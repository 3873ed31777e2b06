import { CONTACT_MAX_LENGTH } from '@homereport/contracts';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import type { ContactMessage, MessageResponse } from '../../api/types';
import { Alert } from '../../components/Alert';
import { TextAreaField, TextField } from '../../components/Field';
import { Icon } from '../../components/Icon';
import { useFormSend } from '../../hooks/useFormSend';
import { fieldState, problemFrom } from '../../session/formProblem';

const PROBLEM_ID = 'contact-problem';

const emptyForm: ContactMessage = { name: '', email: '', subject: '', message: '' };

/** The message form; `onSent` runs once the message is accepted. */
export function ContactForm({ onSent }: { onSent: () => void }) {
  const [form, setForm] = useState<ContactMessage>(emptyForm);
  const { problem, setProblem, submitting, submit } = useFormSend();

  function update(field: keyof ContactMessage) {
    return (value: string) => setForm((current) => ({ ...current, [field]: value }));
  }

  const handleSubmit = (event: FormEvent<HTMLFormElement>) =>
    submit(event, {
      check: () => null,
      send: () =>
        api.post<MessageResponse>('/api/contact', form, { fallbackError: 'Failed to send message. Please try again.' }),
      settle: (result) => {
        if (result.ok) {
          setForm(emptyForm);
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
      {problem && (
        <Alert kind="error" testId="contact-error" id={PROBLEM_ID}>
          {problem.message}
        </Alert>
      )}
      <form className="form" onSubmit={(event) => void handleSubmit(event)} data-testid="contact-form">
        <div className="form-grid">
          <TextField
            id="contact-name"
            label="Full Name"
            name="name"
            type="text"
            autoComplete="name"
            required
            maxLength={CONTACT_MAX_LENGTH.name}
            {...fieldState(problem, 'name', PROBLEM_ID)}
            value={form.name}
            onChange={update('name')}
            placeholder="Jane Doe"
          />
          <TextField
            id="contact-email"
            label="Email Address"
            name="email"
            type="email"
            autoComplete="email"
            required
            maxLength={CONTACT_MAX_LENGTH.email}
            {...fieldState(problem, 'email', PROBLEM_ID)}
            value={form.email}
            onChange={update('email')}
            placeholder="you@example.com"
          />
        </div>
        <TextField
          id="contact-subject"
          label="Subject"
          name="subject"
          type="text"
          required
          maxLength={CONTACT_MAX_LENGTH.subject}
          {...fieldState(problem, 'subject', PROBLEM_ID)}
          value={form.subject}
          onChange={update('subject')}
          placeholder="How can we help?"
        />
        <TextAreaField
          id="contact-message"
          label="Message"
          name="message"
          rows={6}
          required
          maxLength={CONTACT_MAX_LENGTH.message}
          {...fieldState(problem, 'message', PROBLEM_ID)}
          value={form.message}
          onChange={update('message')}
          placeholder="Tell us a little about your question or the property you have in mind."
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={submitting} data-testid="contact-submit">
          {submitting ? (
            'Sending Message...'
          ) : (
            <>
              <Icon name="send" size={18} /> Send Message
            </>
          )}
        </button>
      </form>
    </div>
  );
}
