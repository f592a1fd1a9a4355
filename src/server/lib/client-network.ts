import { isIPv4, isIPv6 } from 'node:net';
import { plainAddress } from './connection-cap.ts';

/**
 * The network a client address belongs to, which is what the limits count: an IPv6 /64
 * (what one home or host is given, so rotating through its 2^64 addresses buys nothing),
 * and an IPv4 address, or its /`v4Prefix` where an operator says one client holds more
 * (NETWORK_PREFIX_V4, e.g. 24 behind a proxy that spreads one visitor over a range).
 */
export function clientNetwork(address: string | undefined, v4Prefix = 32): string {
  const plain = plainAddress(address);
  if (isIPv4(plain)) return v4Prefix >= 32 ? plain : ipv4Network(plain, v4Prefix);
  if (!isIPv6(plain.split('%')[0]!)) return plain;
  const [head = '', tail = ''] = plain.split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = plain.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((group) => group.toLowerCase().replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

function ipv4Network(address: string, prefix: number): string {
  const value = address.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
  const mask = prefix <= 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  const network = (value & mask) >>> 0;
  return `${[24, 16, 8, 0].map((shift) => (network >>> shift) & 255).join('.')}/${prefix}`;
}
