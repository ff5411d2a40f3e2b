/**
 * CDN, hosting and DNS providers recognised from CNAME targets, name servers and response headers
 * (reference §5.3, sources S40 and S41). Offline and cheap: suffix and header-name tests only.
 */

const CDN_BY_CNAME_SUFFIX: ReadonlyArray<[string, string]> = [
  ['.cloudfront.net', 'Amazon CloudFront'],
  ['.fastly.net', 'Fastly'],
  ['.fastlylb.net', 'Fastly'],
  ['.akamaiedge.net', 'Akamai'],
  ['.edgekey.net', 'Akamai'],
  ['.edgesuite.net', 'Akamai'],
  ['.akamaized.net', 'Akamai'],
  ['.cloudflare.net', 'Cloudflare'],
  ['.cdn.cloudflare.net', 'Cloudflare'],
  ['.azureedge.net', 'Azure CDN'],
  ['.azurefd.net', 'Azure Front Door'],
  ['.b-cdn.net', 'Bunny CDN'],
  ['.cdn77.org', 'CDN77'],
  ['.incapdns.net', 'Imperva Incapsula'],
  ['.netlify.app', 'Netlify'],
  ['.vercel-dns.com', 'Vercel'],
  ['.github.io', 'GitHub Pages'],
  ['.herokudns.com', 'Heroku'],
  ['.googlehosted.com', 'Google'],
];

const DNS_PROVIDER_BY_NS: ReadonlyArray<[string, string]> = [
  ['.awsdns-', 'Amazon Route 53'],
  ['.ns.cloudflare.com', 'Cloudflare'],
  ['.nsone.net', 'NS1'],
  ['.domaincontrol.com', 'GoDaddy'],
  ['.azure-dns.', 'Azure DNS'],
  ['.googledomains.com', 'Google Domains'],
  ['.google.com', 'Google Cloud DNS'],
  ['.dnsimple.com', 'DNSimple'],
  ['.dynect.net', 'Dyn'],
  ['.ultradns.', 'UltraDNS'],
  ['.akam.net', 'Akamai'],
  ['.digitalocean.com', 'DigitalOcean'],
  ['.hetzner.com', 'Hetzner'],
  ['.ovh.net', 'OVH'],
  ['.registrar-servers.com', 'Namecheap'],
];

function bare(name: string): string {
  return `.${name.toLowerCase().replace(/\.$/, '')}`;
}

export function cdnFromCname(cnames: readonly string[]): string | null {
  for (const c of cnames) {
    const n = bare(c);
    for (const [suffix, provider] of CDN_BY_CNAME_SUFFIX) if (n.endsWith(suffix)) return provider;
  }
  return null;
}

export function dnsProviderFromNs(nameServers: readonly string[]): string | null {
  for (const ns of nameServers) {
    const n = bare(ns);
    for (const [part, provider] of DNS_PROVIDER_BY_NS) if (n.includes(part)) return provider;
  }
  return null;
}

/** Headers are lower-case names. Fastly needs several signals together (via varnish + x-served-by cache-). */
export function cdnFromHeaders(headers: Readonly<Record<string, string>>): string | null {
  const h = (name: string) => headers[name]?.toLowerCase() ?? '';
  if (h('server') === 'cloudflare' || 'cf-ray' in headers) return 'Cloudflare';
  if ('x-amz-cf-id' in headers || h('via').includes('cloudfront')) return 'Amazon CloudFront';
  if ('x-akamai-request-id' in headers || h('server').startsWith('akamai')) return 'Akamai';
  if ('x-iinfo' in headers) return 'Imperva Incapsula';
  if (h('via').includes('varnish') && h('x-served-by').startsWith('cache-')) return 'Fastly';
  if ('x-azure-ref' in headers) return 'Azure Front Door';
  if (h('server') === 'bunnycdn' || h('server').startsWith('bunnycdn')) return 'Bunny CDN';
  if ('x-vercel-id' in headers || h('server') === 'vercel') return 'Vercel';
  if ('x-nf-request-id' in headers || h('server') === 'netlify') return 'Netlify';
  if (h('server') === 'github.com') return 'GitHub Pages';
  return null;
}
