import { CONTACT_MAX_LENGTH } from '@homereport/contracts';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import type { ContactMessage, MessageResponse } from '../../api/types';
import { TextAreaField, TextField } from '../../components/Field';
import { FormProblemAlert, SubmitButton, problemMarks } from '../../components/Form';
import { Icon } from '../../components/Icon';
import { useFormSend } from '../../hooks/useFormSend';
import { problemFrom } from '../../session/formProblem';

const PROBLEM_ID = 'contact-problem';

const emptyForm: ContactMessage = { name: '', email: '', subject: '', message: '' };

/** The message form; `onSent` runs once the message is accepted. */
export function ContactForm({ onSent }: { onSent: () => void }) {
  const [form, setForm] = useState<ContactMessage>(emptyForm);
  const { problem, setProblem, submitting, submit } = useFormSend();
  const marks = problemMarks(problem, PROBLEM_ID);

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
      <FormProblemAlert problem={problem} id={PROBLEM_ID} testId="contact-error" />
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
            {...marks('name')}
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
            {...marks('email')}
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
          {...marks('subject')}
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
          {...marks('message')}
          value={form.message}
          onChange={update('message')}
          placeholder="Tell us a little about your question or the property you have in mind."
        />
        <SubmitButton sending={submitting} sendingLabel="Sending Message..." testId="contact-submit">
          <Icon name="send" size={18} /> Send Message
        </SubmitButton>
      </form>
    </div>
  );
}
