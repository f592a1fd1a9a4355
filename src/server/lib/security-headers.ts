import type { ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The headers Helmet sets for these options, worked out once: they do not depend on the
 * request, and Helmet's Fastify plugin built the middleware (and parsed the CSP) again for
 * every request (2 % of the server's time in a save's saturation).
 */
function headersOf(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as never, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * Every answer's security headers (CSP without unsafe-eval or inline script). Plain
 * functions of the deployment, so `npm run bench:form` serves its reference pages with the
 * same document headers as ours (bench/form/serve-static.ts).
 */
export function securityHeaders({ https, uploadOrigin }: { https: boolean; uploadOrigin?: string | undefined }): Record<string, string> {
  return headersOf({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...(uploadOrigin ? [uploadOrigin] : [])],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'no-referrer' }, // tokens travel in addresses (reset id, service_token)
    crossOriginEmbedderPolicy: false,
    frameguard: { action: 'deny' },
  });
}
