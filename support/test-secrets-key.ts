/**
 * The SECRETS_KEY of every server and command a test starts on PostgreSQL (vitest puts it in
 * the test process's environment, so spawned commands have it too). On PGlite a test server
 * makes its own key file in its DATA_DIR, as `npm start` does.
 */
export const TEST_SECRETS_KEY = Buffer.alloc(32, 'test-secrets-key').toString('base64');
