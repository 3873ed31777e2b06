export type FaqItem = { id: string; question: string; answer: string };
export type FaqCategory = { id: string; title: string; items: FaqItem[] };

/**
 * Keeps the questions whose question or answer contains the query, ignoring case, and drops
 * categories left empty. A blank query keeps everything.
 */
export function searchFaq(categories: readonly FaqCategory[], query: string): FaqCategory[] {
  const needle = query.trim().toLocaleLowerCase();
  if (needle === '') return categories.map((category) => ({ ...category, items: [...category.items] }));
  return categories
    .map((category) => ({
      ...category,
      items: category.items.filter(
        (item) =>
          item.question.toLocaleLowerCase().includes(needle) || item.answer.toLocaleLowerCase().includes(needle),
      ),
    }))
    .filter((category) => category.items.length > 0);
}

export function countFaqItems(categories: readonly FaqCategory[]): number {
  return categories.reduce((total, category) => total + category.items.length, 0);
}
