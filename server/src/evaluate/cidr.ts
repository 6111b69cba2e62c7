/**
 * `Fn::Cidr`: split an address block into `count` consecutive subnets with
 * `cidrBits` host bits each (so a /32-`cidrBits` prefix for IPv4, /128-`cidrBits` for IPv6).
 */

/** The subnets `Fn::Cidr` returns, or a message saying why the arguments are invalid. */
export function computeCidr(ipBlock: string, count: number, cidrBits: number): { subnets: string[] } | { error: string } {
  const slash = ipBlock.indexOf('/');
  if (slash < 0) return { error: `Fn::Cidr: '${ipBlock}' is not a CIDR block` };
  const address = ipBlock.slice(0, slash);
  const prefixText = ipBlock.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefixText)) return { error: `Fn::Cidr: '${ipBlock}' is not a CIDR block` };
  const prefix = Number(prefixText);
  const v4 = parseIpv4(address);
  const v6 = v4 === undefined ? parseIpv6(address) : undefined;
  if (v4 === undefined && v6 === undefined) return { error: `Fn::Cidr: '${ipBlock}' is not a CIDR block` };
  const width = v4 !== undefined ? 32 : 128;
  if (prefix > width) return { error: `Fn::Cidr: '${ipBlock}' is not a CIDR block` };
  if (!Number.isInteger(count) || count < 1 || count > 256) return { error: 'Fn::Cidr: count must be an integer between 1 and 256' };
  if (!Number.isInteger(cidrBits) || cidrBits < 0 || cidrBits > width) return { error: `Fn::Cidr: cidrBits must be an integer between 0 and ${width}` };
  const subnetPrefix = width - cidrBits;
  if (subnetPrefix < prefix) return { error: `Fn::Cidr: subnets with ${cidrBits} host bits are larger than ${ipBlock}` };
  const available = 1n << BigInt(subnetPrefix - prefix);
  if (BigInt(count) > available) return { error: `Fn::Cidr: ${ipBlock} holds only ${available} subnets of /${subnetPrefix}, not ${count}` };
  const bigWidth = BigInt(width);
  const base = (v4 ?? v6)! & (((1n << bigWidth) - 1n) ^ ((1n << BigInt(width - prefix)) - 1n));
  const step = 1n << BigInt(cidrBits);
  const subnets: string[] = [];
  for (let i = 0n; i < BigInt(count); i++) {
    const start = base + i * step;
    subnets.push((v4 !== undefined ? formatIpv4(start) : formatIpv6(start)) + '/' + subnetPrefix);
  }
  return { subnets };
}

function parseIpv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0n;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined;
    n = (n << 8n) | BigInt(Number(p));
  }
  return n;
}

function formatIpv4(n: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((n >> shift) & 255n)).join('.');
}

function parseIpv6(text: string): bigint | undefined {
  let groups: string[];
  const double = text.indexOf('::');
  if (double >= 0) {
    if (text.indexOf('::', double + 1) >= 0) return undefined;
    const head = text.slice(0, double) === '' ? [] : text.slice(0, double).split(':');
    const tail = text.slice(double + 2) === '' ? [] : text.slice(double + 2).split(':');
    const missing = 8 - head.length - tail.length;
    if (missing < 1) return undefined;
    groups = [...head, ...Array<string>(missing).fill('0'), ...tail];
  } else groups = text.split(':');
  if (groups.length !== 8) return undefined;
  let n = 0n;
  for (const g of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
    n = (n << 16n) | BigInt(parseInt(g, 16));
  }
  return n;
}

/** RFC 5952 text: lower case, no leading zeros, the longest run (of two or more) of zero groups as `::`. */
function formatIpv6(n: bigint): string {
  const groups: number[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) groups.push(Number((n >> shift) & 0xffffn));
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return hex.slice(0, bestStart).join(':') + '::' + hex.slice(bestStart + bestLength).join(':');
}
