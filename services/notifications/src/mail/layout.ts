/**
 * The one branded layout every email uses. A message is described as blocks, and both the HTML
 * and the plain-text parts are rendered from the same blocks, so the two never drift apart and
 * every piece of text is escaped in one place: nothing a template passes in is trusted as HTML.
 */

export const PRODUCT_NAME = 'HomeReport';

export type Block =
  | { kind: 'paragraph'; text: string }
  | { kind: 'button'; label: string; url: string }
  /** Text someone else wrote (a contact message), shown as a quotation with its line breaks. */
  | { kind: 'quote'; text: string }
  | { kind: 'fields'; rows: [label: string, value: string][] }
  | { kind: 'note'; text: string };

export interface EmailContent {
  subject: string;
  /** The first line an inbox shows beside the subject. */
  preheader: string;
  heading: string;
  blocks: Block[];
}

export interface Brand {
  publicUrl: string;
  supportEmail: string;
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

const COLORS = {
  page: '#f3f4f6',
  card: '#ffffff',
  header: '#1e3a8a',
  button: '#2563eb',
  text: '#111827',
  muted: '#6b7280',
  rule: '#e5e7eb',
  quote: '#f9fafb',
};
const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** A subject line is one line: a newline in user text must not reach a mail header. */
export function oneLine(value: string, max = 150): string {
  const line = value.replace(/[\s\p{Cc}]+/gu, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function renderEmail(content: EmailContent, brand: Brand): RenderedEmail {
  return { subject: oneLine(content.subject, 200), html: renderHtml(content, brand), text: renderText(content, brand) };
}

function renderHtml(content: EmailContent, brand: Brand): string {
  const body = content.blocks.map(blockHtml).join('\n');
  const home = escapeHtml(brand.publicUrl);
  const support = escapeHtml(brand.supportEmail);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(content.subject)}</title>
</head>
<body style="margin:0;padding:0;background:${COLORS.page};font-family:${FONT};">
<div style="display:none;max-height:0;overflow:hidden;">${escapeHtml(content.preheader)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:${COLORS.page};padding:24px 12px;">
<tr><td align="center">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;background:${COLORS.card};border-radius:8px;overflow:hidden;">
<tr><td style="background:${COLORS.header};padding:20px 32px;">
<a href="${home}" style="color:#ffffff;font-size:22px;font-weight:bold;text-decoration:none;letter-spacing:0.5px;">${PRODUCT_NAME}</a>
</td></tr>
<tr><td style="padding:32px;color:${COLORS.text};font-size:16px;line-height:24px;">
<h1 style="margin:0 0 16px;font-size:22px;line-height:30px;color:${COLORS.text};">${escapeHtml(content.heading)}</h1>
${body}
</td></tr>
<tr><td style="padding:20px 32px;background:${COLORS.quote};border-top:1px solid ${COLORS.rule};color:${COLORS.muted};font-size:12px;line-height:18px;">
${PRODUCT_NAME} · On-demand property assessment reports<br>
Questions? Write to <a href="mailto:${support}" style="color:${COLORS.muted};">${support}</a> or visit <a href="${home}" style="color:${COLORS.muted};">${home}</a>.
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}

function blockHtml(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
      return `<p style="margin:0 0 16px;">${escapeHtml(block.text)}</p>`;
    case 'note':
      return `<p style="margin:0 0 16px;color:${COLORS.muted};font-size:14px;line-height:20px;">${escapeHtml(block.text)}</p>`;
    case 'button': {
      const url = escapeHtml(block.url);
      return `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 24px;"><tr><td style="border-radius:6px;background:${COLORS.button};">
<a href="${url}" style="display:inline-block;padding:12px 24px;color:#ffffff;font-weight:bold;font-size:16px;text-decoration:none;border-radius:6px;">${escapeHtml(block.label)}</a>
</td></tr></table>
<p style="margin:0 0 16px;color:${COLORS.muted};font-size:13px;line-height:18px;">If the button does not work, copy this link into your browser:<br><a href="${url}" style="color:${COLORS.button};word-break:break-all;">${url}</a></p>`;
    }
    case 'quote':
      return `<div style="margin:0 0 16px;padding:12px 16px;background:${COLORS.quote};border-left:4px solid ${COLORS.rule};white-space:pre-wrap;word-break:break-word;">${escapeHtml(block.text)}</div>`;
    case 'fields':
      return `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px;border-collapse:collapse;">${block.rows
        .map(
          ([label, value]) =>
            `<tr><td style="padding:4px 16px 4px 0;color:${COLORS.muted};vertical-align:top;white-space:nowrap;">${escapeHtml(label)}</td><td style="padding:4px 0;word-break:break-word;">${escapeHtml(value)}</td></tr>`,
        )
        .join('')}</table>`;
  }
}

function renderText(content: EmailContent, brand: Brand): string {
  const parts = [PRODUCT_NAME, '='.repeat(PRODUCT_NAME.length), '', content.heading, ''];
  for (const block of content.blocks) {
    switch (block.kind) {
      case 'paragraph':
      case 'note':
        parts.push(block.text, '');
        break;
      case 'button':
        parts.push(`${block.label}:`, block.url, '');
        break;
      case 'quote':
        parts.push(...block.text.split(/\r?\n/).map((line) => `> ${line}`), '');
        break;
      case 'fields':
        parts.push(...block.rows.map(([label, value]) => `${label}: ${value}`), '');
        break;
    }
  }
  parts.push(
    '--',
    `${PRODUCT_NAME} · On-demand property assessment reports`,
    `Questions? Write to ${brand.supportEmail} or visit ${brand.publicUrl}.`,
  );
  return `${parts.join('\n')}\n`;
}
