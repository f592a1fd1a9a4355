// ESLint keeps the boundaries between the parts of the program and the rules of hooks.
// The rule set is small on purpose: import boundaries, import cycles, hooks, and a few checks
// for real bugs. Style is nobody's business here.
import { readdirSync } from 'node:fs';
import { createRequire, Module } from 'node:module';

// typescript-eslint 8 parses with the JavaScript API of TypeScript 6; our `typescript` is 7, the
// native compiler, whose package has no such API (typescript-eslint refuses to load with it). So,
// before typescript-eslint loads, `require('typescript')` is answered with TypeScript 6 from
// @typescript/typescript6, in this process only; `tsc` (typecheck) stays 7. The `overrides` in
// package.json let typescript-eslint's peer dependency on `typescript` accept 7 at install time.
// Remove both once typescript-eslint supports TypeScript 7.
const require = createRequire(import.meta.url);
const typescriptEntry = require.resolve('typescript');
if (!require.cache[typescriptEntry]?.exports?.createSourceFile) {
  const typescript6 = new Module(typescriptEntry);
  typescript6.filename = typescriptEntry;
  typescript6.exports = require('@typescript/typescript6');
  typescript6.loaded = true;
  require.cache[typescriptEntry] = typescript6;
}

const { default: tseslint } = await import('typescript-eslint');
const { default: importX, createNodeResolver } = await import('eslint-plugin-import-x');
const { default: reactHooks } = await import('eslint-plugin-react-hooks');

// The client's features (src/client/features/<name>), and the other features each may import.
const clientFeatures = readdirSync(new URL('./src/client/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory()).map((entry) => entry.name);
/** @type {Record<string, string[]>} */
// the account menu holds the reminders' switch
const featureImports = { frame: ['reminders'] };

export default [
  {
    ignores: [
      'dist/',
      'node_modules/',
      'data/',
      'test-results/',
      'src/shared/generated/',
      // deliberate boundary violations that tests/unit/lint-boundaries.test.ts lints on purpose
      'tests/fixtures/lint/',
    ],
  },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: {
      parser: tseslint.parser,
      ecmaVersion: 'latest',
      sourceType: 'module',
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: {
      '@typescript-eslint': tseslint.plugin,
      'import-x': importX,
      'react-hooks': reactHooks,
    },
    settings: {
      // (package.json's `overrides` also hold import-x's unrs-resolver at 1.12.2: the registry
      // here serves 1.13.0 for Linux only, and a lockfile missing its other platforms fails `npm ci`)
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx', '.js', '.mjs'] },
    },
    rules: {
      'import-x/no-restricted-paths': ['error', {
        zones: [
          {
            target: './src/shared',
            from: ['./src/client', './src/server'],
            message: 'Shared code runs on both sides: it imports neither the client nor the server.',
          },
          {
            target: './src/server/routes',
            from: './src/server/db/repositories',
            message: 'Routes call services (src/server/<area>/), not repositories.',
          },
          {
            target: './src/client',
            from: './src/server',
            message: 'The client runs in the browser: it reaches the server through the API contract (src/shared/api), never its code.',
          },
          {
            target: './src/server',
            from: './src/client',
            message: 'The server does not import browser code; what both need lives in src/shared.',
          },
          {
            target: './src/client/features',
            from: './src/client/app',
            message: 'The app composes the features; a feature does not reach back into the app (pass what it needs as props or through the session).',
          },
          {
            target: './src/client/session',
            from: ['./src/client/features', './src/client/app'],
            message: 'The session (answers, saves, profile) sits under the features: it imports none of them.',
          },
          // each feature stands alone: what two features share goes to lib/, session/ or form-theme/
          ...clientFeatures.map((feature) => ({
            target: `./src/client/features/${feature}`,
            from: './src/client/features',
            except: [`./${feature}`, ...(featureImports[feature] ?? []).map((other) => `./${other}`)],
            message: `A feature imports no other feature (${feature} may import: ${(featureImports[feature] ?? []).join(', ') || 'none'}); move what they share to lib/, session/ or form-theme/.`,
          })),
          {
            target: './src/client/form-theme',
            from: ['./src/client/features', './src/client/session', './src/client/app', './src/shared/form/form-model-data.ts'],
            message: 'The form theme is generic: it reads its props, formContext and the schema, and imports no feature, session store, app code or the form model.',
          },
          {
            target: ['./bench', './support'],
            from: './tests',
            message: 'Benchmarks and the support code they share with tests import no test file: what both need lives in support/.',
          },
          {
            target: './src',
            from: ['./bench', './support', './tests', './scripts', './preview'],
            message: 'The product imports none of the code that exercises or measures it.',
          },
        ],
      }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],

      '@typescript-eslint/no-unused-vars': ['error', {
        args: 'after-used',
        argsIgnorePattern: '^_',
        varsIgnorePattern: '^_',
        caughtErrors: 'none',
        ignoreRestSiblings: true,
      }],
      'no-constant-binary-expression': 'error',
      'no-self-compare': 'error',
      'no-unsafe-finally': 'error',
      'no-async-promise-executor': 'error',
    },
  },
  {
    // The client calls the API only through the contract: callEndpoint and
    // endpointUrl take an endpoint's name, so no address is written in the client.
    files: ['src/client/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': ['error',
        ...['Literal[value=/^\\u002F(api|public|lookup|service|uploads|healthz)\\b/]', 'TemplateElement[value.raw=/^\\u002F(api|public|lookup|service|uploads|healthz)\\b/]'].map((selector) => ({
          selector,
          message: "An API address comes from the contract: call the endpoint by name through the feature's api/ module (callEndpoint, endpointUrl).",
        })),
      ],
    },
  },
  {
    // React runs only in the client (and in component tests); elsewhere a use… name is no hook
    files: ['src/client/**/*.{ts,tsx}', 'tests/**/*.tsx'],
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
];
