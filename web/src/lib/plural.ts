/** "1 request", "3 requests": a count with its noun (English plurals by -s, or the one given). */
export function countOf(count: number, noun: string, plural = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : plural}`;
}

/** "3 requests from 3 people": how many times a property was requested, and by how many. */
export function requestsFromPeople(requests: number, people: number): string {
  return `${countOf(requests, 'request')} from ${countOf(people, 'person', 'people')}`;
}
