import { describe, expect, it } from 'vitest';
import { clientNetwork } from '../../src/server/lib/client-network.ts';

describe('the network a client address counts as', () => {
  it('is the IPv4 address, or the IPv6 /64 however it is spelled', () => {
    expect(clientNetwork('192.0.2.7')).toBe('192.0.2.7');
    expect(clientNetwork('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(clientNetwork('2001:db8:7:7::1')).toBe('2001:db8:7:7::/64');
    expect(clientNetwork('2001:0db8:0007:0007:ffff:1:2:3')).toBe('2001:db8:7:7::/64');
    expect(clientNetwork('2001:DB8:7:7:abcd::')).toBe('2001:db8:7:7::/64');
    expect(clientNetwork('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientNetwork('::1')).toBe('0:0:0:0::/64');
    expect(clientNetwork('2001:db8:7:8::1')).not.toBe(clientNetwork('2001:db8:7:7::1'));
  });

  it('is an IPv4 range where the operator gives a shorter prefix', () => {
    expect(clientNetwork('192.0.2.7', 24)).toBe('192.0.2.0/24');
    expect(clientNetwork('::ffff:192.0.2.200', 24)).toBe('192.0.2.0/24');
    expect(clientNetwork('10.1.255.255', 16)).toBe('10.1.0.0/16');
    expect(clientNetwork('203.0.113.9', 32)).toBe('203.0.113.9');
    expect(clientNetwork('2001:db8:7:7::1', 24)).toBe('2001:db8:7:7::/64'); // IPv6 stays a /64
  });
});
