import { describe, expect, it } from 'vitest';
import { PREFIX, ServiceMetrics } from './metrics.js';

/** The metrics of one name in a scrape's text: its HELP, TYPE and sample lines. */
const linesOf = (text: string, name: string) => text.split('\n').filter((l) => l.includes(`${PREFIX}${name}`));

describe('metrics › a gauge read when scraped', () => {
  it('is left out of a scrape whose read failed or answered null, not shown as 0; back with the next read', async () => {
    const metrics = new ServiceMetrics();
    let answer: () => Promise<number | null> = () => Promise.reject(new Error('the store is down'));
    metrics.gauge('queue_depth', 'Deliveries waiting.', () => answer());
    metrics.gauge('steady', 'Always there.', () => Promise.resolve(7));
    const failed = await metrics.text();
    expect(linesOf(failed, 'queue_depth')).toEqual([]);
    expect(linesOf(failed, 'steady')).toContain(`${PREFIX}steady 7`);
    answer = () => Promise.resolve(null);
    expect(linesOf(await metrics.text(), 'queue_depth')).toEqual([]);
    answer = () => Promise.resolve(3);
    expect(linesOf(await metrics.text(), 'queue_depth')).toContain(`${PREFIX}queue_depth 3`);
  });
});
