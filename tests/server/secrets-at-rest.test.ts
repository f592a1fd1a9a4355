import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { openSecret, sealSecret } from '../../src/server/lib/secret-store.ts';
import { SECRETS_KEY_FILE } from '../../src/server/lib/secrets-key.ts';
import { signServiceToken, verifyServiceToken } from '../../src/server/pdf/service-token.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServerOn, type TestServer } from '../../support/test-server.ts';

/**
 * The server's secrets (the staff links' signing key, the upload policies' key, the key of
 * the confirmation codes' hashes) are kept in the database so that every server agrees,
 * sealed with a key kept outside it: a copy of the database alone forges no staff link.
 */
describe.each(databaseTargets())('secrets at rest on $name', (target) => {
  let server: TestServer;
  const storedSecrets = async () => server.app.db.selectFrom('app_secrets').select(['name', 'value']).orderBy('name').execute();

  beforeAll(async () => {
    server = await startTestServerOn(target, { listen: false });
    await createConfirmedApplicant(server.app, `sealed.${target.name}@example.org`); // a confirmation code is hashed with its key
  });
  afterAll(async () => {
    await server?.close();
  });

  it('holds every secret sealed: none of the keys the server signs with is in the database', async () => {
    const rows = await storedSecrets();
    expect(rows.map((row) => row.name)).toEqual(['confirmation-code-key', 'counselor-link-key', 'save-queue-key', 'service-token-key', 'unsubscribe-key', 'upload-policy-key']);
    const everything = JSON.stringify(rows);
    for (const secret of [server.app.serviceSecret, server.app.uploadSecret]) {
      expect(secret.length).toBeGreaterThanOrEqual(40);
      expect(everything).not.toContain(secret);
    }
    for (const row of rows) expect(row.value).toMatch(/^v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
  });

  it('keeps its key outside the database: a file of its user only in DATA_DIR, or SECRETS_KEY', () => {
    if (target.name === 'pglite') {
      const info = statSync(join(server.config.dataDir, SECRETS_KEY_FILE));
      expect(info.mode & 0o777).toBe(0o600);
    } else {
      expect(server.config.secretsKey).toBeInstanceOf(Buffer); // servers on one PostgreSQL share it
    }
  });

  it('seals a secret an older version stored in clear, keeping its value, so its staff links still open', async () => {
    const legacy = 'a-service-key-stored-in-clear-by-an-older-version';
    await server.stop();
    // the stopped app's database is closed: write through a fresh app on the same data, then start
    const writer = await buildApp(server.config, { logger: false });
    await writer.db.updateTable('app_secrets').set({ value: legacy }).where('name', '=', 'service-token-key').execute();
    await writer.close();
    const token = signServiceToken(legacy, 'some-applicant-id', 60_000);
    await server.start();
    expect(server.app.serviceSecret).toBe(legacy);
    expect(verifyServiceToken(server.app.serviceSecret, token)).toMatchObject({ applicantId: 'some-applicant-id' });
    const row = (await storedSecrets()).find((item) => item.name === 'service-token-key')!;
    expect(row.value).not.toContain(legacy);
    expect(row.value.startsWith('v1:')).toBe(true);
  });

  it('refuses to start with another key, saying that servers on one database need the same SECRETS_KEY', async () => {
    await server.stop();
    const other = Buffer.alloc(32, 'another-key').toString('base64');
    const config = { ...server.config, secretsKey: Buffer.from(other, 'base64') };
    await expect(buildApp(config, { logger: false })).rejects.toThrow(/sealed with another key: every server on one database needs the same SECRETS_KEY/);
    await server.start();
  });
});

describe('sealing a secret', () => {
  const key = Buffer.alloc(32, 3);
  it('opens only with its key and under its own name', () => {
    const sealed = sealSecret(key, 'service-token-key', 'the value');
    expect(sealed).not.toContain('the value');
    expect(openSecret(key, 'service-token-key', sealed)).toBe('the value');
    expect(() => openSecret(Buffer.alloc(32, 4), 'service-token-key', sealed)).toThrow(/another key/);
    expect(() => openSecret(key, 'upload-policy-key', sealed)).toThrow(/another key/);
    expect(sealSecret(key, 'service-token-key', 'the value')).not.toBe(sealed); // a fresh nonce each time
  });
});
