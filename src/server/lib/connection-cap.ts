import { BlockList, isIPv6, type Socket } from 'node:net';

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
 * Sockets held per client network, within a share per network and a total for everyone
 * (the file descriptors the process may open are the scarce resource). A new connection
 * from a network past its share is refused. When everyone together holds the total, a
 * newcomer from a network holding fewer takes the place of the oldest connection of the
 * network holding the most: many addresses of one range, each within its share, cannot keep
 * a new visitor out. Sockets of trusted proxies (many clients each) count in the total only.
 */
export function networkConnections(limits: { perNetwork: number; total: number }) {
  const byNetwork = new Map<string, Set<Socket>>();
  let open = 0;
  const forget = (network: string | undefined, socket: Socket) => {
    const sockets = network === undefined ? undefined : byNetwork.get(network);
    if (network !== undefined && !sockets?.delete(socket)) return;
    open--;
    if (sockets && !sockets.size) byNetwork.delete(network!);
  };
  /** The network holding the most, if it holds more than one more than `than`. */
  const largest = (than: number): string | undefined => {
    let chosen: string | undefined;
    let most = than + 1;
    for (const [network, sockets] of byNetwork) {
      if (sockets.size > most) [chosen, most] = [network, sockets.size];
    }
    return chosen;
  };
  return {
    /**
     * Admits a socket of `network` (undefined: a trusted proxy's), or says why not. An admitted
     * socket is forgotten when it closes; one evicted for it is destroyed here.
     */
    admit(socket: Socket, network: string | undefined): 'admitted' | 'over-share' | 'full' {
      const own = network === undefined ? undefined : byNetwork.get(network);
      if (own && own.size >= limits.perNetwork) return 'over-share';
      if (open >= limits.total) {
        const hog = largest(own?.size ?? 0);
        if (hog === undefined) return 'full';
        const [oldest] = byNetwork.get(hog)!;
        forget(hog, oldest!);
        oldest!.destroy();
      }
      open++;
      if (network !== undefined) {
        if (own) own.add(socket);
        else byNetwork.set(network, new Set([socket]));
      }
      socket.once('close', () => forget(network, socket));
      return 'admitted';
    },
    open: () => open,
  };
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
