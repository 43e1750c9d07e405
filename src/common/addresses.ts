import { isIPv4, isIPv6 } from 'node:net';

/** An IPv4-mapped IPv6 address (`::ffff:203.0.113.9`, as a dual-stack socket reports) as the IPv4 address it carries; any other as it is. */
export const unmapped = (ip: string): string => /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1] ?? ip;

/**
 * The network of a client address: an IPv4 address whole (`v4: 32`) or its /24, an IPv6 address's
 * first `v6` bits, `::` expanded, in lower case without leading zeros; null when it is neither.
 *
 * @example
 * networkOf('::ffff:203.0.113.9', { v4: 24, v6: 48 }) // '203.0.113.0/24'
 * networkOf('2001:db8:1:2::99', { v4: 32, v6: 64 }) // '2001:db8:1:2::/64'
 */
export function networkOf(ip: string, bits: { v4: 24 | 32; v6: 48 | 64 }): string | null {
  const v4 = unmapped(ip);
  if (isIPv4(v4)) return bits.v4 === 32 ? v4 : `${v4.split('.').slice(0, 3).join('.')}.0/24`;
  if (!isIPv6(ip)) return null;
  const [head = '', tail] = ip.toLowerCase().split('%', 1)[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, bits.v6 / 16)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/${bits.v6}`;
}
