import { BlockList, isIPv6 } from 'node:net';

/** '::ffff:10.0.0.1' is 10.0.0.1: one client, whichever way the socket spells it. */
export function plainAddress(address: string | undefined): string {
  return (address ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
}

/**
 * Whether a connection's peer is a proxy TRUST_PROXY names. A hop count trusts whoever
 * connects (the load balancer is the only peer); an address list trusts those peers only.
 */
export function trustedPeer(trustProxy: number | string[] | false): (address: string) => boolean {
  if (trustProxy === false) return () => false;
  if (typeof trustProxy === 'number') return () => trustProxy > 0;
  const list = new BlockList();
  for (const item of trustProxy) {
    const [address, prefix] = item.split('/') as [string, string | undefined];
    const type = isIPv6(address) ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return (address) => list.check(address, isIPv6(address) ? 'ipv6' : 'ipv4');
}

/**
 * Counts what each client address holds open and says when one more is too many. A held
 * thing is given back by the function `take` returns (given back once, however often called).
 */
export function perAddressCount(limit: number) {
  const held = new Map<string, number>();
  return {
    /** a release function, or undefined when the address already holds `limit` */
    take(address: string): (() => void) | undefined {
      const count = held.get(address) ?? 0;
      if (count >= limit) return undefined;
      held.set(address, count + 1);
      let given = false;
      return () => {
        if (given) return;
        given = true;
        const left = (held.get(address) ?? 1) - 1;
        if (left > 0) held.set(address, left);
        else held.delete(address);
      };
    },
    held: (address: string) => held.get(address) ?? 0,
  };
}
