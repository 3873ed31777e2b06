import { describe, expect, it } from 'vitest';
import { faqCategories } from './faqData';
import { type FaqCategory, countFaqItems, searchFaq } from './searchFaq';

const categories: FaqCategory[] = [
  {
    id: 'start',
    title: 'Getting Started',
    items: [
      { id: 'what', question: 'What is HomeReport?', answer: 'Assessment reports for U.S. homes.' },
      { id: 'request', question: 'How do I request a report?', answer: 'Use the Request Coverage form.' },
    ],
  },
  {
    id: 'billing',
    title: 'Account & Billing',
    items: [{ id: 'credits', question: 'How do credits work?', answer: 'You get 10 free CREDITS each period.' }],
  },
];

describe('help FAQ search', () => {
  it('a blank query keeps every category and question', () => {
    expect(searchFaq(categories, '')).toEqual(categories);
    expect(searchFaq(categories, '   ')).toEqual(categories);
  });

  it('matches words in the question, ignoring case', () => {
    const result = searchFaq(categories, 'HOMEREPORT');

    expect(result).toHaveLength(1);
    expect(result[0]?.items.map((item) => item.id)).toEqual(['what']);
  });

  it('matches words that appear only in the answer', () => {
    const result = searchFaq(categories, 'coverage form');

    expect(result.map((category) => category.id)).toEqual(['start']);
    expect(result[0]?.items.map((item) => item.id)).toEqual(['request']);
  });

  it('matches across categories', () => {
    const result = searchFaq(categories, 'credits');

    expect(result.map((category) => category.id)).toEqual(['billing']);
    expect(countFaqItems(result)).toBe(1);
  });

  it('drops categories with no matching question and returns nothing when nothing matches', () => {
    expect(searchFaq(categories, 'zebra')).toEqual([]);
  });

  it('does not change the categories it was given', () => {
    const before = JSON.stringify(categories);

    searchFaq(categories, 'credits');

    expect(JSON.stringify(categories)).toBe(before);
  });

  it('treats characters with a meaning in patterns literally', () => {
    expect(searchFaq(categories, '.*')).toEqual([]);
    expect(countFaqItems(searchFaq(categories, 'homereport?'))).toBe(1);
  });
});

describe('help FAQ content', () => {
  it('has the four categories of the help center', () => {
    expect(faqCategories.map((category) => category.title)).toEqual([
      'Getting Started',
      'Account & Billing',
      'Reports & Data',
      'Technical Support',
    ]);
  });

  it('answers questions about credits truthfully: 10 per 30 days, re-opening free, no carry-over', () => {
    const credits = searchFaq(faqCategories, 'credit');
    const text = credits.flatMap((category) => category.items.map((item) => item.answer)).join(' ');

    expect(text).toContain('10 free report credits');
    expect(text).toContain('30-day period');
    expect(text).toMatch(/again .*free/i);
    expect(text).toMatch(/do not carry over/i);
  });

  it('gives the review and delivery promises and the reset link lifetime', () => {
    expect(countFaqItems(searchFaq(faqCategories, 'within 24 hours'))).toBeGreaterThan(0);
    expect(countFaqItems(searchFaq(faqCategories, '3-5 business days'))).toBeGreaterThan(0);
    expect(countFaqItems(searchFaq(faqCategories, 'expires in 1 hour'))).toBeGreaterThan(0);
    expect(countFaqItems(searchFaq(faqCategories, 'MLS listings'))).toBeGreaterThan(0);
  });

  it('uses a unique id for every question so one answer can be open at a time', () => {
    const ids = faqCategories.flatMap((category) => category.items.map((item) => item.id));

    expect(new Set(ids).size).toBe(ids.length);
  });
});
